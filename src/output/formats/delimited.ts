// CSV and TSV for spreadsheets and shell tools: a header row, then one row per record.
// CSV is RFC 4180 (a cell holding a comma, quote, CR or LF is quoted, quotes doubled) with LF
// line ends; TSV escapes tab, newline, carriage return and backslash as \t, \n, \r, \\ so a
// row is always one line. A text cell a spreadsheet would run as a formula (OWASP's list: it
// begins with =, +, -, @, tab or CR) gets a leading ' in CSV; a number never does, so -0.19
// stays a number. No colour and no truncation: the same bytes on a terminal and in a pipe.
import { cleanBlock } from '../sanitize.js';

export type DelimitedFormat = 'csv' | 'tsv';
/** A cell as the body sent it: numbers stay numbers (written as JavaScript writes them), null is empty. */
export type Cell = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;
const CSV_QUOTE = /[",\r\n]/;

function csvCell(cell: Cell): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell !== 'string') return String(cell);
  const text = FORMULA_START.test(cell) ? `'${cell}` : cell;
  return CSV_QUOTE.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const TSV_ESCAPES: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r', '\\': '\\\\' };

function tsvCell(cell: Cell): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell !== 'string') return String(cell);
  return cell.replace(/[\t\n\r\\]/g, (c) => TSV_ESCAPES[c]!);
}

/**
 * The table as CSV or TSV. Text cells are the server's: cleaned of terminal controls first, as
 * everywhere (cleanBlock keeps tabs and newlines, which are then quoted or escaped).
 */
export function renderDelimited(format: DelimitedFormat, header: readonly string[], rows: readonly Cell[][]): string {
  const cell = format === 'csv' ? csvCell : tsvCell;
  const sep = format === 'csv' ? ',' : '\t';
  const line = (cells: readonly Cell[]) => cells.map((c) => cell(typeof c === 'string' ? cleanBlock(c) : c)).join(sep);
  return `${[line(header), ...rows.map(line)].join('\n')}\n`;
}
