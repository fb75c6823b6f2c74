// TSV's escapes, both ways, in one place: a text cell's tab, newline, carriage return and
// backslash are written as \t, \n, \r and \\ (output/formats/delimited.ts), so a row is always
// one line and a cell never holds the separator; the characters a terminal would act on (C0 and
// C1 controls, bidi controls, line separators) and lone surrogates as \uXXXX (four lower-case hex
// digits). Other commands clean those away before escaping (the sanitiser), so only the
// journal's export (exact text, core/exact-text.ts) writes them. `journal import` reads them back
// (journal/import-formats.ts). unescapeTsv is the exact inverse of escapeTsv (test/unit/tsv.test.ts holds
// it for every string): a backslash the writer wrote is always the start of one of its escapes,
// and one before any other character, which the writer never makes, is left as it is.
// \& stands for nothing: the journal's export writes an empty text as \& (an empty cell is no
// value), and reading drops it.
import { INVISIBLE_SOURCE, hexEscape } from './invisible.js';

const ESCAPES: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r', '\\': '\\\\' };
const UNESCAPES: Record<string, string> = { t: '\t', n: '\n', r: '\r', '\\': '\\', '&': '' };
const ESCAPED = new RegExp(`[\\t\\n\\r\\\\]|${INVISIBLE_SOURCE}`, 'g');

/** A text cell as TSV writes it. */
export const escapeTsv = (text: string): string => text.replace(ESCAPED, (c) => ESCAPES[c] ?? hexEscape(c));

/** A TSV cell back to its text. */
export const unescapeTsv = (cell: string): string =>
  cell.includes('\\')
    ? cell.replace(/\\([tnr\\&]|u[0-9a-f]{4})/g, (_, c: string) =>
        c.length === 5 ? String.fromCharCode(Number.parseInt(c.slice(1), 16)) : UNESCAPES[c]!,
      )
    : cell;

/** A TSV line's cells, unescaped. */
export const tsvCells = (line: string): string[] => line.split('\t').map(unescapeTsv);
