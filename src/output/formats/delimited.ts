// CSV and TSV for spreadsheets and shell tools: a header row, then one row per record.
// CSV is RFC 4180 (a cell holding a comma, quote, CR or LF is quoted, quotes doubled) with LF
// line ends; TSV escapes tab, newline and backslash as \t, \n, \\ so a row is always one line
// (a carriage return is a line break by then: text is cleaned as everywhere, CR to LF). A text
// cell a spreadsheet would run as a formula (OWASP's list: it begins with =, +, -, @, tab or
// CR; or a run of ' then one of those) gets a leading ' in CSV; a number never does, so -0.19
// stays a number. No colour and no truncation: the same bytes on a terminal and in a pipe.
// The journal's export asks for exact cells instead (core/exact-text.ts): nothing cleaned,
// what a terminal would act on written as a visible escape that its import reads back.
// Written by hand, held to csv-stringify's bytes by a property test (test/helpers/csv-oracle.ts):
// told these rules (a number as sent is text to it, so each such cell carries its own options),
// csv-stringify was slower to write and to load (test/bench/csv-writer.bench.ts; the figures:
// docs/decisions/2026-11-25-csv-writer-by-hand.md); all it would replace is the quoting below.
import { exactCsvCell, exactTsvCell } from '../../core/exact-text.js';
import { needsFormulaGuard } from '../../core/formula-guard.js';
import { escapeTsv } from '../../core/tsv.js';
import { cleanBlock } from '../sanitize.js';

export type DelimitedFormat = 'csv' | 'tsv';

/** A number as the body wrote it (`1.50`, `1e2`, an id past 2^53): written as it is, never taken for a formula. */
export interface NumberCell {
  number: string;
}

/**
 * A cell as the body sent it: a number stays a number (a JavaScript number as JavaScript
 * writes it, a NumberCell as its text), true and false as such, null or undefined empty.
 */
export type Cell = string | number | boolean | null | undefined | NumberCell;

const CSV_QUOTE = /[",\r\n]/;
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** The text of a cell that is not text; undefined for text, and for a NumberCell that holds no number. */
function nonText(cell: Cell): string | undefined {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'string') return undefined;
  if (typeof cell === 'object') return JSON_NUMBER.test(cell.number) ? cell.number : undefined;
  return String(cell);
}

const sentText = (cell: Cell): string => String(typeof cell === 'object' && cell !== null ? cell.number : cell);

/** Server text, cleaned of terminal controls as everywhere (tabs and newlines stay, to be quoted or escaped). */
const textOf = (cell: Cell): string => cleanBlock(sentText(cell));

function csvCell(cell: Cell): string {
  const plain = nonText(cell);
  if (plain !== undefined) return plain;
  let text = textOf(cell);
  // Judged on the text as sent too: cleaning turns a leading CR into a line break, and drops an
  // escape sequence before an `=`; either way the cell was one a spreadsheet could run.
  // The rule, and its undoing on import, live in core/formula-guard.ts.
  if (needsFormulaGuard(sentText(cell)) || needsFormulaGuard(text)) text = `'${text}`;
  return CSV_QUOTE.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

// The escapes, and their undoing on import, live in core/tsv.ts.
function tsvCell(cell: Cell): string {
  return nonText(cell) ?? escapeTsv(textOf(cell));
}

/**
 * The journal export's cells: text exactly as held, what a terminal would act on shown as an
 * escape rather than removed, so that `journal import` reads it back (core/exact-text.ts).
 */
function exactCell(format: DelimitedFormat): (cell: Cell) => string {
  const text = format === 'csv' ? exactCsvCell : exactTsvCell;
  return (cell) => nonText(cell) ?? text(sentText(cell));
}

/**
 * The table as CSV or TSV, newline-terminated. `exact` (the journal's export): text cells as
 * core/exact-text.ts writes them, so that an import gives back every text as it was.
 */
export function renderDelimited(
  format: DelimitedFormat,
  header: readonly string[],
  rows: readonly Cell[][],
  options: { exact?: boolean } = {},
): string {
  const cell = options.exact ? exactCell(format) : format === 'csv' ? csvCell : tsvCell;
  const sep = format === 'csv' ? ',' : '\t';
  const line = (cells: readonly Cell[]) => cells.map(cell).join(sep);
  return `${[line(header), ...rows.map(line)].join('\n')}\n`;
}
