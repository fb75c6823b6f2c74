// The report's fast path reads fcast's own lines without JSON.parse: it must find exactly what
// JSON.parse finds, for any record fcast can write, and skip what is torn or damaged.
import { appendFileSync, closeSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MessageChannel } from 'node:worker_threads';
import { type ReportVisitor, scanForReport, scoredLine, type ScoredLine } from '../../src/journal/fast-lines.js';
import { openScans } from '../../src/journal/scan-ahead.js';
import {
  HERE,
  newRing,
  partyOf,
  RingReader,
  RingWriter,
  type ScanWants,
  seriesBase,
  sharesOf,
} from '../../src/journal/scan-ring.js';
import {
  CHUNK,
  checkRecord,
  forEachLine,
  forEachLineBetween,
  MAX_LINE,
  noProblems,
  openToRead,
  readRecords,
} from '../../src/journal/lines.js';
import {
  alertLine,
  type AlertRecord,
  ia2Probabilities,
  JOURNAL_VERSION,
  recordLine,
  settledRecord,
  unsettleableRecord,
  type ForecastRecord,
  type JournalRecord,
} from '../../src/journal/record.js';
import { tempDir } from '../helpers/cli.js';
import { forecastAt } from '../helpers/journal-round-trip.js';

/** A forecast of 2027-01-15 (an hour ahead), with `fields` over it. */
const forecastOf = (fields: Partial<ForecastRecord>): ForecastRecord =>
  forecastAt(0, { ts: 1_800_000_000, target_t: 1_800_003_600, anchor_price: 1, recorded_at: 1_800_000_000, ...fields });

const number = fc.oneof(
  fc.integer({ min: -1_000_000, max: 1_000_000 }).map((k) => k / 100),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, 1e-7, 123456789012345, 1234567890123456, 97123.45, 0.30000000000000004),
);
const text = fc.oneof(
  fc.constantFrom('BTC/USD', 'ETH/USD', '15min', '1h', 'long', 'short'),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
);

const origin = fc.option(fc.constantFrom('https://api.example.com', 'http://127.0.0.1:8787', 'http://[::1]:9'), {
  nil: null,
});

/** Every engine as a forecast may hold it: null, or each field a value or null (the server sent none). */
function engines(
  num: fc.Arbitrary<number>,
  txt: fc.Arbitrary<string>,
): fc.Arbitrary<Pick<ForecastRecord, 'ia1' | 'ia2' | 'ia3'>> {
  const n = fc.option(num, { nil: null, freq: 4 });
  const t = fc.option(txt, { nil: null, freq: 4 });
  return fc.record({
    ia1: fc.option(fc.record({ score: n, rsi_score: n, ema_score: n }), { nil: null, freq: 4 }),
    ia2: fc.option(
      fc.record({ p_long: n, p_short: n, p_flat: n, predicted_change_pct: n, confidence: n, label_raw: t }),
      { nil: null, freq: 4 },
    ),
    ia3: fc.option(fc.record({ label: t, policy_version: n }), { nil: null, freq: 4 }),
  });
}

/**
 * A record as a version 2 fcast wrote it (ia3-only: no engines), for the records of
 * `versioned`: the journals of users who recorded before the engines were kept hold millions.
 */
function asVersion2(r: JournalRecord): JournalRecord {
  const { ia1: _1, ia2: _2, ia3: _3, ...rest } = r as JournalRecord & Record<'ia1' | 'ia2' | 'ia3', unknown>;
  return { ...rest, v: 2 } as JournalRecord;
}

const forecast = fc
  .record({
    origin,
    symbol: text,
    tf: text,
    ts: fc.integer({ min: 0, max: 4_000_000_000 }),
    horizon_min: fc.integer({ min: 0, max: 5000 }),
    target_t: fc.integer({ min: 0, max: 4_000_000_000 }),
    anchor_price: fc.option(
      number.filter((n) => n !== 0),
      { nil: null },
    ),
    target_price: fc.option(number, { nil: null }),
    direction: text,
    p_long: number,
    p_short: number,
    p_flat: number,
    tier: fc.option(text, { nil: null }),
    delay_min: fc.option(fc.integer({ min: 0, max: 100 }), { nil: null }),
    server_t: fc.option(fc.integer({ min: 0, max: 4_000_000_000 }), { nil: null }),
    recorded_at: fc.integer({ min: 0, max: 4_000_000_000 }),
    engines: engines(number, text),
  })
  .map(
    ({ origin, engines, ...f }): ForecastRecord => ({ v: JOURNAL_VERSION, kind: 'forecast', origin, ...f, ...engines }),
  );

const recordOfThisVersion: fc.Arbitrary<JournalRecord> = fc.oneof(
  forecast,
  fc
    .tuple(
      forecast,
      number,
      fc.integer({ min: 0, max: 4_000_000_000 }),
      fc.constantFrom('candles', 'price') as fc.Arbitrary<'candles' | 'price'>,
    )
    .filter(([f]) => f.anchor_price !== null)
    .map(([f, price, t, source]) => settledRecord(f, { price, t, source }, 0.01, 1_800_000_000)),
  fc.tuple(forecast, text).map(([f, why]) => unsettleableRecord(f, why, 1_800_000_000)),
  fc.record({ origin, symbol: text, t: fc.integer({ min: 0, max: 4_000_000_000 }), last: number }).map(
    ({ origin, ...p }): JournalRecord => ({
      v: JOURNAL_VERSION,
      kind: 'price',
      origin,
      ...p,
      tier: 'free',
      delay_min: 15,
      recorded_at: 1,
    }),
  ),
);

