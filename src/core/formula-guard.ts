// The CSV formula guard, both ways, in one place: a text cell a spreadsheet would run as a
// formula gets a leading ' on the way out (output/formats/delimited.ts), and `journal import`
// takes exactly that ' off again (journal/rows.ts), so an export imported back is the journal
// it came from (test/unit/formula-guard.test.ts holds the round trip).
// What starts a formula: OWASP's list (=, +, -, @, tab, CR) and the fullwidth = + - @ that Apple
// Numbers reads as the same characters.
// Known gap: a text that itself begins with ' and then such a character ('=x) is written as it
// is and read back without its ' (=x). Guarding it too would change every command's CSV (the
// output layer's rule and its tests); the journal holds no such value from the service so far.

const FORMULA = '[=+\\-@\\t\\r\\uff1d\\uff0b\\uff0d\\uff20]';
const STARTS_FORMULA = new RegExp(`^${FORMULA}`);
const GUARDED = new RegExp(`^'${FORMULA}`);

/** Whether a text cell gets the guard on export. */
export const needsFormulaGuard = (text: string): boolean => STARTS_FORMULA.test(text);

/** The text as an export writes it: a leading ' when a spreadsheet would run it. */
export const guardFormula = (text: string): string => (needsFormulaGuard(text) ? `'${text}` : text);

/** A cell as an export wrote it, back to its text: the one ' the guard added, taken off. */
export const unguardFormula = (cell: string): string => (GUARDED.test(cell) ? cell.slice(1) : cell);
