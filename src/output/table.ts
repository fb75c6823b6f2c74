// Tables for people: no box drawing (it doubles the width and breaks copy-paste), columns
// aligned, numbers right-aligned, a bold header when colour is on. Cells are cleaned of
// terminal controls here, so no renderer can forget.
import Table from 'cli-table3';
import type { Output } from './io.js';
import { clean } from './sanitize.js';

export type Align = 'left' | 'right';

export interface Column {
  header: string;
  align?: Align;
  /** Absent or 0: never dropped; higher: dropped earlier when a terminal is too narrow. */
  priority?: number;
  /** Shown on a terminal only with --wide; piped output shows every column. */
  wideOnly?: boolean;
  /** Longer cells end in an ellipsis on a terminal. */
  maxWidth?: number;
}

/** A cell: plain text (cleaned), or text with a colour applied after cleaning. */
export type Cell = string | { text: string; paint?: (s: string) => string };

export function renderTable(out: Output, columns: Column[], rows: Cell[][]): string {
  const table = new Table({
    head: columns.map((c) => out.c.bold(c.header)),
    colAligns: columns.map((c) => c.align ?? 'left'),
    style: { head: [], border: [], compact: true, 'padding-left': 0, 'padding-right': 2 },
    chars: {
      top: '',
      'top-mid': '',
      'top-left': '',
      'top-right': '',
      bottom: '',
      'bottom-mid': '',
      'bottom-left': '',
      'bottom-right': '',
      left: '',
      'left-mid': '',
      mid: '',
      'mid-mid': '',
      right: '',
      'right-mid': '',
      middle: '',
    },
  });
  for (const row of rows) {
    table.push(
      row.map((cell) =>
        typeof cell === 'string' ? clean(cell) : (cell.paint ?? ((s: string) => s))(clean(cell.text)),
      ),
    );
  }
  return table
    .toString()
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n');
}

/** `key  value` lines, keys padded to one width. */
export function renderPairs(out: Output, pairs: Array<[string, string]>): string {
  const width = Math.max(0, ...pairs.map(([k]) => k.length));
  return pairs.map(([k, v]) => `${out.c.dim(clean(k).padEnd(width))}  ${clean(v)}`).join('\n');
}