/** Records of this version and of version 2, mixed as a journal kept across the upgrade holds them. */
const record: fc.Arbitrary<JournalRecord> = fc
  .tuple(recordOfThisVersion, fc.boolean())
  .map(([r, older]) => (older ? asVersion2(r) : r));

interface Seen {
  forecasts: string[];
  settlements: ScoredLine[];
  prices: string[];
}

/** What the fast path hands a visitor; with `engines`, the settlements' ia2 and the forecasts' target_t too. */
function throughFastPath(path: string, engines = false): Seen & { damaged: number } {
  const seen: Seen = { forecasts: [], settlements: [], prices: [] };
  const problems = noProblems();
  scanForReport(
    path,
    {
      forecast: (origin, symbol, tf, ts, _series, targetT) =>
        seen.forecasts.push(`${origin}|${symbol}|${tf}|${ts}${engines ? `|${targetT}` : ''}`),
      // ia2 is rewritten in place for the next line: copied, as a visitor must.
      settlement: (s) => seen.settlements.push({ ...s, ia2: s.ia2 && { ...s.ia2 } }),
      price: (origin, symbol, t) => seen.prices.push(`${origin}|${symbol}|${t}`),
      engines,
      targets: engines,
    },
    problems,
  );
  return { ...seen, damaged: problems.damaged };
}

function throughJsonParse(path: string, engines = false): Seen & { damaged: number } {
  const seen: Seen = { forecasts: [], settlements: [], prices: [] };
  const problems = noProblems();
  readRecords(
    path,
    0,
    (r) => {
      if (r.kind === 'forecast')
        seen.forecasts.push(`${r.origin}|${r.symbol}|${r.tf}|${r.ts}${engines ? `|${r.target_t}` : ''}`);
      else if (r.kind === 'price') seen.prices.push(`${r.origin}|${r.symbol}|${r.t}`);
      else if (r.kind === 'settlement') seen.settlements.push(scoredLine(r, engines));
    },
    problems,
  );
  return { ...seen, damaged: problems.damaged };
}

/** A settlement's line whose `"p_long":0.25,` the number tests replace with a form of their own. */
const P_LONG_LINE = recordLine(
  settledRecord(forecastOf({ p_long: 0.25 }), { price: 2, t: 1_800_003_600, source: 'candles' }, 0.01, 1_800_000_000),
);

