// TSV's escapes, both ways, in one place: a text cell's tab, newline and backslash are written
// as \t, \n and \\ (output/formats/delimited.ts), so a row is always one line and a cell never
// holds the separator; `journal import` reads them back (journal/import.ts). unescapeTsv is the
// exact inverse of escapeTsv (test/unit/tsv.test.ts holds it for every string); a backslash
// before any other character, which the writer never makes, is left as it is.

const ESCAPES: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\\': '\\\\' };
const UNESCAPES: Record<string, string> = { t: '\t', n: '\n', '\\': '\\' };

/** A text cell as TSV writes it. */
export const escapeTsv = (text: string): string => text.replace(/[\t\n\\]/g, (c) => ESCAPES[c]!);

/** A TSV cell back to its text. */
export const unescapeTsv = (cell: string): string => cell.replace(/\\([tn\\])/g, (_, c: string) => UNESCAPES[c]!);

/** A TSV line's cells, unescaped. */
export const tsvCells = (line: string): string[] => line.split('\t').map(unescapeTsv);
