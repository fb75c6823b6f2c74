// A text line chart of recent closes, drawn in braille (2×4 dots per character), with the
// forecast drawn on after the last close: a dotted line from the last close to the target
// price, as far to the right as the forecast's horizon reaches. The seed does not fix the
// shape of a candle, so the common ones are read and anything else is reported, not drawn.
import { CANDLE_TIMEFRAMES, timeframeMinutes } from '../domain.js';
import { formatPercent, formatPrice, formatUtc } from './format.js';
import type { Output } from './io.js';
import { isRecord } from '../values.js';

function toNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/** Epoch seconds, whether given in seconds or milliseconds. */
function toEpochSeconds(v: unknown): number | undefined {
  const n = toNumber(v);
  if (n === undefined) return undefined;
  return n > 1e12 ? Math.floor(n / 1000) : n;
}

export interface CloseSeries {
  closes: number[];
  /** Epoch seconds of each close's candle, when the candles carry times. */
  times?: number[];
}

const CANDLE_SHAPES = 'objects {t,o,h,l,c,v}, objects with close or c, or arrays [t,o,h,l,c,v]';

/** The closes of a candle list, oldest first; a string saying why when the shape is not one we know. */
export function candleCloses(candles: unknown): CloseSeries | string {
  if (!Array.isArray(candles)) return `not a list of candles (expected ${CANDLE_SHAPES})`;
  const points: Array<{ close: number; t?: number }> = [];
  for (const candle of candles) {
    if (Array.isArray(candle)) {
      const close = candle.length >= 5 ? toNumber(candle[4]) : undefined;
      if (close !== undefined) points.push({ close, t: toEpochSeconds(candle[0]) });
    } else if (isRecord(candle)) {
      const close = toNumber(candle.c ?? candle.close);
      if (close !== undefined)
        points.push({ close, t: toEpochSeconds(candle.t ?? candle.time ?? candle.ts ?? candle.open_time) });
    }
  }
  if (points.length < 2) return `fewer than 2 closing prices found (expected ${CANDLE_SHAPES})`;
  const timed = points.every((p) => p.t !== undefined);
  if (timed) points.sort((a, b) => a.t! - b.t!);
  return { closes: points.map((p) => p.close), ...(timed ? { times: points.map((p) => p.t!) } : {}) };
}

export interface ChartMark {
  /** Shown to the right of the row the value falls on. */
  label: string;
  value: number;
  paint?: (s: string) => string;
}