describe('the fast path of the report', () => {
  const dir = tempDir();

  it('finds what JSON.parse finds, value for value, in any lines fcast writes', () => {
    let n = 0;
    fc.assert(
      fc.property(fc.array(record, { maxLength: 30 }), (records) => {
        const path = join(dir, `lines-${n++}.jsonl`);
        writeFileSync(path, records.map(recordLine).join(''));
        const fast = throughFastPath(path);
        const full = throughJsonParse(path);
        expect(fast).toEqual(full);
        expect(full.damaged).toBe(0);
        // ia2's probabilities, for a comparison of the engines: the settlement's own, or null.
        const withEngines = throughFastPath(path, true);
        expect(withEngines).toEqual(throughJsonParse(path, true));
        expect(withEngines.settlements.map((s) => s.ia2)).toEqual(
          records
            .map((r) => JSON.parse(recordLine(r)) as JournalRecord)
            .flatMap((r) => (r.kind === 'settlement' ? [ia2Probabilities(r) ?? null] : [])),
        );
      }),
      // FCAST_FUZZ_RUNS lowers the count (test:quick sets 50); it never raises it.
      { numRuns: Math.min(300, Number(process.env.FCAST_FUZZ_RUNS ?? 300)) },
    );
  }, 60_000);

  it('reads long decimals (16-17 significant digits past 2^53, read without Number()) as JSON.parse does', () => {
    // The varied journal's shapes: unrounded prices and probabilities, and 17-digit decimals
    // of every scale, written as JavaScript writes them (the shortest form that reads back).
    const long = fc.oneof(
      fc.double({ min: 1e-4, max: 1e9, noNaN: true }),
      fc.double({ min: 1e-7, max: 1e-3, noNaN: true }),
      fc.double({ min: 0, max: 1, noNaN: true }).map((r) => 100 + 50 * r),
      fc
        .tuple(fc.bigInt({ min: 10n ** 16n, max: 10n ** 17n - 1n }), fc.integer({ min: 0, max: 17 }))
        .map(([m, k]) => Number(`${m}e-${k}`)),
    );
    const f = forecastOf({ origin: null, symbol: 'S/USD' });
    let n = 0;
    fc.assert(
      fc.property(fc.array(fc.tuple(long, long, long, long), { minLength: 1, maxLength: 50 }), (rows) => {
        const path = join(dir, `long-${n++}.jsonl`);
        const records = rows.map(([a, b, c, d], i) =>
          settledRecord(
            { ...f, ts: f.ts + i * 60, anchor_price: a, p_long: b, p_short: c },
            { price: d, t: f.target_t + i * 60, source: 'candles' },
            0.01,
            1_800_009_000,
          ),
        );
        writeFileSync(path, records.map(recordLine).join(''));
        expect(throughFastPath(path)).toEqual(throughJsonParse(path));
      }),
      { numRuns: Math.min(300, Number(process.env.FCAST_FUZZ_RUNS ?? 300)) },
    );
  });

  it("reads the varied journal's long decimals from their digits, none through Number(), to JSON.parse's values", () => {
    // scripts/bench-journal.js's varied shape: unrounded prices near 100-150 and probabilities,
    // 16-17 significant digits. About one in ten has its sum of digits and its quotient both
    // rounded the same way, a quotient one ulp off: its neighbour must be found, not Number()
    // asked (a string per number, 450,000 in the varied million). Seeded: the same numbers each run.
    let seed = 20_261_127;
    const next = () => {
      seed = (seed * 48_271) % 2_147_483_647;
      return seed / 2_147_483_647;
    };
    const f = forecastOf({ origin: 'http://127.0.0.1:9', symbol: 'S01/USD' });
    const records = Array.from({ length: 4000 }, (_, i) => {
      const anchor = 100 + 50 * next();
      const long = 0.25 + 0.5 * next();
      const flat = 0.04 + 0.12 * next();
      return settledRecord(
        { ...f, ts: f.ts + i * 60, anchor_price: anchor, p_long: long, p_short: 1 - long - flat, p_flat: flat },
        { price: anchor * (1 + (next() - 0.5) * 0.008), t: f.target_t + i * 60, source: 'candles' },
        0.01,
        1_800_009_000,
      );
    });
    const path = join(dir, 'varied.jsonl');
    writeFileSync(path, records.map(recordLine).join(''));
    const stats = { parsedInFull: 0, slowNumbers: 0 };
    const seen: ScoredLine[] = [];
    scanForReport(path, { forecast: () => {}, settlement: (s) => seen.push({ ...s }) }, noProblems(), stats);
    expect(stats).toEqual({ parsedInFull: 0, slowNumbers: 0 });
    expect(seen).toEqual(records.map((r) => scoredLine(r as Parameters<typeof scoredLine>[0])));
  });

  it('takes every line fcast writes through the fast path: any number, plain text, every kind', () => {
    // Plain text: what symbols, timeframes and directions are (an escape in a string is a full parse).
    const plain = fc.stringMatching(/^[A-Za-z0-9/._ -]{1,12}$/);
    const anyNumber = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.integer({ min: 1, max: 2_000_000 }),
      fc.integer({ min: 1, max: 2_000_000 }).map((k) => k / 3),
    );
    const plainForecast = fc
      .record({
        origin,
        symbol: plain,
        tf: plain,
        ts: fc.integer({ min: 0, max: 4_000_000_000 }),
        target_t: fc.integer({ min: 0, max: 4_000_000_000 }),
        anchor_price: anyNumber.filter((n) => n !== 0),
        direction: plain,
        p_long: anyNumber,
        p_short: anyNumber,
        p_flat: anyNumber,
        engines: engines(anyNumber, plain),
      })
      .map(
        ({ engines, ...f }): ForecastRecord => ({
          v: JOURNAL_VERSION,
          kind: 'forecast',
          ...f,
          horizon_min: 60,
          target_price: null,
          tier: 'free',
          delay_min: 15,
          server_t: null,
          recorded_at: 1_800_000_000,
          ...engines,
        }),
      );
    const plainRecord: fc.Arbitrary<JournalRecord> = fc.oneof(
      plainForecast,
      fc
        .tuple(plainForecast, anyNumber, fc.constantFrom('candles', 'price') as fc.Arbitrary<'candles' | 'price'>)
        .map(([f, price, source]) => settledRecord(f, { price, t: f.target_t, source }, 0.01, 1_800_000_000)),
      fc.tuple(plainForecast, fc.string()).map(([f, why]) => unsettleableRecord(f, why, 1_800_000_000)),
    );
    let n = 0;
    fc.assert(
      fc.property(
        fc.array(fc.tuple(plainRecord, fc.boolean()), { minLength: 1, maxLength: 20 }),
        fc.boolean(),
        (drawn, engines) => {
          // This version's lines and version 2's (ia3-only), as a journal kept across the upgrade holds them.
          const records = drawn.map(([r, older]) => (older ? asVersion2(r) : r));
          const path = join(dir, `plain-${n++}.jsonl`);
          writeFileSync(path, records.map(recordLine).join(''));
          const stats = { parsedInFull: 0 };
          const seen: string[] = [];
          scanForReport(
            path,
            {
              forecast: (o, symbol, tf, ts, _series, targetT) =>
                seen.push(JSON.stringify(engines ? [o, symbol, tf, ts, targetT] : [o, symbol, tf, ts])),
              settlement: (s) => seen.push(JSON.stringify({ ...s })),
              engines,
              targets: engines,
            },
            noProblems(),
            stats,
          );
          expect(stats.parsedInFull).toBe(0);
          const full = throughJsonParse(path);
          expect(seen).toEqual([
            ...records.map((r) =>
              r.kind === 'forecast'
                ? JSON.stringify(
                    engines ? [r.origin, r.symbol, r.tf, r.ts, r.target_t] : [r.origin, r.symbol, r.tf, r.ts],
                  )
                : JSON.stringify(scoredLine(r as Parameters<typeof scoredLine>[0], engines)),
            ),
          ]);
          expect(full.damaged).toBe(0);
        },
      ),
      { numRuns: 200 },
    );
  }, 60_000);

  it("reads each line's own origin, symbol and timeframe across the reader's chunks, where a head repeats the line before's", () => {
    // Lines of one length: the reader's buffer, read again, holds another line's head where the
    // last chunk's last head was. The symbol changes with the line cut by the first chunk's end,
    // so that a head kept from the chunk before (its bytes overwritten) would match the new line
    // and name the old symbol.
    const chunk = CHUNK;
    // Settlements: a forecast's head is never compared with the line before's.
    const line = (symbol: string, k: number) =>
      recordLine(
        settledRecord(
          forecastOf({ symbol, ts: 1_800_000_000 + k * 60, target_t: 1_800_003_600 + k * 60 }),
          { price: 2, t: 1_800_003_600 + k * 60, source: 'candles' },
          0.01,
          1_800_000_000,
        ),
      );
    const length = line('AAA/USD', 0).length;
    const switchAt = Math.floor(chunk / length);
    const lines: string[] = [];
    for (let k = 0; k < 2 * switchAt + 10; k++) lines.push(line(k < switchAt ? 'AAA/USD' : 'BBB/USD', k));
    expect(new Set(lines.map((l) => l.length))).toEqual(new Set([length]));
    const path = join(dir, 'chunks.jsonl');
    writeFileSync(path, lines.join(''));
    const fast = throughFastPath(path);
    expect(fast.settlements.filter((f) => f.symbol === 'BBB/USD')).toHaveLength(lines.length - switchAt);
    expect(fast).toEqual(throughJsonParse(path));
  });

  it('reads a line longer than a chunk, and counts one longer than MAX_LINE as one damaged line, the records on both sides read', () => {
    const record = (symbol: string) => recordLine(forecastOf({ symbol }));
    const long = (length: number) => record('X'.repeat(length));
    const first = record('AAA/USD');
    // Where the long line starts: in the first chunk, or just where it ends.
    const pad = `${' '.repeat(CHUNK - first.length - 1)}\n`;
    for (const [name, length, before, read] of [
      ['2.5 chunks', 2 * CHUNK + CHUNK / 2, first, true],
      ['2.5 chunks at the edge', 2 * CHUNK + CHUNK / 2, first + pad, true],
      ['over MAX_LINE', MAX_LINE + 10, first, false],
      ['over MAX_LINE at the edge', MAX_LINE + 10, first + pad, false],
    ] as const) {
      const path = join(dir, `long-${name.replaceAll(' ', '-')}.jsonl`);
      writeFileSync(path, before + long(length) + record('BBB/USD'));
      const fast = throughFastPath(path);
      expect(
        fast.forecasts.map((f) => f.split('|')[1]!.slice(0, 7)),
        name,
      ).toEqual(read ? ['AAA/USD', 'XXXXXXX', 'BBB/USD'] : ['AAA/USD', 'BBB/USD']);
      // The line of spaces that fills the first chunk is no record either.
      expect(fast.damaged, name).toBe((read ? 0 : 1) + (before === first ? 0 : 1));
      expect(fast, name).toEqual(throughJsonParse(path));
    }
  });

  it('skips a torn last line, and counts a torn line in the middle as damaged, like a full parse', () => {
    const path = join(dir, 'torn.jsonl');
    const f: ForecastRecord = {
      v: JOURNAL_VERSION,
      kind: 'forecast',
      origin: 'https://api.example.com',
      symbol: 'BTC/USD',
      tf: '1h',
      ts: 1_795_348_800,
      horizon_min: 360,
      target_t: 1_795_370_400,
      anchor_price: 97_000.5,
      target_price: 97_100,
      direction: 'long',
      p_long: 0.55,
      p_short: 0.35,
      p_flat: 0.1,
      tier: 'free',
      delay_min: 15,
      server_t: 1_795_349_700,
      recorded_at: 1_795_349_701,
      ia1: { score: 0.1, rsi_score: 0.2, ema_score: 0 },
      ia2: { p_long: 0.5, p_short: 0.3, p_flat: 0.2, predicted_change_pct: 0.1, confidence: 0.5, label_raw: 'sube' },
      ia3: { label: 'long', policy_version: 3 },
    };
    const line = recordLine(f);
    // Cut short where an engine's object ends ('}', as a whole record ends): after ia1's, ia2's
    // and ia3's (the record's own '}' missing), and after a settlement's ia2.
    const cutAfter = (text: string, field: string) => `${text.slice(0, text.indexOf('}', text.indexOf(field)) + 1)}\n`;
    const settled = recordLine(
      settledRecord({ ...f, ts: f.ts + 7200 }, { price: 97_100, t: f.target_t + 7200, source: 'candles' }, 0.01, 1),
    );
    expect(settled.endsWith('"ia2":{"p_long":0.5,"p_short":0.3,"p_flat":0.2}}\n')).toBe(true);
    const cuts =
      ['"ia1"', '"ia2"', '"ia3"'].map((field) => cutAfter(line, field)).join('') + cutAfter(settled, '"ia2"');
    // A line cut after its ts: the fast path must not take it for a forecast.
    writeFileSync(
      path,
      `${line}${line.slice(0, 90)}\n${cuts}${recordLine({ ...f, ts: f.ts + 3600 })}${settled}${line.slice(0, 40)}`,
    );
    for (const engines of [false, true]) {
      const fast = throughFastPath(path, engines);
      expect(fast).toEqual(throughJsonParse(path, engines));
      // With the engines asked for, a forecast carries its target_t (the second's is the first's: the record was copied with a new ts).
      const target = engines ? '|1795370400' : '';
      expect(fast.forecasts).toEqual([
        `https://api.example.com|BTC/USD|1h|1795348800${target}`,
        `https://api.example.com|BTC/USD|1h|1795352400${target}`,
      ]);
      expect(fast.settlements.map((s) => s.ts)).toEqual([1_795_356_000]);
      expect(fast.damaged).toBe(5);
    }
    appendFileSync(path, '\n');
    expect(throughFastPath(path).damaged).toBe(6);
  });

  it('reads a number no writer makes (edited by hand) as JSON.parse does, or counts its line damaged as JSON.parse does', () => {
    const path = join(dir, 'edited-numbers.jsonl');
    const line = P_LONG_LINE;
    // JSON numbers the fast path reads itself, through Number() or by a full parse (a blank after
    // it), and forms that are no JSON or no record's (1e400 is JSON, and Infinity).
    const forms = ['0', '-0', '0.000', '-0.5', '7', '10.50', '0.00123', '1e5', '1E+5', '2.5e-3', '-0.0e-0', '1 '];
    const notJson = [
      '01',
      '-01',
      '00.1',
      '1.',
      '.5',
      '-',
      '+1',
      '1e',
      '1e+',
      '1..2',
      '0x1',
      '-.5',
      'NaN',
      '1e400',
      '-1e400',
    ];
    expect(line).toContain('"p_long":0.25,');
    const edited = [...forms, ...notJson].map((form) => line.replace('"p_long":0.25,', `"p_long":${form},`));
    writeFileSync(path, edited.join(''));
    const fast = throughFastPath(path);
    expect(fast).toEqual(throughJsonParse(path));
    expect(fast.settlements.map((s) => s.p_long)).toEqual(forms.map(Number));
    expect(fast.damaged).toBe(notJson.length);
  });

  it('reads any plain decimal of up to 24 digits, wherever its point, as JSON.parse does', () => {
    // The reader takes digits four at a time: a run of every length, its point anywhere, zeros
    // before and after, so that every group meets the eighth significant digit (where hi ends)
    // and the seventeenth (where the rest is only counted) at each of its four places.
    const line = P_LONG_LINE;
    const digitRun = (max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), maxLength: max });
    const decimal = fc
      .tuple(fc.boolean(), fc.constantFrom('', '0', '00', '000'), digitRun(12), digitRun(24))
      .map(([minus, zeros, whole, fraction]) => {
        const integer = whole.replace(/^0+/, '') || '0';
        return `${minus ? '-' : ''}${integer}${fraction === '' ? '' : `.${zeros}${fraction}`}`;
      });
    let n = 0;
    fc.assert(
      fc.property(fc.array(decimal, { minLength: 1, maxLength: 20 }), (forms) => {
        const path = join(dir, `decimals-${n++}.jsonl`);
        writeFileSync(path, forms.map((form) => line.replace('"p_long":0.25,', `"p_long":${form},`)).join(''));
        const fast = throughFastPath(path);
        expect(fast.damaged).toBe(0);
        expect(fast.settlements.map((s) => s.p_long)).toEqual(forms.map((form) => JSON.parse(form)));
      }),
      { numRuns: Math.min(500, Number(process.env.FCAST_FUZZ_RUNS ?? 500)) },
    );
  });

  it('checks every record: a newer version is told apart from a damaged line', () => {
    expect(checkRecord({ v: JOURNAL_VERSION + 1, kind: 'forecast' })).toBe('newer');
    expect(checkRecord({ v: 1, kind: 'forecast', symbol: 'X' })).toBe('damaged');
    expect(checkRecord({ v: 2, kind: 'forecast', symbol: 'X' })).toBe('damaged');
  });

  it("checks a forecast's engines and a settlement's ia2; an earlier version's record reads as ia3-only", () => {
    const f = forecastOf({
      ia1: { score: 0.1, rsi_score: null, ema_score: 0 },
      ia2: { p_long: 0.5, p_short: 0.3, p_flat: 0.2, predicted_change_pct: null, confidence: 0.5, label_raw: 'sube' },
      ia3: { label: null, policy_version: 3 },
    });
    const s = settledRecord(f, { price: 2, t: f.target_t, source: 'candles' }, 0.01, 1_800_009_000);
    const parsed = (r: unknown) => checkRecord(JSON.parse(JSON.stringify(r)));
    expect(parsed(f)).toEqual(f);
    expect(parsed(s)).toEqual(s);
    expect(ia2Probabilities(s)).toEqual({ p_long: 0.5, p_short: 0.3, p_flat: 0.2 });
    // A field of the wrong kind, or missing, is no line fcast writes.
    for (const edit of [
      { ia1: { score: '0.1', rsi_score: null, ema_score: 0 } },
      { ia2: { ...f.ia2, confidence: undefined } },
      { ia2: [0.5, 0.3, 0.2] },
      { ia3: { label: 3, policy_version: 3 } },
    ])
      expect(parsed({ ...f, ...edit }), JSON.stringify(edit)).toBe('damaged');
    expect(parsed({ ...s, ia2: { p_long: 0.5, p_short: null, p_flat: 0.2 } })).toBe('damaged');
    // Versions 1 and 2 knew ia3 alone: what an edit added of the others is not read.
    for (const older of [asVersion2(f), asVersion2(s)]) {
      const read = parsed({ ...older, ia1: f.ia1, ia2: f.ia2, ia3: f.ia3 });
      expect(read).toEqual(older);
      expect(ia2Probabilities(read as typeof s)).toBeUndefined();
    }
  });

  it('reads every earlier version: a version 1 line (no origin) as of an unknown origin, by both paths', () => {
    const path = join(dir, 'v1.jsonl');
    // As fcast 1 wrote them (docs/journal.md's examples of that version).
    const v1 = [
      '{"v":1,"kind":"forecast","symbol":"BTC/USD","tf":"1h","ts":1795348800,"horizon_min":360,"target_t":1795370400,"anchor_price":97123.45,"target_price":97200.12,"direction":"long","p_long":0.55,"p_short":0.35,"p_flat":0.1,"tier":"free","delay_min":15,"server_t":1795349700,"recorded_at":1795349701}',
      '{"v":1,"kind":"price","symbol":"BTC/USD","t":1795348800,"last":97123.45,"tier":"free","delay_min":15,"recorded_at":1795349701}',
      '{"v":1,"kind":"settlement","symbol":"BTC/USD","tf":"1h","ts":1795348800,"direction":"long","p_long":0.55,"p_short":0.35,"p_flat":0.1,"anchor_price":97123.45,"status":"settled","settle_price":97301.2,"settle_t":1795370400,"settle_source":"candles","return_pct":0.18301,"outcome":"win","move":"up","flat_band_pct":0.01,"settled_at":1795400000}',
      // A version 1 line cannot name an origin: that is no line fcast 1 wrote.
      '{"v":1,"kind":"price","origin":"https://x.example","symbol":"BTC/USD","t":1795348800,"last":1,"tier":null,"delay_min":null,"recorded_at":1795349701}',
    ];
    writeFileSync(path, `${v1.join('\n')}\n`);
    const read: JournalRecord[] = [];
    const problems = noProblems();
    readRecords(path, 0, (r) => read.push(r), problems);
    expect(problems.damaged).toBe(1);
    expect(read.map((r) => [r.v, r.kind, r.origin])).toEqual([
      [1, 'forecast', null],
      [1, 'price', null],
      [1, 'settlement', null],
    ]);
    expect(Object.keys(read[0]!).slice(0, 4)).toEqual(['v', 'kind', 'origin', 'symbol']);
    const fast = throughFastPath(path);
    expect(fast).toEqual(throughJsonParse(path));
    expect(fast.forecasts).toEqual(['null|BTC/USD|1h|1795348800']);
    expect(checkRecord([])).toBe('damaged');
  });

  it("takes an alert's line (a watch's --alert with --record) as nothing wrong, and as no forecast, by both paths", () => {
    const alert: AlertRecord = {
      v: JOURNAL_VERSION,
      kind: 'alert',
      origin: 'http://127.0.0.1:8787',
      symbol: 'BTC/USD',
      tf: '1h',
      ts: 1795348800,
      t: 1795349000,
      rule: '1h.p_long >= 0.7',
      field: 'p_long',
      op: '>=',
      value: 0.71,
      threshold: 0.7,
      already: false,
      text: 'BTC/USD 1h p_long 0.71 >= 0.7',
      recorded_at: 1795349000,
    };
    const price = { ...alert, tf: null, ts: null, rule: 'price > 1', field: 'price', value: 95000, threshold: 1 };
    const change = {
      ...alert,
      rule: '1h.direction changes',
      field: 'direction',
      op: 'changes',
      value: 'short',
      threshold: null,
    };
    const path = join(tempDir(), '2026-11.jsonl');
    writeFileSync(path, [alert, price, change].map(alertLine).join('') + recordLine(forecastAt(1, {})));
    const problems = noProblems();
    const seen: string[] = [];
    scanForReport(path, { forecast: (_o, _s, tf) => seen.push(tf), settlement: () => {} }, problems);
    expect(problems).toEqual(noProblems());
    expect(seen).toHaveLength(1);
    const alerts: AlertRecord[] = [];
    const records: JournalRecord[] = [];
    readRecords(
      path,
      0,
      (r) => records.push(r),
      problems,
      undefined,
      (a) => alerts.push(a),
    );
    expect(problems).toEqual(noProblems());
    expect(records.map((r) => r.kind)).toEqual(['forecast']);
    expect(alerts).toEqual([alert, price, change]);
    // Checked like every record: a field of the wrong kind is a damaged line.
    expect(checkRecord({ ...alert, already: 'yes' })).toBe('damaged');
    expect(checkRecord({ ...alert, tf: '1h', ts: null })).toBe('damaged');
  });
});

