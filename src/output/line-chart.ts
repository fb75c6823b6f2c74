// A text line chart drawn in braille (2×4 dots per character): the closes as a solid line, a
// forecast as a dotted one after the last close, points as glyphs of their own, y labels on the
// left and time labels under the x axis. What it draws is chart.ts's choice.
import { formatPrice } from './format.js';

/** A point drawn as a glyph of its own on the plot: the last price, a target. */
export interface ChartPoint {
  /** Candle steps from the first close; may lie beyond the last close (a target). */
  step: number;
  value: number;
  glyph: string;
  paint?: (s: string) => string;
}

/** A time label under the x axis, at a candle step. */
export interface AxisLabel {
  step: number;
  text: string;
}

export interface LineChartOptions {
  /** Total width in columns, the y labels included. */
  width: number;
  /** Rows of the plot. */
  height: number;
  points?: ChartPoint[];
  /** The forecast: where the line is expected to be, `stepsAhead` candles after the last close. */
  projection?: { value: number; stepsAhead: number; paint?: (s: string) => string };
  /** Time labels under the plot; the first at the left edge, the last at the right; others dropped where they collide. */
  axisLabels?: AxisLabel[];
  formatValue?: (v: number) => string;
}

const BRAILLE_BASE = 0x2800;
// Bit of each dot in a braille cell, indexed [row 0..3][column 0..1].
const DOT_BITS = [
  [0x01, 0x08],
  [0x02, 0x10],
  [0x04, 0x20],
  [0x40, 0x80],
] as const;

class DotCanvas {
  readonly cells: Uint8Array;
  constructor(
    readonly cols: number,
    readonly rows: number,
  ) {
    this.cells = new Uint8Array(cols * rows);
  }
  get dotWidth(): number {
    return this.cols * 2;
  }
  get dotHeight(): number {
    return this.rows * 4;
  }
  set(x: number, y: number): void {
    if (x < 0 || y < 0 || x >= this.dotWidth || y >= this.dotHeight) return;
    this.cells[Math.floor(y / 4) * this.cols + Math.floor(x / 2)]! |= DOT_BITS[y % 4]![x % 2]!;
  }
  /** A line between two dots; `every` > 1 leaves gaps, for a dotted line. */
  line(x0: number, y0: number, x1: number, y1: number, every = 1): void {
    const steps = Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0), 1);
    for (let i = 0; i <= steps; i++) {
      if (i % every !== 0) continue;
      this.set(Math.round(x0 + ((x1 - x0) * i) / steps), Math.round(y0 + ((y1 - y0) * i) / steps));
    }
  }
  mask(col: number, row: number): number {
    return this.cells[row * this.cols + col]!;
  }
}

/** Rows that carry a y label: the top, the bottom, and about every third row between. */
function tickRows(rows: number): number[] {
  const count = Math.max(3, Math.floor((rows - 1) / 3) + 1);
  const picked = Array.from({ length: count }, (_, i) => Math.round((i * (rows - 1)) / (count - 1)));
  return [...new Set(picked)];
}

/**
 * The x-axis line and its labels, each where its step falls, none overlapping. The first and
 * the last label win; a middle one that would collide with the last joins it (`22:00 → 23:45`).
 */
function xAxis(labels: readonly AxisLabel[], colOf: (step: number) => number, cols: number): [string, string] {
  const placed: Array<{ start: number; text: string }> = [];
  const ticks = new Set<number>();
  const len = (t: string) => [...t].length;
  const clashes = (start: number, text: string, others = placed) =>
    others.some((p) => start < p.start + len(p.text) + 2 && p.start < start + len(text) + 2);
  const place = (col: number, text: string, align: 'start' | 'end' | 'centre', cols2 = [col]) => {
    const width = len(text);
    let start = align === 'start' ? col : align === 'end' ? col - width + 1 : col - Math.floor(width / 2);
    start = Math.max(0, Math.min(cols - width, start));
    if (width > cols || clashes(start, text)) return false;
    placed.push({ start, text });
    for (const c of cols2) ticks.add(c);
    return true;
  };
  const first = labels[0];
  const final = labels.length > 1 ? labels[labels.length - 1] : undefined;
  if (first) place(colOf(first.step), first.text, 'start');
  const middle = labels.slice(1, final ? -1 : undefined);
  if (final) {
    const finalCol = colOf(final.step);
    // A middle label too close to the last one is written with it, as a span.
    const near = middle.filter((m) => finalCol - colOf(m.step) < len(m.text) + len(final.text) + 2);
    const joined = near.length ? `${near.map((m) => m.text).join(' → ')} → ${final.text}` : final.text;
    if (!(near.length && place(finalCol, joined, 'end', [...near.map((m) => colOf(m.step)), finalCol])))
      place(finalCol, final.text, 'end');
    for (const m of middle.filter((x) => !near.includes(x))) place(colOf(m.step), m.text, 'centre');
  }
  const axis = Array.from({ length: cols }, (_, c) => (ticks.has(c) ? '┬' : '─'));
  let text = '';
  for (const p of [...placed].sort((a, b) => a.start - b.start)) text = text.padEnd(p.start) + p.text;
  return [axis.join(''), text];
}

