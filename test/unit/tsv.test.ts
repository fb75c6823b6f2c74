// TSV both ways: the writer's escapes (\t, \n, \r, \\, \uXXXX) and the import's unescaping
// are one module (core/tsv.ts), exact inverses; and a journal exported as TSV and imported back
// adds nothing to itself and is the same journal in an empty one, text with tabs, newlines,
// carriage returns, controls, backslashes, formula starts and the empty text (\&) included (TSV
// has no formula guard: nothing is added, nothing taken off).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeTsv, tsvCells, unescapeTsv } from '../../src/core/tsv.js';
import { importJournal } from '../../src/journal/import.js';
import { renderDelimited } from '../../src/output/formats/delimited.js';
import { tempDir } from '../helpers/cli.js';
import { exportDelimited, generatedJournal, JOURNAL_RUNS, NOV, writeJournal } from '../helpers/journal-round-trip.js';

/** Text full of what TSV escapes, and of backslashes before the letters of its escapes. */
const awkward = fc.string({
  unit: fc.constantFrom(
    '\t',
    '\n',
    '\r',
    '\\',
    't',
    'n',
    'r',
    'u',
    '&',
    '0',
    '1b',
    'a',
    '=',
    "'",
    ' ',
    'é',
    '\x1b',
    '\u202e',
  ),
});

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

  it("the journal's export writes what a terminal acts on as \\uXXXX, a CR as \\r, and the empty text as \\&", () => {
    expect(renderDelimited('tsv', ['a', 'b', 'c'], [['\x1b[31m\r\u202e', '', null]], { exact: true })).toBe(
      'a\tb\tc\n\\u001b[31m\\r\\u202e\t\\&\t\n',
    );
    expect(tsvCells('\\u001b[31m\\r\\u202e\t\\&\t')).toEqual(['\x1b[31m\r\u202e', '', '']);
    // Other commands clean first: nothing of it reaches their cells.
    expect(renderDelimited('tsv', ['a', 'b'], [['\x1b[31mred\u202e', '']])).toBe('a\tb\nred\t\n');
  });
});

describe('a journal exported as TSV and imported back', () => {
  it('adds nothing to itself, is the same journal in an empty one, and exports again byte for byte', async () => {
    // The empty text included: the export writes it as \& (an empty cell is no value).
    const text = fc.oneof(awkward, fc.stringMatching(/^[A-Za-z0-9/ =+@'-]{0,8}$/));
    const journal = generatedJournal({
      symbol: text,
      tf: text,
      direction: text,
      tier: fc.option(text, { nil: null }),
      reason: text,
    });
    await fc.assert(
      fc.asyncProperty(journal, async (entries) => {
        const data = tempDir();
        await writeJournal(data, entries, 'no\tcandle\\n');
        const first = exportDelimited(data, 'tsv');
        const file = join(tempDir(), 'export.tsv');
        writeFileSync(file, first);
        const again = await importJournal(data, file, NOV + 10_000);
        expect(again).toMatchObject({ format: 'tsv', forecasts: 0, settlements: 0, skipped: 0 });
        const other = tempDir();
        const fresh = await importJournal(other, file, NOV + 10_000);
        expect(fresh).toMatchObject({ format: 'tsv', skipped: 0 });
        expect(exportDelimited(other, 'tsv')).toBe(first);
      }),
      { numRuns: JOURNAL_RUNS },
    );
  }, 600_000);
});
