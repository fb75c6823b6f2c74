// The journal export's text cells, written so that `journal import` reads back exactly the
// text the journal holds (issue 30, item 5; the why and the choices in
// docs/decisions/2026-11-27-lossless-journal-export.md). Both ways, in one place: the writer
// (output/formats/delimited.ts with `exact`, and the JSON Lines export) and the reader
// (journal/rows.ts, journal/import-formats.ts).
//
// CSV, in this order, each step undone in reverse on import:
//   1. a character a terminal would act on (core/invisible.ts) is written as \uXXXX, and a
//      backslash that is followed by u is written as \u005c, so that every \u in a cell is an
//      escape the writer made (a backslash before anything else is written as it is);
//   2. the formula guard (core/formula-guard.ts): a leading ' when the cell would start a formula;
//   3. RFC 4180 quoting; the empty text is "" (a quoted empty cell), an unquoted empty cell is
//      no value (null), as PostgreSQL's CSV reads them.
// TSV: core/tsv.ts's escapes (\t \n \r \\ and \uXXXX); the empty text is \&.
// JSON Lines: JSON's own escapes, the bidi and C1 controls and the line separators written as
// \uXXXX too (JSON.stringify writes them as they are); JSON.parse reads them back.
// The export never cleans a cell: what a terminal would act on is shown as an escape instead.
import { guardFormula, unguardFormula } from './formula-guard.js';
import { hexEscape, INVISIBLE_SOURCE, readHexEscapes } from './invisible.js';
import { escapeTsv, unescapeTsv } from './tsv.js';

const CSV_SHOWN = new RegExp(`\\\\(?=u)|${INVISIBLE_SOURCE}`, 'g');
const CSV_QUOTE = /[",\n]/;

/** A text as an exact CSV cell: escaped, guarded and quoted as needed ("" for the empty text). */
export function exactCsvCell(text: string): string {
  if (text === '') return '""';
  const cell = guardFormula(text.replace(CSV_SHOWN, hexEscape));
  return CSV_QUOTE.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}

/** A CSV cell, already unquoted, back to its text; an unquoted empty cell is no value. */
export const readCsvCell = (cell: string, quoted: boolean): string | null =>
  cell === '' && !quoted ? null : readHexEscapes(unguardFormula(cell));

/** A text as an exact TSV cell (\& for the empty text). */
export const exactTsvCell = (text: string): string => (text === '' ? '\\&' : escapeTsv(text));

/** A TSV cell back to its text; an empty cell is no value. */
export const readTsvCell = (cell: string): string | null => (cell === '' ? null : unescapeTsv(cell));

const JSON_SHOWN = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * A value as one line of JSON: JSON.stringify's, with the controls it leaves as they are
 * written as \uXXXX (they can only stand inside a string there, where the escape means them).
 */
export const exactJson = (value: unknown): string => escapeInvisibleJson(JSON.stringify(value));

/**
 * JSON text with the controls JSON.stringify leaves as they are (C1, bidi, the line and
 * paragraph separators) written as \uXXXX: in JSON text they can only stand inside a string,
 * where the escape means them, so the value stays; a terminal shown `--json` is not moved,
 * recoloured or reordered by a server's text.
 */
export const escapeInvisibleJson = (json: string): string => json.replace(JSON_SHOWN, hexEscape);