/** The chart's lines, without a trailing newline: y labels and axis, the plot, then the x axis and its times. */
export function renderLineChart(closes: readonly number[], opts: LineChartOptions): string[] {
  const format = opts.formatValue ?? ((v: number) => formatPrice(v));
  const points = opts.points ?? [];
  const projection = opts.projection;
  const values = [...closes, ...points.map((p) => p.value), ...(projection ? [projection.value] : [])].filter(
    Number.isFinite,
  );
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (hi === lo) {
    const pad = Math.abs(hi) * 0.001 || 1;
    lo -= pad;
    hi += pad;
  }
  const rows = Math.max(2, opts.height);
  const dotHeight = rows * 4;
  // The value at the middle of a row (the top and bottom rows: the range's ends).
  const valueAt = (row: number) =>
    row === 0 ? hi : row === rows - 1 ? lo : hi - ((row * 4 + 1.5) / (dotHeight - 1)) * (hi - lo);
  const ticks = new Map(tickRows(rows).map((row) => [row, format(valueAt(row))]));
  const labelWidth = Math.max(...[...ticks.values()].map((l) => l.length));
  const cols = Math.max(8, opts.width - labelWidth - 2);

  const history = new DotCanvas(cols, rows);
  const future = new DotCanvas(cols, rows);
  const span = closes.length - 1 + (projection ? Math.max(0, projection.stepsAhead) : 0);
  const xOf = (step: number) => Math.round((step / Math.max(span, 1)) * (history.dotWidth - 1));
  const yOf = (v: number) => Math.round(((hi - v) / (hi - lo)) * (dotHeight - 1));
  for (let i = 1; i < closes.length; i++) history.line(xOf(i - 1), yOf(closes[i - 1]!), xOf(i), yOf(closes[i]!));
  if (closes.length === 1) history.set(xOf(0), yOf(closes[0]!));
  if (projection) {
    const last = closes.length - 1;
    future.line(xOf(last), yOf(closes[last]!), xOf(span), yOf(projection.value), 2);
  }

  // Each point gets a cell of its own: one that lands on another's moves a column to the left.
  const glyphs = new Map<number, ChartPoint>();
  for (const p of points) {
    const row = Math.min(rows - 1, Math.max(0, Math.floor(yOf(p.value) / 4)));
    let col = Math.min(cols - 1, Math.max(0, Math.floor(xOf(p.step) / 2)));
    while (glyphs.has(row * cols + col) && col > 0) col--;
    glyphs.set(row * cols + col, p);
  }

  const lines: string[] = [];
  const futurePaint = projection?.paint ?? ((s: string) => s);
  for (let row = 0; row < rows; row++) {
    let plot = '';
    for (let col = 0; col < cols; col++) {
      const point = glyphs.get(row * cols + col);
      const past = history.mask(col, row);
      const ahead = future.mask(col, row);
      if (point) plot += (point.paint ?? ((s: string) => s))(point.glyph);
      else if (past) plot += String.fromCodePoint(BRAILLE_BASE + (past | ahead));
      else if (ahead) plot += futurePaint(String.fromCodePoint(BRAILLE_BASE + ahead));
      else plot += ' ';
    }
    const label = ticks.get(row);
    lines.push(`${(label ?? '').padStart(labelWidth)} ${label === undefined ? '│' : '┤'}${plot}`.trimEnd());
  }
  if (opts.axisLabels?.length) {
    const [axis, text] = xAxis(opts.axisLabels, (step) => Math.floor(xOf(step) / 2), cols);
    lines.push(`${' '.repeat(labelWidth)} └${axis}`, `${' '.repeat(labelWidth + 2)}${text}`.trimEnd());
  }
  return lines;
}
