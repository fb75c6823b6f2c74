// The CSV formula guard and its undoing (core/formula-guard.ts), both ways: on any text, and on
// whole journals exported as CSV and imported back. Measured before: a fullwidth ＝ got a ' on
// export that import did not take off, so importing a journal's own export added records; and
// a text that began with ' and a formula character ('=x) came back without its '.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { guardFormula, needsFormulaGuard, unguardFormula } from '../../src/core/formula-guard.js';
import { importJournal } from '../../src/journal/import.js';
import { csvCells } from '../../src/journal/rows.js';
import { renderDelimited } from '../../src/output/formats/delimited.js';
import { tempDir } from '../helpers/cli.js';
import { exportDelimited, generatedJournal, JOURNAL_RUNS, NOV, writeJournal } from '../helpers/journal-round-trip.js';

// Text that starts formulas of every kind, after runs of ' too ('=x, ''+1), and plain text.
const risky = fc
  .tuple(
    fc.constantFrom('', "'", "''", "'''"),
    fc.constantFrom('', '=', '+', '-', '@', '\t', '\r', '＝', '＋', '－', '＠', "'"),
    fc.stringMatching(/^[A-Za-z0-9/ =+@'",.-]{0,8}$/),
  )
  .map(([a, b, c]) => `${a}${b}${c}`);

describe('the formula guard', () => {
  it('is undone exactly: unguard(guard(text)) is the text, and every cell a spreadsheet would run is guarded', () => {
    fc.assert(
      fc.property(fc.oneof(risky, fc.string()), (text) => {
        expect(unguardFormula(guardFormula(text))).toBe(text);
        // The journal's export guards a CR already written as its escape as it would the CR.
        expect(guardFormula(text) !== text).toBe(/^'*(?:[=+\-@\t\r＝＋－＠]|\\u000d)/.test(text));
        // A command's CSV: the contract's rule, a formula character first (no ' before it).
        expect(needsFormulaGuard(text)).toBe(/^[=+\-@\t\r＝＋－＠]/.test(text));
      }),
      { numRuns: 2000 },
    );
  });

  it("a cell that begins with CR gets the contract's ' in the export, before the CR's escape, and reads back", () => {
    const csv = renderDelimited('csv', ['a', 'b'], [['\rx', "'\ry"]], { exact: true });
    expect(csv).toBe("a,b\n'\\u000dx,''\\u000dy\n");
    expect(csvCells(csv.split('\n')[1]!)).toEqual(['\rx', "'\ry"]);
  });

  it('a CSV cell written by the export reads back as the text (csvCells), the empty text too', () => {
    fc.assert(
      fc.property(fc.array(risky, { minLength: 1, maxLength: 5 }), (texts) => {
        const csv = renderDelimited(
          'csv',
          texts.map((_, i) => `c${i}`),
          [texts],
          { exact: true },
        );
        const line = csv.slice(csv.indexOf('\n') + 1, -1);
        expect(csvCells(line)).toEqual(texts);
      }),
      { numRuns: 500 },
    );
  });
});

describe('a journal exported and imported back', () => {
  it('adds nothing to itself, is the same journal in an empty one, and exports again byte for byte', async () => {
    // Text as a service could send it, formula starts, tabs, carriage returns, apostrophes and
    // the empty text included (every other kind: test/unit/journal-round-trip.test.ts).
    const journal = generatedJournal({
      symbol: risky,
      tf: risky,
      direction: risky,
      tier: fc.option(risky, { nil: null }),
      reason: risky,
    });
    await fc.assert(
      fc.asyncProperty(journal, async (entries) => {
        const data = tempDir();
        await writeJournal(data, entries, 'no candle');
        const first = exportDelimited(data, 'csv');
        const file = join(tempDir(), 'export.csv');
        writeFileSync(file, first);
        const again = await importJournal(data, file, NOV + 10_000, { origin: 'https://api.example.com' });
        expect(again).toMatchObject({ forecasts: 0, settlements: 0, skipped: 0 });
        const other = tempDir();
        await importJournal(other, file, NOV + 10_000);
        expect(exportDelimited(other, 'csv')).toBe(first);
        expect(readFileSync(file, 'utf8')).toBe(first);
      }),
      { numRuns: JOURNAL_RUNS },
    );
  }, 600_000);
});
