// Every engine kept (issue 40, item 1): a forecast record holds ia1's scores, ia2's forecast and
// ia3's label and policy version as the server sent them, never a value made up; a settlement
// repeats ia2's probabilities; an export's engine columns are read back by name in every
// import format, checked as the other columns are, and a row without them is ia3-only.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ForecastEnvelope } from '../../src/schema/bodies.js';
import { recordShown } from '../../src/journal/hook.js';
import { importJournal, importStdin } from '../../src/journal/import.js';
import {
  forecastRecords,
  ia2Probabilities,
  JOURNAL_VERSION,
  settledRecord,
  unsettleableRecord,
  type ForecastRecord,
} from '../../src/journal/record.js';
import { ENGINE_COLUMNS, EXPORT_COLUMNS, forEachRow, type JournalRow } from '../../src/journal/rows.js';
import { openJournalDir } from '../../src/journal/journal-files.js';
import { renderDelimited } from '../../src/output/formats/delimited.js';
import { tempDir } from '../helpers/cli.js';
import { journalLines } from '../helpers/journal-rows.js';
import { exportText, forecastAt, NOV, writeJournal } from '../helpers/journal-round-trip.js';

const ORIGIN = 'https://api.example.com';

/** A response of one 1h forecast whose engines are `engines` (the rest as the seed documents it). */
function response(engines: Record<string, unknown>, serverT = NOV + 60): ForecastEnvelope {
  return {
    ok: true,
    symbol: 'BTC/USD',
    price: { last: 100, t: NOV, change24h_pct: 0, source: 'x' },
    predictions: {
      '1h': {
        tf: '1h',
        ts: NOV,
        horizon_min: 60,
        target_t: NOV + 3600,
        age_s: 60,
        anchor_price: 100,
        target_price: 101,
        ...engines,
      },
    },
    meta: { source: 's', license: 'l', disclaimer: 'd', tier: 'free', data_delay_min: 15, server_t: serverT },
  } as unknown as ForecastEnvelope;
}

const IA1 = { score: -0.5365, rsi_score: -0.5846, ema_score: -0.4884 };
const IA2 = {
  predicted_change_pct: -0.0093,
  confidence: 0.4456,
  label_raw: 'estable',
  p_long: 0.2766,
  p_short: 0.2778,
  p_flat: 0.4456,
};
const IA3 = { label: 'short', direction: 'short', p_long: 0.4481, p_short: 0.4724, p_flat: 0.0795, policy_version: 3 };

const rowsOf = (data: string): JournalRow[] => {
  const rows: JournalRow[] = [];
  forEachRow(openJournalDir(data, { create: false }), {}, 0.01, (r) => rows.push(r));
  return rows;
};

