// Tables for people: no box drawing (it doubles the width and breaks copy-paste), columns
// aligned, numbers right-aligned, a bold header when colour is on. Cells are cleaned of
// terminal controls here, so no renderer can forget.
//
// On a terminal a table fits the width: the columns with the highest `priority` go first,
// then the widest columns are narrowed, their cells ending in an ellipsis. Piped output keeps
// every column and every character, so scripts that read tables are not broken; `--wide`
// does the same on a terminal. Everything is linear in rows and in cell length: each cell is
// cleaned and measured once, widths are maxima, and no layout compares rows with each other
// (cli-table3's did: docs/decisions/2026-11-22-table-printer-over-cli-table3.md).
import type { Output } from './io.js';
import { redactText } from '../core/sinks.js';
import { markdownText } from './markdown.js';
import { clean } from './sanitize.js';

export type Align = 'left' | 'right';

export interface Column {
  header: string;
  align?: Align;
  /** Absent or 0: never dropped. Higher: dropped earlier when a terminal is too narrow. */
  priority?: number;
  /** Shown on a terminal only with --wide; piped output shows it always. */
  wideOnly?: boolean;
  /** On a terminal, longer cells end in an ellipsis. */
  maxWidth?: number;
  /**
   * Never narrowed while another column can be: a time keeps its time of day
   * (`2026-11-27 09:…` says nothing), others give way or are left out first.
   */
  whole?: boolean;
  /**
   * The row's identity (a symbol, a timeframe): never cut, whatever `maxWidth` says; other
   * columns are narrowed or left out first. Only a cell wider than the terminal by itself
   * (no symbol is) is cut to it, as nothing is drawn wider than the terminal.
   */
  identity?: boolean;
  /**
   * A shorter header (`Rate` for `Win rate`), taken on a terminal where it makes the table fit
   * before the next column would go, or a cell be cut: a header wider than its values would
   * cost another column, or a value its end.
   */
  short?: string;
}

/** A cell: plain text (cleaned), or text with a colour applied after cleaning. */
export type Cell = string | { text: string; paint?: (s: string) => string };

const GAP = 2;
const ELLIPSIS = '…';
/** A column is not narrowed below this, unless nothing else helps. */
const MIN_WIDTH = 6;

/** `text` without the colour sequences fcast itself writes (`\x1b[31m`, `\x1b[0m`): what a reader sees. */
export const withoutColour = (text: string): string => text.replace(/\x1b\[[0-9;]*m/g, '');

/** How wide `text` shows in a terminal: wide East Asian characters take two cells, combining marks none. */
export function displayWidth(text: string): number {
  let width = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x300) {
      width++;
      continue;
    }
    const point = text.codePointAt(i) ?? code;
    if (point > 0xffff) i++;
    width += charWidth(point);
  }
  return width;
}

export function charWidth(point: number): number {
  if ((point >= 0x300 && point <= 0x36f) || (point >= 0x200b && point <= 0x200f) || point === 0xfe0f) return 0;
  if (
    (point >= 0x1100 && point <= 0x115f) ||
    (point >= 0x2e80 && point <= 0xa4cf) ||
    (point >= 0xac00 && point <= 0xd7a3) ||
    (point >= 0xf900 && point <= 0xfaff) ||
    (point >= 0xfe30 && point <= 0xfe4f) ||
    (point >= 0xff00 && point <= 0xff60) ||
    (point >= 0xffe0 && point <= 0xffe6) ||
    (point >= 0x1f300 && point <= 0x1faff) ||
    (point >= 0x20000 && point <= 0x3fffd)
  )
    return 2;
  return 1;
}

/** `text` cut to at most `width` terminal cells, ending in an ellipsis when it was cut. */
export function truncate(text: string, width: number): string {
  if (text.length <= width && displayWidth(text) <= width) return text;
  if (width <= 0) return '';
  let used = 0;
  let end = 0;
  while (end < text.length) {
    const point = text.codePointAt(end) ?? 0;
    const w = charWidth(point);
    if (used + w > width - 1) break;
    used += w;
    end += point > 0xffff ? 2 : 1;
  }
  return `${text.slice(0, end)}${ELLIPSIS}`;
}

interface Prepared {
  text: string;
  width: number;
  paint?: (s: string) => string;
}

