// The CSV formula guard and its undoing (core/formula-guard.ts), both ways: on any text, and on
// whole journals exported as CSV and imported back. Measured before: a fullwidth ＝ got a ' on
// export that import did not take off, so importing a journal's own export added records.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { guardFormula, needsFormulaGuard, unguardFormula } from '../../src/core/formula-guard.js';
import { importJournal } from '../../src/journal/import.js';
import {
  JOURNAL_VERSION,
  settledRecord,
  unsettleableRecord,
  type ForecastRecord,
  type JournalRecord,
} from '../../src/journal/record.js';
import { csvCells, EXPORT_COLUMNS, EXTRA_COLUMNS, forEachRow, type JournalRow } from '../../src/journal/rows.js';
import { openJournalDir, withJournal } from '../../src/journal/store.js';
import { renderDelimited } from '../../src/output/formats/delimited.js';
import { tempDir } from '../helpers/cli.js';

// Text that starts formulas of every kind, and plain text; not a ' before a formula start
// ('=x), the guard's known gap (core/formula-guard.ts).
const knownGap = (text: string) => /^'[=+\-@\t\r＝＋－＠]/.test(text);
const risky = fc
  .tuple(
    fc.constantFrom('', '=', '+', '-', '@', '\t', '\r', '＝', '＋', '－', '＠', "'"),
    fc.stringMatching(/^[A-Za-z0-9/ =+@'",.-]{0,8}$/),
  )
  .map(([a, b]) => `${a}${b}`)
  .filter((t) => !knownGap(t) && !knownGap(t.replace(/[\t\r]/g, '')));

describe('the formula guard', () => {
  it('is undone exactly: unguard(guard(text)) is the text, and every cell a spreadsheet would run is guarded', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          risky,
          fc.string().filter((t) => !knownGap(t)),
        ),
        (text) => {
          expect(unguardFormula(guardFormula(text))).toBe(text);
          expect(guardFormula(text) !== text).toBe(/^[=+\-@\t\r＝＋－＠]/.test(text));
          expect(needsFormulaGuard(text)).toBe(guardFormula(text) !== text);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('a CSV cell written by the export reads back as the text (csvCells)', () => {
    fc.assert(
      fc.property(
        fc.array(
          risky.filter((t) => !/[\t\r]/.test(t)),
          { minLength: 1, maxLength: 5 },
        ),
        (texts) => {
          const csv = renderDelimited(
            'csv',
            texts.map((_, i) => `c${i}`),
            [texts],
          );
          const line = csv.split('\n')[1]!;
          expect(csvCells(line)).toEqual(texts);
        },
      ),
      { numRuns: 500 },
    );
  });
});

const NOV = Date.UTC(2026, 10, 2) / 1000;
const header = [...EXPORT_COLUMNS, ...EXTRA_COLUMNS];

function exportCsv(data: string): string {
  const rows: JournalRow[] = [];
  forEachRow(openJournalDir(data, { create: false }), {}, 0.01, (r) => rows.push(r));
  return renderDelimited(
    'csv',
    header,
    rows.map((r) => header.map((c) => r[c])),
  );
}

describe('a journal exported and imported back', () => {
  it('adds nothing to itself, is the same journal in an empty one, and exports again byte for byte', async () => {
    // Text as a service could send it, formula starts and apostrophes included (terminal
    // controls and bidi marks excepted: the export removes them, docs/journal.md).
    const forecast = fc
      .record({
        // Never empty: an empty cell is an absent value (null) in a CSV.
        symbol: risky.filter((t) => t.replace(/[\t\r]/g, '').length > 0),
        tf: risky.filter((t) => t.length > 0 && !/[\t\r]/.test(t)),
        k: fc.integer({ min: 0, max: 50 }),
        direction: risky.filter((t) => t.replace(/[\t\r]/g, '').length > 0),
        anchor: fc.integer({ min: 1, max: 1_000_000 }).map((n) => n / 100),
        tier: fc.option(
          risky.filter((t) => t.replace(/[\t\r]/g, '').length > 0),
          { nil: null },
        ),
      })
      .map(
        ({ symbol, tf, k, direction, anchor, tier }): ForecastRecord => ({
          v: JOURNAL_VERSION,
          kind: 'forecast',
          origin: 'https://api.example.com',
          symbol: symbol.replace(/[\t\r]/g, ''),
          tf,
          ts: NOV + k * 60,
          horizon_min: 60,
          target_t: NOV + k * 60 + 3600,
          anchor_price: anchor,
          target_price: null,
          direction: direction.replace(/[\t\r]/g, ''),
          p_long: 0.5,
          p_short: 0.4,
          p_flat: 0.1,
          tier: tier?.replace(/[\t\r]/g, '') ?? null,
          delay_min: null,
          server_t: null,
          recorded_at: NOV + k * 60 + 5,
        }),
      );
    const journal = fc.uniqueArray(
      fc.tuple(forecast, fc.constantFrom('open', 'settled', 'unsettleable'), fc.integer({ min: 1, max: 1_000_000 })),
      { selector: ([f]) => `${f.symbol}\t${f.tf}\t${f.ts}`, minLength: 1, maxLength: 8 },
    );
    await fc.assert(
      fc.asyncProperty(journal, async (entries) => {
        const data = tempDir();
        await withJournal(data, (tx) =>
          tx.append(
            entries.flatMap(([f, status, close]): JournalRecord[] =>
              status === 'open'
                ? [f]
                : status === 'settled'
                  ? [f, settledRecord(f, { price: close / 100, t: f.target_t, source: 'candles' }, 0.01, NOV + 9000)]
                  : [f, unsettleableRecord(f, 'no candle', NOV + 9000)],
            ),
          ),
        );
        const first = exportCsv(data);
        const file = join(tempDir(), 'export.csv');
        writeFileSync(file, first);
        const again = await importJournal(data, file, NOV + 10_000, { origin: 'https://api.example.com' });
        expect(again).toMatchObject({ forecasts: 0, settlements: 0, skipped: 0 });
        const other = tempDir();
        await importJournal(other, file, NOV + 10_000);
        expect(exportCsv(other)).toBe(first);
        expect(readFileSync(file, 'utf8')).toBe(first);
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});