describe('a forecast record', () => {
  it('keeps every engine as sent, in the order of the fields of record.ts, after ia3’s call', () => {
    const [f] = forecastRecords({ symbol: 'BTC/USD', body: response({ ia1: IA1, ia2: IA2, ia3: IA3 }) }, ORIGIN, NOV);
    expect(f).toMatchObject({
      v: JOURNAL_VERSION,
      direction: 'short',
      p_long: 0.4481,
      ia1: IA1,
      ia2: { p_long: 0.2766, p_short: 0.2778, p_flat: 0.4456, predicted_change_pct: -0.0093, confidence: 0.4456 },
      ia3: { label: 'short', policy_version: 3 },
    });
    expect(Object.keys(f!).slice(-3)).toEqual(['ia1', 'ia2', 'ia3']);
    expect(Object.keys(f!.ia2!)).toEqual([
      'p_long',
      'p_short',
      'p_flat',
      'predicted_change_pct',
      'confidence',
      'label_raw',
    ]);
    expect(ia2Probabilities(f!)).toEqual({ p_long: 0.2766, p_short: 0.2778, p_flat: 0.4456 });
  });

  it('keeps a field the server sent as no number (or no text) as null, and an engine it did not send as none', () => {
    const body = response({
      ia1: { score: '0.5', rsi_score: null, ema_score: Number.NaN },
      ia2: { ...IA2, p_short: undefined, confidence: '0.9', label_raw: 7 },
      ia3: { ...IA3, label: undefined, policy_version: 'three' },
    });
    const [f] = forecastRecords({ symbol: 'BTC/USD', body }, ORIGIN, NOV);
    expect(f!.ia1).toBeNull();
    expect(f!.ia2).toEqual({
      p_long: 0.2766,
      p_short: null,
      p_flat: 0.4456,
      predicted_change_pct: -0.0093,
      confidence: null,
      label_raw: null,
    });
    expect(f!.ia3).toBeNull();
    expect(ia2Probabilities(f!)).toBeUndefined();
    const [bare] = forecastRecords({ symbol: 'BTC/USD', body: response({ ia3: IA3 }) }, ORIGIN, NOV);
    expect([bare!.ia1, bare!.ia2, bare!.ia3]).toEqual([null, null, { label: 'short', policy_version: 3 }]);
  });

  it('repeats ia2’s probabilities on its settlement, last on the line; none where it lacks one', () => {
    const f = forecastAt(0, {
      ia2: { p_long: 0.5, p_short: 0.3, p_flat: 0.2, predicted_change_pct: 1, confidence: 0.5, label_raw: 'sube' },
    });
    const s = settledRecord(f, { price: 101, t: f.target_t, source: 'candles' }, 0.01, NOV + 9000);
    expect(s.ia2).toEqual({ p_long: 0.5, p_short: 0.3, p_flat: 0.2 });
    expect(Object.keys(s).at(-1)).toBe('ia2');
    const lacking = { ...f, ia2: { ...f.ia2!, p_flat: null } };
    expect(unsettleableRecord(lacking, 'why', NOV).ia2).toBeNull();
    // A record of version 2 (ia3-only) has none of them.
    const { ia1: _1, ia2: _2, ia3: _3, ...ia3Only } = f;
    const older: ForecastRecord = { ...ia3Only, v: 2 };
    expect(ia2Probabilities(older)).toBeUndefined();
    expect(settledRecord(older, { price: 101, t: f.target_t, source: 'candles' }, 0.01, 1).ia2).toBeNull();
  });

  it('--record settles what a response proves with ia2’s probabilities, from the index’s open forecasts', async () => {
    const data = tempDir();
    await recordShown(data, ORIGIN, [{ symbol: 'BTC/USD', body: response({ ia1: IA1, ia2: IA2, ia3: IA3 }) }], NOV);
    // The index keeps the open forecast with ia2's probabilities after ia3's.
    const index = JSON.parse(readFileSync(join(data, 'journal', 'index.json'), 'utf8'));
    expect(index.open[0].slice(-6)).toEqual([0.4481, 0.4724, 0.0795, 0.2766, 0.2778, 0.4456]);
    // Later, a response whose price is taken at the target time: the forecast is settled by it.
    const later = response({ ia1: IA1, ia2: IA2, ia3: IA3 }, NOV + 3700);
    later.price = { last: 99, t: NOV + 3600, change24h_pct: 0, source: 'x' };
    const done = await recordShown(data, ORIGIN, [{ symbol: 'BTC/USD', body: later }], NOV + 3700);
    expect(done.settled).toBe(1);
    const [settlement] = journalLines(data).filter((r) => r.kind === 'settlement');
    expect(settlement).toMatchObject({ status: 'settled', settle_price: 99, ia2: { p_long: 0.2766, p_short: 0.2778 } });
  });
});