function prepare(cell: Cell | undefined): Prepared {
  if (cell === undefined) return { text: '', width: 0 };
  const text = clean(typeof cell === 'string' ? cell : cell.text);
  return { text, width: displayWidth(text), paint: typeof cell === 'string' ? undefined : cell.paint };
}

/**
 * The cells with any key in them masked before they are measured and cut: the output boundary
 * masks what is written, but a cell measured whole would be padded to the key's width, and a
 * cell cut to the terminal could end in part of a key's spelling that the boundary no longer
 * knows. One pass over the table's text finds whether any cell holds one (most hold none).
 */
function masked(cells: Prepared[][]): Prepared[][] {
  const text = cells.map((row) => row.map((c) => c.text).join('\n')).join('\n');
  if (redactText(text) === text) return cells;
  return cells.map((row) =>
    row.map((c) => {
      const shown = redactText(c.text);
      return shown === c.text ? c : { ...c, text: shown, width: displayWidth(shown) };
    }),
  );
}

/** Whether output is cut to the terminal: a TTY, unless --wide. */
export const fitting = (out: Output): boolean => out.tty && !out.wide;

interface Layout {
  /** The indices of the columns shown. */
  shown: number[];
  /** Each column's width. */
  widths: number[];
  /** How many columns were left out to fit. */
  leftOut: number;
  /** Whether the columns' short headers are shown. */
  short: boolean;
}

/** The columns shown, each one's width and which headers, for this output. */
function layout(
  out: Output,
  columns: Column[],
  headers: Prepared[],
  shortHeaders: Prepared[],
  cells: Prepared[][],
  indent: number,
): Layout {
  const fit = fitting(out);
  const naturalWith = (heads: Prepared[]) =>
    columns.map((c, i) => {
      let width = heads[i]!.width;
      for (const row of cells) width = Math.max(width, row[i]!.width);
      return fit && c.maxWidth !== undefined && !c.identity
        ? Math.max(Math.min(width, c.maxWidth), heads[i]!.width, 1)
        : width;
    });
  let natural = naturalWith(headers);
  let shown = columns.map((_, i) => i).filter((i) => !(columns[i]!.wideOnly && out.tty && !out.wide));
  if (!fit) return { shown, widths: natural, leftOut: 0, short: false };
  const before = shown.length;

  const limit = Math.max(1, out.columns - indent);
  const total = (idx: number[], w = natural) =>
    idx.reduce((sum, i) => sum + w[i]!, 0) + GAP * Math.max(0, idx.length - 1);
  // The short headers, where they make the table fit before the next column goes (or a cell is cut).
  const shortNatural = columns.some((c) => c.short !== undefined) ? naturalWith(shortHeaders) : undefined;
  let short = false;
  const shortFits = () => {
    if (short || !shortNatural || total(shown, shortNatural) > limit) return false;
    natural = shortNatural;
    short = true;
    return true;
  };
  // Least useful first: the highest priority, the rightmost among equals.
  const droppable = shown
    .filter((i) => (columns[i]!.priority ?? 0) > 0)
    .sort((a, b) => (columns[b]!.priority ?? 0) - (columns[a]!.priority ?? 0) || b - a);
  for (const i of droppable) {
    if (total(shown) <= limit || shortFits()) break;
    shown = shown.filter((j) => j !== i);
  }
  if (total(shown) > limit) shortFits();
  // Still too wide: narrow the widest column, one cell at a time, down to a floor, then below it;
  // a whole column only when nothing else is left to narrow; the row's identity never, unless
  // it is wider than the terminal by itself.
  const widths = [...natural];
  for (const i of shown) if (columns[i]!.identity) widths[i] = Math.min(widths[i]!, limit);
  for (const [floor, wholeToo] of [
    [MIN_WIDTH, false],
    [1, false],
    [1, true],
  ] as const) {
    let over = total(shown, widths) - limit;
    while (over > 0) {
      let widest = -1;
      for (const i of shown)
        if (
          widths[i]! > floor &&
          !columns[i]!.identity &&
          (wholeToo || !columns[i]!.whole) &&
          (widest < 0 || widths[i]! > widths[widest]!)
        )
          widest = i;
      if (widest < 0) break;
      widths[widest]!--;
      over--;
    }
  }
  return { shown, widths: shown.length ? widths : natural, leftOut: before - shown.length, short };
}