/** Every call a visitor hears, in order, with its arguments and how far the scan had read. */
function recorder(wants: ScanWants): { visitor: ReportVisitor; calls: string[] } {
  const calls: string[] = [];
  const bytesRead = new Float64Array(1);
  const at = () => bytesRead[0];
  const visitor: ReportVisitor = {
    engines: wants.engines,
    targets: wants.targets,
    bytesRead,
    forecast: (...args) => calls.push(JSON.stringify(['forecast', ...args, at()])),
    settlement: (s, series) => calls.push(JSON.stringify(['settlement', s, series, at()])),
  };
  if (wants.tiers) visitor.tier = (...args) => calls.push(JSON.stringify(['tier', ...args]));
  if (wants.prices) visitor.price = (...args) => calls.push(JSON.stringify(['price', ...args, at()]));
  return { visitor, calls };
}

/** A file's end in a recorder's calls: how far the scan read it, the lines after its last call included. */
const fileEnd = (visitor: ReportVisitor) => JSON.stringify(['end', visitor.bytesRead![0]]);

/**
 * The calls with each series number (opaque: each thread numbers its own strings, and the
 * threads' numbers are kept apart) replaced by "n", after checking that each number names one
 * series only.
 */
function withoutSeriesNumbers(calls: string[]): string[] {
  const named = new Map<number, string>();
  return calls.map((call) => {
    const c = JSON.parse(call) as unknown[];
    const at = c[0] === 'forecast' ? 5 : c[0] === 'settlement' ? 2 : -1;
    if (at < 0) return call;
    const n = c[at] as number;
    if (n >= 0) {
      const s = (c[0] === 'forecast' ? { origin: c[1], symbol: c[2], tf: c[3] } : c[1]) as Record<string, unknown>;
      const key = JSON.stringify([s.origin, s.symbol, s.tf]);
      expect(named.get(n) ?? key).toBe(key);
      named.set(n, key);
      c[at] = 'n';
    }
    return JSON.stringify(c);
  });
}