describe('the engine columns of an export', () => {
  /** A settled forecast with every engine, and an open one with none: exported rows. */
  async function journal(): Promise<{ data: string; rows: JournalRow[] }> {
    const data = tempDir();
    const full = forecastAt(0, {
      ia1: { score: 0.1, rsi_score: 1e-7, ema_score: null },
      ia2: { p_long: 1.5, p_short: -0.5, p_flat: 0, predicted_change_pct: 2, confidence: null, label_raw: '=sube' },
      ia3: { label: 'long', policy_version: 3 },
    });
    await writeJournal(
      data,
      [
        [full, 'settled', 10_100],
        [forecastAt(1, {}), 'open', 0],
      ],
      'no candle',
    );
    return { data, rows: rowsOf(data) };
  }

  it('follow every other column, in their order; empty for an ia3-only record', async () => {
    const { data, rows } = await journal();
    const [header, settled, open] = exportText(data, 'csv').trimEnd().split('\n');
    expect(header!.split(',').slice(-ENGINE_COLUMNS.length)).toEqual([...ENGINE_COLUMNS]);
    expect(header!.split(',').slice(0, EXPORT_COLUMNS.length)).toEqual([...EXPORT_COLUMNS]);
    expect(settled!.split(',').slice(-ENGINE_COLUMNS.length)).toEqual([
      '0.1',
      '1e-7',
      '',
      '1.5',
      '-0.5',
      '0',
      '2',
      '',
      "'=sube",
      'long',
      '3',
    ]);
    expect(open!.split(',').slice(-ENGINE_COLUMNS.length)).toEqual(ENGINE_COLUMNS.map(() => ''));
    expect(rows[0]!['ia2.p_long']).toBe(1.5);
  });

  it('are read back by name from CSV, TSV, JSON Lines and stdin, in any order; a probability out of [0, 1] as sent', async () => {
    const { data, rows } = await journal();
    const header: string[] = [...[...ENGINE_COLUMNS].reverse(), ...EXPORT_COLUMNS];
    const texts = {
      csv: renderDelimited(
        'csv',
        header,
        rows.map((r) => header.map((c) => r[c as keyof JournalRow])),
        { exact: true },
      ),
      tsv: renderDelimited(
        'tsv',
        header,
        rows.map((r) => header.map((c) => r[c as keyof JournalRow])),
        { exact: true },
      ),
      jsonl: exportText(data, 'jsonl'),
    };
    const stored = journalLines(data).filter((r) => r.kind !== 'price');
    for (const [format, text] of Object.entries(texts)) {
      const file = join(tempDir(), `export.${format}`);
      writeFileSync(file, text);
      const other = tempDir();
      expect(await importJournal(other, file, NOV + 9000), format).toMatchObject({ forecasts: 2, skipped: 0 });
      const back = journalLines(other);
      expect(
        back.map((r) => [r.kind, r.ia1, r.ia2, r.ia3]),
        format,
      ).toEqual(stored.map((r) => [r.kind, r.ia1, r.ia2, r.ia3]));
      const piped = tempDir();
      await importStdin(piped, Readable.from([text]), NOV + 9000);
      expect(
        journalLines(piped).map((r) => r.ia2),
        `${format} on stdin`,
      ).toEqual(back.map((r) => r.ia2));
    }
  });

  it('are checked as the other number columns: a cell that is no number refuses its row, naming the column', async () => {
    const { rows } = await journal();
    const header = [...EXPORT_COLUMNS, ...ENGINE_COLUMNS];
    const cells = rows.map((r) => header.map((c) => r[c]));
    cells[0]![header.indexOf('ia2.p_short')] = 'low';
    cells[0]![header.indexOf('ia1.score')] = '0x1';
    const file = join(tempDir(), 'bad.csv');
    writeFileSync(file, renderDelimited('csv', header, cells));
    const got = await importJournal(tempDir(), file, NOV);
    expect(got).toMatchObject({
      forecasts: 1,
      skipped: 1,
      problems: [{ line: 2, error: 'bad ia1.score, ia2.p_short (a number, or empty)' }],
    });
    const jsonl = join(tempDir(), 'bad.jsonl');
    writeFileSync(jsonl, `${JSON.stringify({ ...rows[1], 'ia3.policy_version': true })}\n`);
    await expect(importJournal(tempDir(), jsonl, NOV)).rejects.toThrow(
      'line 1: bad ia3.policy_version (a number, or empty)',
    );
  });

  it('are not needed: a row without them (an export from before them) is an ia3-only record', async () => {
    const { rows } = await journal();
    const header = [...EXPORT_COLUMNS];
    const file = join(tempDir(), 'old.csv');
    writeFileSync(
      file,
      renderDelimited(
        'csv',
        header,
        rows.map((r) => header.map((c) => r[c])),
      ),
    );
    const other = tempDir();
    expect(await importJournal(other, file, NOV + 9000)).toMatchObject({ forecasts: 2, settlements: 1, skipped: 0 });
    const back = journalLines(other);
    expect(back.map((r) => [r.kind, r.ia1, r.ia2, r.ia3])).toEqual([
      ['forecast', null, null, null],
      ['settlement', undefined, null, undefined],
      ['forecast', null, null, null],
    ]);
    expect(back.filter((r) => ia2Probabilities(r as ForecastRecord) !== undefined)).toHaveLength(0);
  });
});