function pad(cell: Prepared, width: number, align: Align, last: boolean): string {
  let { text, width: w } = cell;
  if (w > width) {
    text = truncate(text, width);
    w = displayWidth(text);
  }
  const painted = cell.paint && text !== '' ? cell.paint(text) : text;
  const fill = ' '.repeat(Math.max(0, width - w));
  if (align === 'right') return fill + painted;
  return last ? painted : painted + fill;
}

/**
 * The table as Markdown (--format markdown): every column, each cell escaped to render as the
 * characters shown; its lines named to the output, which writes them as they are.
 */
function markdownTable(out: Output, columns: Column[], rows: Cell[][]): string {
  const cell = (c: Cell | undefined) => markdownText(c === undefined ? '' : typeof c === 'string' ? c : c.text);
  const lines = [
    `| ${columns.map((c) => cell(c.header)).join(' | ')} |`,
    `|${columns.map((c) => (c.align === 'right' ? '---:' : ':---')).join('|')}|`,
    ...rows.map((row) => `| ${columns.map((_, i) => cell(row[i])).join(' | ')} |`),
  ];
  for (const line of lines) out.markdownKept.lines.add(line);
  return lines.join('\n');
}

/** `indent`: the columns the caller puts before every line (a nested table), out of the width. */
export function renderTable(out: Output, columns: Column[], rows: Cell[][], indent = 0): string {
  if (out.markdown) return markdownTable(out, columns, rows);
  const headers = columns.map((c) => prepare(c.header));
  const shortHeaders = columns.map((c, i) => (c.short === undefined ? headers[i]! : prepare(c.short)));
  const cells = masked(rows.map((row) => columns.map((_, i) => prepare(row[i]))));
  const { shown, widths, leftOut, short } = layout(out, columns, headers, shortHeaders, cells, indent);
  out.columnsLeftOut(leftOut);
  const line = (row: Prepared[], paint?: (s: string) => string) =>
    shown
      .map((i, k) => {
        const cell = paint && row[i]!.text ? { ...row[i]!, paint } : row[i]!;
        return pad(cell, widths[i]!, columns[i]!.align ?? 'left', k === shown.length - 1);
      })
      .join(' '.repeat(GAP))
      .trimEnd();
  const lines = [line(short ? shortHeaders : headers, out.c.bold)];
  for (const row of cells) lines.push(line(row));
  return lines.join('\n');
}

/**
 * `key  value` lines, keys padded to one width (at least `keyWidth`, so that two blocks of
 * pairs line up); a long value wraps at its column.
 */
export function renderPairs(out: Output, pairs: Array<[string, string]>, keyWidth = 0): string {
  const keys = pairs.map(([k]) => clean(k));
  const width = Math.max(keyWidth, ...keys.map(displayWidth));
  // A long value wraps at its column rather than losing its end (a settlement rule cut short
  // says something else).
  return pairs
    .map(([, v], i) => `${out.c.dim(keys[i]!.padEnd(width))}  ${wrapIndented(clean(v), textWidth(out), width + GAP)}`)
    .join('\n');
}

/**
 * Short phrases joined on one line, carried over to the next where the terminal is too narrow
 * (a header like `BTC/USD  92,231.74  -0.95% 24h  at ...`). `parts` are [plain, painted].
 */
export function flowLine(out: Output, parts: Array<[plain: string, painted: string]>, sep = '  '): string {
  if (!fitting(out)) return parts.map(([, p]) => p).join(sep);
  const fitted = parts.map(([plain, painted]): [string, string] => {
    if (displayWidth(plain) <= out.columns) return [plain, painted];
    // Masked before it is cut: the end of a key's spelling is no spelling the boundary knows.
    const cut = truncate(redactText(plain), out.columns);
    return [cut, cut];
  });
  return packParts(fitted, out.columns, sep).join('\n');
}

/**
 * The one line packer of every view (headers, gateway headings, the chart's legend): parts
 * joined by `sep`, a new line where the next would pass `width` display columns.
 */
