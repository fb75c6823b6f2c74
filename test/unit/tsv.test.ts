// TSV both ways: the writer's escapes (\t, \n, \\) and the import's unescaping are one module
// (core/tsv.ts), exact inverses; and a journal exported as TSV and imported back adds nothing
// to itself and is the same journal in an empty one, text with tabs, newlines, backslashes and
// formula starts included (TSV has no formula guard: nothing is added, nothing taken off).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeTsv, tsvCells, unescapeTsv } from '../../src/core/tsv.js';
import { importJournal } from '../../src/journal/import.js';
import {
  JOURNAL_VERSION,
  settledRecord,
  unsettleableRecord,
  type ForecastRecord,
  type JournalRecord,
} from '../../src/journal/record.js';
import { EXPORT_COLUMNS, EXTRA_COLUMNS, forEachRow, type JournalRow } from '../../src/journal/rows.js';
import { openJournalDir, withJournal } from '../../src/journal/store.js';
import { renderDelimited } from '../../src/output/formats/delimited.js';
import { tempDir } from '../helpers/cli.js';

/** Text full of what TSV escapes, and of backslashes before the letters of its escapes. */
const awkward = fc.string({ unit: fc.constantFrom('\t', '\n', '\\', 't', 'n', 'a', '=', "'", ' ', 'é') });

describe('TSV escapes', () => {
  it('unescapeTsv undoes escapeTsv for every string', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), awkward, fc.string({ unit: 'binary' })), (t) => {
        expect(unescapeTsv(escapeTsv(t))).toBe(t);
      }),
    );
  });

  it('an escaped cell holds no tab or newline, so a row splits back into its cells', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), awkward), { minLength: 1 }), (cells) => {
        const line = cells.map(escapeTsv).join('\t');
        expect(line).not.toMatch(/\n/);
        expect(tsvCells(line)).toEqual(cells);
      }),
    );
  });

  it('the writer escapes with them: a text cell as renderDelimited writes it', () => {
    expect(renderDelimited('tsv', ['a', 'b'], [['x\ty\nz\\', 'C:\\new\\tab']])).toBe(
      'a\tb\nx\\ty\\nz\\\\\tC:\\\\new\\\\tab\n',
    );
    expect(tsvCells('x\\ty\\nz\\\\\tC:\\\\new\\\\tab')).toEqual(['x\ty\nz\\', 'C:\\new\\tab']);
  });
});

const NOV = Date.UTC(2026, 10, 2) / 1000;
const header = [...EXPORT_COLUMNS, ...EXTRA_COLUMNS];

function exportTsv(data: string): string {
  const rows: JournalRow[] = [];
  forEachRow(openJournalDir(data, { create: false }), {}, 0.01, (r) => rows.push(r));
  return renderDelimited(
    'tsv',
    header,
    rows.map((r) => header.map((c) => r[c])),
  );
}

describe('a journal exported as TSV and imported back', () => {
  it('adds nothing to itself, is the same journal in an empty one, and exports again byte for byte', async () => {
    // Never empty (an empty cell is an absent value), never only spaces around nothing.
    const text = fc.oneof(awkward, fc.stringMatching(/^[A-Za-z0-9/ =+@'-]{1,8}$/)).filter((t) => t.trim().length > 0);
    const forecast = fc
      .record({
        symbol: text,
        tf: text,
        k: fc.integer({ min: 0, max: 50 }),
        direction: text,
        anchor: fc.integer({ min: 1, max: 1_000_000 }).map((n) => n / 100),
        tier: fc.option(text, { nil: null }),
      })
      .map(
        ({ symbol, tf, k, direction, anchor, tier }): ForecastRecord => ({
          v: JOURNAL_VERSION,
          kind: 'forecast',
          origin: 'https://api.example.com',
          symbol,
          tf,
          ts: NOV + k * 60,
          horizon_min: 60,
          target_t: NOV + k * 60 + 3600,
          anchor_price: anchor,
          target_price: null,
          direction,
          p_long: 0.5,
          p_short: 0.4,
          p_flat: 0.1,
          tier,
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
                  : [f, unsettleableRecord(f, 'no\tcandle\\n', NOV + 9000)],
            ),
          ),
        );
        const first = exportTsv(data);
        const file = join(tempDir(), 'export.tsv');
        writeFileSync(file, first);
        const again = await importJournal(data, file, NOV + 10_000);
        expect(again).toMatchObject({ format: 'tsv', forecasts: 0, settlements: 0, skipped: 0 });
        const other = tempDir();
        const fresh = await importJournal(other, file, NOV + 10_000);
        expect(fresh).toMatchObject({ format: 'tsv', skipped: 0 });
        expect(exportTsv(other)).toBe(first);
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});
