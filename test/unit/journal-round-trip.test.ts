// Export then import is the identity (issue 30, item 5; the contract's Journal section), in every
// format: a journal of hostile text (formula starts of every kind, runs of ', bidi and C0/C1
// controls, ESC, lone surrogates, the export's own escapes, the empty text, key-shaped text),
// exported as `journal export` writes it and imported back, adds nothing to itself, exports
// again byte for byte, and into an empty journal gives the same records (a key masked: the
// export never carries one). Measured before (3,000 cases a format): every format added
// records to itself: CSV and TSV dropped controls and bidi marks, read "" as no value and '=x
// as =x; all three imported a masked key as a new symbol.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/core/redact.js';
import { openBoundary } from '../../src/core/sinks.js';
import { importJournal } from '../../src/journal/import.js';
import { shownAs } from '../../src/journal/masked.js';
import { forEachRow, type JournalRow } from '../../src/journal/rows.js';
import { openJournalDir } from '../../src/journal/journal-files.js';
import { tempDir } from '../helpers/cli.js';
import {
  type ExportFormat,
  exportText,
  forecastAt,
  generatedJournal,
  hostileText,
  JOURNAL_RUNS,
  NOV,
  writeJournal,
  writeJournalLines,
} from '../helpers/journal-round-trip.js';

const rowsOf = (data: string): JournalRow[] => {
  const rows: JournalRow[] = [];
  forEachRow(openJournalDir(data, { create: false }), {}, 0.01, (r) => rows.push(r));
  return rows;
};

/** The journal's records as its files hold them, sorted: an import writes a row's two together. */
const recordsIn = (data: string): Array<Record<string, unknown>> => {
  const dir = join(data, 'journal');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean))
    .map((line) => JSON.parse(line))
    .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
};

const TERMINAL_ACTS_ON =
  /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const TEXT_COLUMNS = ['symbol', 'tf', 'direction', 'tier', 'reason', 'ia2.label_raw', 'ia3.label'] as const;

/** Text that holds a key (or what an export's escapes make one): the one text an export may change. */
const holdsKey = (text: string): boolean => /_ag_[0-9a-f]{12}/.test(text);

/**
 * A row as an export in `format` gives it to an empty journal: every text as it is, but one
 * that holds a key, which arrives masked (as the export showed it).
 */
const shownRow = (row: JournalRow, format: ExportFormat): JournalRow => {
  const out = { ...row };
  for (const c of TEXT_COLUMNS) {
    const text = row[c];
    if (typeof text === 'string' && holdsKey(text)) out[c] = shownAs(format, text);
  }
  return out;
};

const journal = generatedJournal({
  symbol: hostileText,
  tf: hostileText,
  direction: hostileText,
  tier: fc.option(hostileText, { nil: null }),
  reason: hostileText,
  label: hostileText,
});

/** A journal line's record as an export gives it to an empty journal: its texts (the engines' labels too) as shownRow shows them. */
const shownRecord = (r: Record<string, unknown>, format: ExportFormat): Record<string, unknown> => {
  const out = shownRow(r as JournalRow, format) as Record<string, unknown>;
  for (const [engine, field] of [
    ['ia2', 'label_raw'],
    ['ia3', 'label'],
  ] as const) {
    const e = r[engine] as Record<string, unknown> | null | undefined;
    const text = e?.[field];
    if (typeof text === 'string' && holdsKey(text)) out[engine] = { ...e, [field]: shownAs(format, text) };
  }
  return out;
};

describe.each(['jsonl', 'csv', 'tsv'] as const)('a journal of any text exported as %s and imported back', (format) => {
  it('adds nothing to itself, exports again byte for byte, and is the same journal in an empty one', async () => {
    await fc.assert(
      fc.asyncProperty(journal, async (entries) => {
        const data = tempDir();
        writeJournalLines(data, entries, 'no candle');
        const first = exportText(data, format);
        // Safe on a terminal: no control a terminal acts on, no bidi mark, no lone surrogate.
        expect(first).not.toMatch(TERMINAL_ACTS_ON);
        const file = join(tempDir(), `export.${format}`);
        writeFileSync(file, first);

        const again = await importJournal(data, file, NOV + 10_000);
        expect(again).toMatchObject({ format, forecasts: 0, settlements: 0, skipped: 0, duplicates: entries.length });
        expect(exportText(data, format)).toBe(first);

        const other = tempDir();
        const fresh = await importJournal(other, file, NOV + 10_000);
        expect(fresh).toMatchObject({ format, forecasts: entries.length, skipped: 0 });
        expect(exportText(other, format)).toBe(first);
        // The same records, text for text; a key arrives as the export showed it, masked.
        expect(rowsOf(other)).toEqual(rowsOf(data).map((r) => shownRow(r, format)));
        // Field for field: the server's clock, when and with what band each was settled too.
        const masked = (r: Record<string, unknown>) => shownRecord(r, format);
        expect(recordsIn(other)).toEqual(
          recordsIn(data)
            .map(masked)
            .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1)),
        );
      }),
      { numRuns: JOURNAL_RUNS },
    );
  }, 600_000);
});

describe('text an export shows as it is', () => {
  it('every text but a key reads back unchanged, in every format', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        const masked = holdsKey(text);
        for (const format of ['jsonl', 'csv', 'tsv'] as const) {
          const shown = shownAs(format, text);
          if (masked) expect(shown).not.toBe(text);
          else expect(shown).toBe(text);
        }
      }),
      { numRuns: 3000 },
    );
  });
});

describe('a key the exporting run knows', () => {
  it('is masked in the export, and the import finds the stored record: nothing added, the key unchanged', async () => {
    // A symbol that holds a secret fcast came to know after recording it (a proxy password, say):
    // not key-shaped, so the journal holds it in clear; the export masks it.
    const secret = 'hunter2hunter2hunter2';
    const data = tempDir();
    const forecast = forecastAt(0, { symbol: `BTC/${secret}` });
    await writeJournal(data, [[forecast, 'settled', 12_345]], 'no candle');
    const close = openBoundary(new Redactor(() => [secret]));
    try {
      for (const format of ['jsonl', 'csv', 'tsv'] as const) {
        const first = exportText(data, format);
        expect(first).not.toContain(secret);
        expect(first).toContain('BTC/');
        const file = join(tempDir(), `export.${format}`);
        writeFileSync(file, first);
        const again = await importJournal(data, file, NOV + 10_000);
        expect(again).toMatchObject({ forecasts: 0, settlements: 0, skipped: 0, duplicates: 1 });
        expect(rowsOf(data).map((r) => r.symbol)).toEqual([`BTC/${secret}`]);
        expect(exportText(data, format)).toBe(first);
      }
    } finally {
      close();
    }
  });
});