export function packParts(
  parts: ReadonlyArray<[plain: string, painted: string]>,
  width: number,
  sep: string,
): string[] {
  const lines: string[] = [];
  let current = '';
  let used = 0;
  for (const [plain, painted] of parts) {
    const w = displayWidth(plain);
    if (used > 0 && used + sep.length + w > width) {
      lines.push(current);
      current = '';
      used = 0;
    }
    current += (used > 0 ? sep : '') + painted;
    used += (used > 0 ? sep.length : 0) + w;
  }
  if (current !== '' || lines.length === 0) lines.push(current);
  return lines;
}

/** Prose wrapped at word boundaries to the terminal's width (unchanged when piped or --wide). */
/** The width text must keep to: the terminal's on a TTY; piped, none (a script reads whole lines). */
export const textWidth = (out: Output): number => (fitting(out) ? out.columns : Number.POSITIVE_INFINITY);

/** Parts joined by `joiner`, onto as many lines as keep each within `width`. */
export const packLine = (parts: readonly string[], width: number, joiner = ' · '): string[] =>
  packParts(
    parts.map((p): [string, string] => [p, p]),
    width,
    joiner,
  );

/**
 * Text that starts at column `indent` (after a label or a bullet), word-wrapped to the width,
 * each line at that column. A word longer than the room (a path, a URL) is carried over after
 * one of its own separators rather than left to the terminal, which would cut it anywhere and
 * start its rest at column 0.
 */
export function wrapIndented(text: string, width: number, indent: number): string {
  if (!Number.isFinite(width) || indent + [...text].length <= width) return text;
  const room = Math.max(20, width - indent);
  const lines: string[] = [];
  /** Lines that start at column 0: a URL too long for the room, whole on a line of its own. */
  const bare = new Set<number>();
  let current = '';
  for (const word of text.split(' ')) {
    if (isUrl(word) && displayWidth(word) > room) {
      if (current !== '') lines.push(current);
      bare.add(lines.length);
      lines.push(word);
      current = '';
      continue;
    }
    for (const [i, piece] of breakLongWord(word, room).entries()) {
      // The pieces of one word join without a space.
      const joined = current === '' ? piece : `${current}${i === 0 ? ' ' : ''}${piece}`;
      if (current !== '' && displayWidth(joined) > room) {
        lines.push(current);
        current = piece;
      } else current = joined;
    }
  }
  if (current !== '' || lines.length === 0) lines.push(current);
  // A line broken at a run of spaces (the padding between a key and its value) ends without them.
  return lines
    .map((line, i) => (i === 0 || bare.has(i) ? line.trimEnd() : `${' '.repeat(indent)}${line.trimEnd()}`))
    .join('\n');
}

/** A URL: never broken, so that it can be copied or clicked whole (the contract's fine print). */
const isUrl = (word: string): boolean => /^[a-z][a-z0-9+.-]*:\/\/\S/i.test(word);

/**
 * Where a path or URL may be carried over: after these (a `/` only alone, so `http://` stays
 * whole). A key has none of them, so it always stays whole.
 */
const BREAK_AFTER = new Set(['/', '?', '&', '=', '@', ',', ';']);
const breaksAfter = (text: string, i: number): boolean =>
  BREAK_AFTER.has(text[i]!) &&
  i + 1 < text.length &&
  !(text[i] === '/' && (text[i - 1] === '/' || text[i + 1] === '/'));

/** `word` in pieces of at most `room` columns, each ending at a separator; a word without one stays whole. */
function breakLongWord(word: string, room: number): string[] {
  if (word.length <= room && displayWidth(word) <= room) return [word];
  const pieces: string[] = [];
  let rest = word;
  while (displayWidth(rest) > room) {
    let cut = 0;
    let used = 0;
    for (let i = 0; i < rest.length; i++) {
      const point = rest.codePointAt(i) ?? 0;
      used += charWidth(point);
      if (used > room) break;
      if (point > 0xffff) i++;
      else if (breaksAfter(rest, i)) cut = i + 1;
    }
    if (cut === 0) break;
    pieces.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  return [...pieces, rest];
}

export function wrapText(out: Output, text: string): string {
  if (!fitting(out) || displayWidth(text) <= out.columns) return text;
  return flowLine(
    out,
    text.split(' ').map((w) => [w, w]),
    ' ',
  );
}