export interface LineChartOptions {
  /** Total width in columns, axis labels and right-hand marks included. */
  width: number;
  /** Rows of the plot. */
  height: number;
  marks?: ChartMark[];
  /** The forecast: where the line is expected to be, `stepsAhead` candles after the last close. */
  projection?: { value: number; stepsAhead: number; paint?: (s: string) => string };
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

const MARK_GLYPH = '◀';

/** The chart's lines, without a trailing newline: left axis, plot, marks on the right. */
export function renderLineChart(closes: readonly number[], opts: LineChartOptions): string[] {
  const format = opts.formatValue ?? ((v: number) => formatPrice(v));
  const marks = opts.marks ?? [];
  const projection = opts.projection;
  const values = [...closes, ...marks.map((m) => m.value), ...(projection ? [projection.value] : [])].filter(
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
  const top = format(hi);
  const bottom = format(lo);
  const labelWidth = Math.max(top.length, bottom.length);

  const markText = new Map<number, string[]>();
  const markPaint = new Map<number, (s: string) => string>();
  // The same rounding as the dots, so a mark sits on the row where its value is drawn.
  const rowOf = (v: number) => Math.floor(Math.round(((hi - v) / (hi - lo)) * (rows * 4 - 1)) / 4);
  for (const m of marks) {
    const row = Math.min(rows - 1, Math.max(0, rowOf(m.value)));
    markText.set(row, [...(markText.get(row) ?? []), m.label]);
    if (m.paint && !markPaint.has(row)) markPaint.set(row, m.paint);
  }
  const gutterWidth = Math.max(0, ...[...markText.values()].map((l) => ` ${MARK_GLYPH} ${l.join(', ')}`.length));
  const cols = Math.max(8, opts.width - labelWidth - 2 - gutterWidth);

  const history = new DotCanvas(cols, rows);
  const future = new DotCanvas(cols, rows);
  const span = closes.length - 1 + (projection ? Math.max(0, projection.stepsAhead) : 0);
  const xOf = (i: number) => Math.round((i / Math.max(span, 1)) * (history.dotWidth - 1));
  const yOf = (v: number) => Math.round(((hi - v) / (hi - lo)) * (history.dotHeight - 1));
  for (let i = 1; i < closes.length; i++) history.line(xOf(i - 1), yOf(closes[i - 1]!), xOf(i), yOf(closes[i]!));
  if (closes.length === 1) history.set(xOf(0), yOf(closes[0]!));
  if (projection) {
    const last = closes.length - 1;
    future.line(xOf(last), yOf(closes[last]!), xOf(span), yOf(projection.value), 2);
  }

  const lines: string[] = [];
  for (let row = 0; row < rows; row++) {
    let plot = '';
    for (let col = 0; col < cols; col++) {
      const past = history.mask(col, row);
      const ahead = future.mask(col, row);
      if (past) plot += String.fromCodePoint(BRAILLE_BASE + (past | ahead));
      else if (ahead) plot += (projection?.paint ?? ((s: string) => s))(String.fromCodePoint(BRAILLE_BASE + ahead));
      else plot += ' ';
    }
    const label = row === 0 ? top : row === rows - 1 ? bottom : '';
    const axis = row === 0 || row === rows - 1 ? '┤' : '│';
    const tags = markText.get(row);
    const gutter = tags ? (markPaint.get(row) ?? ((s: string) => s))(` ${MARK_GLYPH} ${tags.join(', ')}`) : '';
    lines.push(`${label.padStart(labelWidth)} ${axis}${plot}${gutter}`.trimEnd());
  }
  return lines;
}

export interface ForecastChartBody {
  symbol?: unknown;
  price?: unknown;
  predictions?: unknown;
  candles?: unknown;
}

export interface ForecastCharts {
  /** The charts, one per candle timeframe that could be drawn; empty when none could. */
  text: string;
  /** Why a timeframe was not drawn: for stderr. */
  problems: string[];
}

const CHART_HEIGHT = 10;

/** A chart per candle timeframe (15min, 1h): recent closes, the last price and that timeframe's target. */
export function renderForecastCharts(out: Output, body: ForecastChartBody): ForecastCharts {
  const problems: string[] = [];
  const blocks: string[] = [];
  const candles = isRecord(body.candles) ? body.candles : undefined;
  if (!candles) return { text: '', problems: ['the response has no candles to chart'] };
  const predictions = isRecord(body.predictions) ? body.predictions : {};
  const price = isRecord(body.price) ? body.price : {};

  for (const tf of CANDLE_TIMEFRAMES) {
    if (candles[tf] === undefined) {
      problems.push(`no ${tf} candles in the response`);
      continue;
    }
    const series = candleCloses(candles[tf]);
    if (typeof series === 'string') {
      problems.push(`the ${tf} candles were not charted: ${series}`);
      continue;
    }
    const last = toNumber(price.last) ?? series.closes[series.closes.length - 1]!;
    const forecast = isRecord(predictions[tf]) ? predictions[tf] : {};
    const target = toNumber(forecast.target_price);
    const horizon = toNumber(forecast.horizon_min);
    const tfMinutes = timeframeMinutes(tf);
    const paintTarget = target === undefined ? undefined : target >= last ? out.c.green : out.c.red;

    const marks: ChartMark[] = [{ label: 'last', value: last, paint: out.c.yellow }];
    if (target !== undefined) marks.push({ label: `${tf} target`, value: target, paint: paintTarget });
    const projection =
      target !== undefined && horizon !== undefined && tfMinutes
        ? { value: target, stepsAhead: horizon / tfMinutes, paint: paintTarget }
        : undefined;

    const title = [`${out.c.bold(`${tf} closes`)} (${series.closes.length} candles)`, `last ${formatPrice(last)}`];
    if (target !== undefined) {
      const move = last ? ((target - last) / last) * 100 : undefined;
      const when = toNumber(forecast.target_t);
      title.push(
        `${tf} target ${(paintTarget ?? String)(`${formatPrice(target)} (${formatPercent(move)})`)}${when !== undefined ? ` by ${formatUtc(when)}` : ''}`,
      );
    } else {
      title.push(`no ${tf} target`);
    }
    const lines = renderLineChart(series.closes, { width: out.columns, height: CHART_HEIGHT, marks, projection });
    if (series.times) lines.push(timeAxis(series.times, lines, out.c.dim));
    blocks.push([title.join(' · '), ...lines].join('\n'));
  }
  return { text: blocks.join('\n\n'), problems };
}

/** The first and last candle's times under the plot's two ends. */
function timeAxis(times: number[], plotLines: string[], dim: (s: string) => string): string {
  const first = formatUtc(times[0]);
  const last = formatUtc(times[times.length - 1]);
  const axisAt = (plotLines[0] ?? '').indexOf('┤') + 1;
  return dim(`${' '.repeat(Math.max(0, axisAt))}${first}  →  ${last}`);
}

/** One line per candle timeframe for `--candles` without a chart: count, time span, last close. */
export function summarizeCandles(body: ForecastChartBody): { lines: string[]; problems: string[] } {
  const candles = isRecord(body.candles) ? body.candles : undefined;
  if (!candles) return { lines: [], problems: ['the response has no candles'] };
  const lines: string[] = [];
  const problems: string[] = [];
  for (const [tf, list] of Object.entries(candles)) {
    const series = candleCloses(list);
    if (typeof series === 'string') {
      problems.push(`the ${tf} candles could not be read: ${series}`);
      continue;
    }
    const span = series.times
      ? `, ${formatUtc(series.times[0])} to ${formatUtc(series.times[series.times.length - 1])}`
      : '';
    lines.push(
      `Candles ${tf}: ${series.closes.length}${span}, last close ${formatPrice(series.closes[series.closes.length - 1])}`,
    );
  }
  return { lines, problems };
}
