// A text line chart of recent closes, drawn in braille (2×4 dots per character), with the
// forecast drawn on after the last close: a dotted line from the last close to the target
// price, as far to the right as the forecast's horizon reaches. The seed does not fix the
// shape of a candle, so the common ones are read and anything else is reported, not drawn.
import { CANDLE_TIMEFRAMES, timeframeMinutes } from '../core/domain.js';
import { formatAge, formatFixed, formatPercent, formatPrice, formatUtc } from './format.js';
import type { Output } from './io.js';
import { clean } from './sanitize.js';
import { packParts, withoutColour } from './table.js';
import { isRecord } from '../core/values.js';

function toNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

// The range a JavaScript Date can hold, in seconds: a time beyond it cannot be written.
const MAX_EPOCH_S = 8.64e12;
const asEpoch = (n: number | undefined) => (n !== undefined && Math.abs(n) <= MAX_EPOCH_S ? n : undefined);

/** Epoch seconds, whether given in seconds or milliseconds; undefined for a time no date can hold. */
function toEpochSeconds(v: unknown): number | undefined {
  const n = toNumber(v);
  if (n === undefined) return undefined;
  return asEpoch(n > 1e12 ? Math.floor(n / 1000) : n);
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

export interface ForecastChartBody {
  symbol?: unknown;
  price?: unknown;
  predictions?: unknown;
  candles?: unknown;
  meta?: unknown;
}

export interface ForecastCharts {
  /** The charts, one per candle timeframe that could be drawn; empty when none could. */
  text: string;
  /** Why a timeframe was not drawn: for stderr. */
  problems: string[];
}

const CHART_HEIGHT = 10;

/**
 * One number of decimals for a chart's labels and legend: enough to tell two labelled rows
 * apart (a tenth of a row's step), at least two as prices have, at most six.
 */
function chartDecimals(values: readonly number[], rows: number): number {
  const range = Math.max(...values) - Math.min(...values);
  if (!(range > 0)) return 2;
  return Math.min(6, Math.max(2, Math.ceil(-Math.log10(range / rows)) + 1));
}
/** Piped, the chart has no terminal to fit: this width reads well in a file or a pull request. */
const PIPED_WIDTH = 80;
const LAST_GLYPH = '●';
const TARGET_GLYPH = '◆';

/** The terminal's width on a TTY; piped, a fixed one. */
const chartWidth = (out: Output) => (out.tty ? out.columns : PIPED_WIDTH);

/** `11-21 22:00`, or `22:00` when the date is the one the previous label showed. */
function timeLabels(times: ReadonlyArray<{ step: number; t: number }>): AxisLabel[] {
  let shownDate = '';
  return times.map(({ step, t }) => {
    const iso = new Date(t * 1000).toISOString();
    const date = iso.slice(5, 10);
    const text = date === shownDate ? iso.slice(11, 16) : `${date} ${iso.slice(11, 16)}`;
    shownDate = date;
    return { step, text };
  });
}

/** Legend items joined two spaces apart, as many to a line as fit `width`. */
const packLegend = (items: readonly string[], width: number): string[] =>
  packParts(
    items.map((item): [string, string] => [withoutColour(item), item]),
    width,
    '  ',
  );

/** The first of the texts that fits the width (the last one otherwise). */
const longestFitting = (texts: readonly string[], width: number) =>
  texts.find((t) => [...t].length <= width) ?? texts[texts.length - 1]!;

/**
 * Which candle timeframes to chart: those asked for (`--tf`) in their order, else every one the
 * service sends candles for; an asked timeframe it sends none for is a problem to report.
 */
function chartedTimeframes(asked: readonly string[] | undefined, problems: string[]): string[] {
  if (asked === undefined) return [...CANDLE_TIMEFRAMES];
  const known = CANDLE_TIMEFRAMES as readonly string[];
  const charted = asked.map((tf) => tf.toLowerCase()).filter((tf, i, all) => all.indexOf(tf) === i);
  for (const tf of charted.filter((t) => !known.includes(t)))
    problems.push(`no ${tf} chart: candles come only in ${CANDLE_TIMEFRAMES.join(' and ')}`);
  return charted.filter((tf) => known.includes(tf));
}

/**
 * A chart per candle timeframe (15min, 1h, or those of `tfs` among them): recent closes, the
 * last price and that timeframe's target, with its move from the last price.
 */
export function renderForecastCharts(out: Output, body: ForecastChartBody, tfs?: readonly string[]): ForecastCharts {
  const problems: string[] = [];
  const blocks: string[] = [];
  const candles = isRecord(body.candles) ? body.candles : undefined;
  if (!candles) return { text: '', problems: ['the response has no candles to chart'] };
  const predictions = isRecord(body.predictions) ? body.predictions : {};
  const price = isRecord(body.price) ? body.price : {};
  const meta = isRecord(body.meta) ? body.meta : {};
  const nowSeconds = toNumber(meta.server_t);
  const width = chartWidth(out);
  // The symbol is the server's text: cleaned like every other string a view prints.
  const symbol = typeof body.symbol === 'string' ? `${clean(body.symbol)} · ` : '';

  for (const tf of chartedTimeframes(tfs, problems)) {
    if (candles[tf] === undefined) {
      problems.push(`no ${tf} candles in the response`);
      continue;
    }
    const series = candleCloses(candles[tf]);
    if (typeof series === 'string') {
      problems.push(`the ${tf} candles were not charted: ${series}`);
      continue;
    }
    const lastStep = series.closes.length - 1;
    const last = toNumber(price.last) ?? series.closes[lastStep]!;
    const forecast = isRecord(predictions[tf]) ? predictions[tf] : {};
    const target = toNumber(forecast.target_price);
    const horizon = toNumber(forecast.horizon_min);
    const targetT = asEpoch(toNumber(forecast.target_t));
    const tfMinutes = timeframeMinutes(tf);
    const paintTarget = target === undefined ? undefined : target >= last ? out.c.green : out.c.red;
    const stepsAhead = horizon !== undefined && tfMinutes ? horizon / tfMinutes : undefined;

    const decimals = chartDecimals([...series.closes, last, ...(target === undefined ? [] : [target])], CHART_HEIGHT);
    const priceText = (v: number) => formatFixed(v, decimals);
    const points: ChartPoint[] = [{ step: lastStep, value: last, glyph: LAST_GLYPH, paint: out.c.yellow }];
    const legend = [`${out.c.yellow(LAST_GLYPH)} last ${priceText(last)}`];
    let projection: LineChartOptions['projection'];
    if (target !== undefined) {
      // From the anchor price first, as the table's Move measures it, so that the two figures
      // beside each other agree at every width; from the last price (as drawn) where it fits.
      // Each figure says which it is; without an anchor (the table's Move is then empty), only
      // the move from the last price is given.
      const anchor = toNumber(forecast.anchor_price);
      const fromAnchor = anchor ? `${formatPercent(((target - anchor) / anchor) * 100)} from anchor` : undefined;
      const fromLast = last ? `${formatPercent(((target - last) / last) * 100)} from last` : undefined;
      const start = `${TARGET_GLYPH} ${tf} target ${priceText(target)} (${fromAnchor ?? fromLast ?? formatPercent(undefined)}`;
      const [head, short] = [`${start}${fromAnchor && fromLast ? `, ${fromLast}` : ''})`, `${start})`];
      const by = targetT === undefined ? '' : ` by ${formatUtc(targetT)}`;
      const age = targetT === undefined || nowSeconds === undefined ? '' : ` (${formatAge(targetT, nowSeconds)})`;
      const text = longestFitting(
        [`${head}${by}${age}`, `${head}${by}`, `${short}${by}${age}`, `${short}${by}`, head, short],
        width,
      );
      legend.push(`${(paintTarget ?? String)(TARGET_GLYPH)}${text.slice(TARGET_GLYPH.length)}`);
      if (stepsAhead !== undefined) {
        projection = { value: target, stepsAhead, paint: paintTarget };
        points.push({ step: lastStep + stepsAhead, value: target, glyph: TARGET_GLYPH, paint: paintTarget });
      }
    } else {
      legend.push(`no ${tf} target`);
    }
    legend.push(`${out.c.dim('⠉⠒')} closes`, ...(projection ? [`${out.c.dim('⠁⠂')} forecast`] : []), 'times UTC');

    const axisTimes: Array<{ step: number; t: number }> = [];
    if (series.times) {
      axisTimes.push({ step: 0, t: series.times[0]! }, { step: lastStep, t: series.times[lastStep]! });
      const end = targetT ?? (stepsAhead !== undefined ? series.times[lastStep]! + (horizon ?? 0) * 60 : undefined);
      if (projection && end !== undefined) axisTimes.push({ step: lastStep + projection.stepsAhead, t: end });
    }
    const title = `${out.c.bold(`${symbol}${tf}`)} · ${series.closes.length} candles${projection ? ` and the ${tf} forecast` : ''}`;
    const lines = renderLineChart(series.closes, {
      width,
      height: CHART_HEIGHT,
      points,
      projection,
      axisLabels: timeLabels(axisTimes),
      formatValue: priceText,
    });
    blocks.push([title, ...lines, ...packLegend(legend, width)].join('\n'));
  }
  return { text: blocks.join('\n\n'), problems };
}

/** One line per candle timeframe for `--candles` without a chart: count, time span, last close. */
export function summarizeCandles(body: ForecastChartBody): { lines: string[]; problems: string[] } {
  const candles = isRecord(body.candles) ? body.candles : undefined;
  if (!candles) return { lines: [], problems: ['the response has no candles'] };
  const lines: string[] = [];
  const problems: string[] = [];
  for (const [key, list] of Object.entries(candles)) {
    // The timeframe names here are the server's keys: cleaned before they are printed.
    const tf = clean(key);
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
