// The CSV formula guard, both ways, in one place: a text cell a spreadsheet would run as a
// formula gets a leading ' on the way out (output/formats/delimited.ts), and `journal import`
// takes exactly that ' off again (journal/rows.ts through core/exact-text.ts), so an export
// imported back is the journal it came from (test/unit/formula-guard.test.ts holds the round
// trip for every string).
// What starts a formula: OWASP's list (=, +, -, @, tab, CR) and the fullwidth = + - @ that Apple
// Numbers reads as the same characters.
// Every command's CSV follows the contract: a text that begins with one of those gets a '.
// The journal's export, which `journal import` reads back, also guards a text that already
// begins with ' before such a character ('=x, ''+1): else it would be written as it is and read
// back without its ' (=x). There the guard is "any run of ' then a formula character", and its
// undoing takes one ' off a cell of that shape: the two are exact inverses
// (docs/decisions/2026-11-27-lossless-journal-export.md). Other commands' CSV is not read back,
// so it keeps the contract's rule and leaves '=x as sent.

const FORMULA = '[=+\\-@\\t\\r\\uff1d\\uff0b\\uff0d\\uff20]';
// In the journal's export a CR has already been written as its escape, \u000d, when the guard
// looks (core/exact-text.ts): the escape gets the ' the CR would, as the contract asks of a
// cell that begins with CR. Every \u in such a cell is one the writer made, so the undoing can
// tell it from text.
const FORMULA_OR_CR_ESCAPE = `(?:${FORMULA}|\\\\u000d)`;
const STARTS_FORMULA = new RegExp(`^${FORMULA}`);
const STARTS_FORMULA_AFTER_QUOTES = new RegExp(`^'*${FORMULA_OR_CR_ESCAPE}`);
const GUARDED = new RegExp(`^'+${FORMULA_OR_CR_ESCAPE}`);

/** Whether a text cell of a command's CSV gets the guard (the contract's rule): it starts a formula. */
export const needsFormulaGuard = (text: string): boolean => STARTS_FORMULA.test(text);

/** The text as the journal's export writes it: a leading ' when it starts a formula after any run of '. */
export const guardFormula = (text: string): string => (STARTS_FORMULA_AFTER_QUOTES.test(text) ? `'${text}` : text);

/** A cell as an export wrote it, back to its text: the one ' the guard added, taken off. */
export const unguardFormula = (cell: string): string => (GUARDED.test(cell) ? cell.slice(1) : cell);