/** What reading `paths` here hands a visitor, and what it finds wrong. */
function readHere(paths: string[], wants: ScanWants) {
  const { visitor, calls } = recorder(wants);
  const problems = noProblems();
  for (const path of paths) {
    visitor.bytesRead![0] = 0;
    scanForReport(path, visitor, problems);
    calls.push(fileEnd(visitor));
  }
  return { calls, problems };
}

const anyWants = fc.record({ engines: fc.boolean(), targets: fc.boolean(), tiers: fc.boolean(), prices: fc.boolean() });

/** A month file's lines: records, a damaged line amid them, and maybe a torn one at the end. */
const anyMonthFile = fc.record({
  records: fc.array(record, { maxLength: 30 }),
  damaged: fc.constantFrom('', '{"v":3,"kind":"forecast"\n', 'not json\n'),
  torn: fc.constantFrom('', '{"v":3,"kind":"sett'),
});

function writeMonthFile(
  path: string,
  { records, damaged, torn }: { records: JournalRecord[]; damaged: string; torn: string },
) {
  const lines = records.map(recordLine);
  lines.splice(lines.length >> 1, 0, damaged);
  writeFileSync(path, lines.join('') + torn);
}

describe('the journal read ahead on a second thread (scan-ahead.ts)', () => {
  it('hands the visitor through the ring the very calls a read here does, and the same problems and counts', () => {
    const dir = tempDir();
    let n = 0;
    fc.assert(
      fc.property(anyMonthFile, anyWants, (file, wants) => {
        const path = join(dir, `ring-${n++}.jsonl`);
        writeMonthFile(path, file);
        const here = readHere([path], wants);
        const stats = { parsedInFull: 0, slowNumbers: 0 };
        scanForReport(path, recorder(wants).visitor, noProblems(), stats);

        const ring = newRing();
        const { port1, port2 } = new MessageChannel();
        try {
          const writer = new RingWriter(ring, port1);
          const written = noProblems();
          const writtenStats = { parsedInFull: 0, slowNumbers: 0 };
          scanForReport(path, writer.visitor(wants), written, writtenStats);
          writer.fileEnd(written, writtenStats);
          writer.flush();
          const { visitor, calls } = recorder(wants);
          const problems = noProblems();
          const readStats = { parsedInFull: 0, slowNumbers: 0 };
          expect(new RingReader(ring, port2).replay(visitor, problems, readStats)).toBe(true);
          calls.push(fileEnd(visitor));
          expect(calls).toEqual(here.calls);
          expect(problems).toEqual(here.problems);
          expect(readStats).toEqual(stats);
        } finally {
          port1.close();
          port2.close();
        }
      }),
      { numRuns: Math.min(200, Number(process.env.FCAST_FUZZ_RUNS ?? 200)) },
    );
  }, 60_000);

  it('reads month files larger than its ring on the worker to the same calls, and reads here a file the worker could not', () => {
    // 3 files of 8,000 forecasts and settlements each: many times the ring's 8 chunks.
    const dir = tempDir();
    const paths = ['2026-09', '2026-10', '2026-11'].map((m) => join(dir, `${m}.jsonl`));
    paths.forEach((path, k) => {
      const lines: string[] = [];
      for (let i = 0; i < 8_000; i++) {
        const f = forecastAt(i, { symbol: ['BTC/USD', 'ETH/USD', 'SOL/USD'][i % 3]!, tf: i % 2 ? '1h' : '15min' });
        const r = { ...f, ts: f.ts + k * 10_000_000, target_t: f.target_t + k * 10_000_000 };
        lines.push(recordLine(r));
        if (i % 5 !== 0)
          lines.push(recordLine(settledRecord(r, { price: 1 + i / 1e4, t: r.target_t, source: 'candles' }, 0.01, 1)));
        if (i === 4_000) lines.push('damaged\n');
      }
      writeFileSync(path, lines.join(''));
    });
    for (const wants of [
      { engines: true, targets: true, tiers: false, prices: false },
      { engines: false, targets: false, tiers: true, prices: true },
    ]) {
      const here = readHere(paths, wants);
      const { visitor, calls } = recorder(wants);
      const problems = noProblems();
      const scans = openScans(paths, wants, 'always');
      expect(scans.ahead).toBe(true);
      try {
        for (const path of paths) {
          visitor.bytesRead![0] = 0;
          scans.scan(path, visitor, problems);
          calls.push(fileEnd(visitor));
        }
      } finally {
        scans.close();
      }
      expect(calls.length).toBeGreaterThan(40_000);
      expect(withoutSeriesNumbers(calls)).toEqual(withoutSeriesNumbers(here.calls));
      expect(problems).toEqual({ damaged: 3, newer: 0, torn: 0 });
    }

    // A file gone before the worker reached it: read here, where its error is the one a read here meets.
    const gone = [paths[0]!, join(dir, 'missing.jsonl')];
    const scans = openScans(gone, { engines: false, targets: false, tiers: false, prices: false }, 'always');
    try {
      const { visitor } = recorder({ engines: false, targets: false, tiers: false, prices: false });
      scans.scan(gone[0]!, visitor, noProblems());
      expect(() => scans.scan(gone[1]!, visitor, noProblems())).toThrow(/ENOENT/);
    } finally {
      scans.close();
    }
  }, 60_000);

  it('cuts a file into shares whose lines, read one after another, are the whole file’s, wherever the cuts fall', () => {
    const dir = tempDir();
    let n = 0;
    const line = fc.oneof(
      fc.string({ maxLength: 40 }).map((t) => t.replaceAll('\n', ' ')),
      fc.constant(''),
      fc.constant('x'.repeat(CHUNK + 17)),
    );
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 12 }),
        fc.constantFrom('', 'torn'),
        fc.array(fc.nat(), { minLength: 1, maxLength: 6 }),
        (lines, torn, picks) => {
          const path = join(dir, `shares-${n++}.txt`);
          const body = lines.map((l) => `${l}\n`).join('') + torn;
          writeFileSync(path, body);
          const size = Buffer.byteLength(body);
          const seen = (from: number, until: number) => {
            const got: string[] = [];
            let torn = 0;
            // By its path, or (as the threads share a file) from one descriptor left open.
            const fd = from % 2 === 0 ? openToRead(path) : undefined;
            try {
              forEachLineBetween(
                path,
                fd,
                from,
                until,
                (buf, a, b) => got.push(buf.toString('utf8', a, b)),
                () => torn++,
              );
            } finally {
              if (fd !== undefined) closeSync(fd);
            }
            return { got, torn };
          };
          const whole: string[] = [];
          let tornWhole = 0;
          forEachLine(
            path,
            0,
            (buf, a, b) => whole.push(buf.toString('utf8', a, b)),
            () => tornWhole++,
          );
          // Cuts anywhere: inside a line, on a newline, just past one, at the end and beyond it.
          const cuts = [...new Set(picks.map((p) => p % (size + 3)))].sort((a, b) => a - b);
          const bounds = [0, ...cuts.filter((c) => c > 0), Number.POSITIVE_INFINITY];
          const parts = bounds.slice(0, -1).map((from, k) => seen(from, bounds[k + 1]!));
          expect(parts.flatMap((p) => p.got)).toEqual(whole);
          expect(parts.reduce((t, p) => t + p.torn, 0)).toBe(tornWhole);
        },
      ),
      { numRuns: Math.min(300, Number(process.env.FCAST_FUZZ_RUNS ?? 300)) },
    );
  }, 60_000);

  it('hands the visitor the same calls when two threads share a file, whatever their shares (series numbers aside)', () => {
    const dir = tempDir();
    let n = 0;
    fc.assert(
      fc.property(
        anyMonthFile,
        anyWants,
        fc.integer({ min: 1, max: 6 }),
        fc.constantFrom([0, 0, HERE], [0, HERE], [HERE, 0], [0], [HERE]),
        (file, wants, cuts, pattern) => {
          const path = join(dir, `shared-${n++}.jsonl`);
          writeMonthFile(path, file);
          const here = readHere([path], wants);
          // At most 6 shares: the worker's side runs first on this thread, and its flushes must not fill the ring's 8 chunks.
          const bytes = Math.max(1, Math.ceil(statSync(path).size / cuts));
          const plan = { bytes, counts: [sharesOf(statSync(path).size, bytes)], pattern };
          const ring = newRing();
          const { port1, port2 } = new MessageChannel();
          try {
            const writer = new RingWriter(ring, port1);
            const written = noProblems();
            const stats = { parsedInFull: 0, slowNumbers: 0 };
            scanForReport(path, writer.visitor(wants), written, stats, {
              bytes,
              count: plan.counts[0]!,
              mine: (k) => partyOf(plan, k) === 0,
              ended: () => writer.shareEnd(),
              seriesBase: seriesBase(plan, 0),
            });
            writer.fileEnd(written, stats);
            writer.flush();
            const reader = new RingReader(ring, port2);
            const { visitor, calls } = recorder(wants);
            const problems = noProblems();
            scanForReport(path, visitor, problems, undefined, {
              bytes,
              count: plan.counts[0]!,
              mine: (k) => partyOf(plan, k) === HERE || !reader.replay(visitor, problems, undefined, true),
              seriesBase: seriesBase(plan, HERE),
            });
            expect(reader.replay(visitor, problems)).toBe(true);
            calls.push(fileEnd(visitor));
            expect(withoutSeriesNumbers(calls)).toEqual(withoutSeriesNumbers(here.calls));
            expect(problems).toEqual(here.problems);
          } finally {
            port1.close();
            port2.close();
          }
        },
      ),
      { numRuns: Math.min(200, Number(process.env.FCAST_FUZZ_RUNS ?? 200)) },
    );
  }, 60_000);

  it('reads every share from the files as they were opened, when a prune renames another into place meanwhile', () => {
    const dir = tempDir();
    const path = join(dir, '2026-09.jsonl');
    const lines: string[] = [];
    for (let i = 0; i < 400; i++) lines.push(recordLine(forecastAt(i, { symbol: i % 2 ? 'BTC/USD' : 'ETH/USD' })));
    writeFileSync(path, lines.join(''));
    const wants = { engines: false, targets: false, tiers: false, prices: false };
    const before = readHere([path], wants);
    // 400 lines of about 350 bytes: shares of 4 KiB, read by both threads.
    const scans = openScans([path], wants, 'always');
    try {
      // A prune's rename: a shorter file in the old one's place, before any share is read.
      writeFileSync(join(dir, 'pruned'), lines.slice(150).join(''));
      renameSync(join(dir, 'pruned'), path);
      const { visitor, calls } = recorder(wants);
      const problems = noProblems();
      scans.scan(path, visitor, problems);
      calls.push(fileEnd(visitor));
      expect(withoutSeriesNumbers(calls)).toEqual(withoutSeriesNumbers(before.calls));
      expect(problems).toEqual(noProblems());
    } finally {
      scans.close();
    }
  });

  it('gives up on a worker whose script never ran, having replayed nothing, so that the caller reads the file', () => {
    const { port1, port2 } = new MessageChannel();
    try {
      const reader = new RingReader(newRing(), port2, 60_000, 50);
      const { visitor, calls } = recorder({ engines: false, targets: false, tiers: false, prices: false });
      expect(reader.replay(visitor, noProblems())).toBe(false);
      expect(reader.failed).toBe(true);
      expect(calls).toEqual([]);
    } finally {
      port1.close();
      port2.close();
    }
  });

  it('reads a small journal, or any with FCAST_SCAN_AHEAD=never, on this thread', () => {
    const path = join(tempDir(), 'small.jsonl');
    writeFileSync(path, recordLine(forecastAt(1, {})));
    const wants = { engines: false, targets: false, tiers: false, prices: false };
    expect(openScans([path], wants, undefined).ahead).toBe(false);
    expect(openScans([path], wants, 'never').ahead).toBe(false);
  });
});
