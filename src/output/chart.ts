// A text line chart of recent closes, drawn in braille (2×4 dots per character), with the
// forecast drawn on after the last close: a dotted line from the last close to the target
// price, as far to the right as the forecast's horizon reaches. The candles come read through
// the schema (api/candles.ts); a timeframe that could not be read is reported, not drawn.
// The braille canvas and the line chart are line-chart.ts.
import { CANDLE_TIMEFRAMES, timeframeMinutes } from '../core/domain.js';
import { formatAge, formatFixed, formatPercent, formatPrice, formatUtc } from './format.js';
import type { Output } from './io.js';
import { clean } from './sanitize.js';
import { type AxisLabel, type ChartPoint, type LineChartOptions, renderLineChart } from './line-chart.js';
import { packParts, withoutColour } from './table.js';
import { isRecord } from '../core/values.js';
import type { CandleReading } from '../schema/bodies.js';

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

/** A timeframe's closes and their open times, oldest first; why not when there are fewer than two to draw. */
function closesOf(reading: CandleReading, tf: string): { closes: number[]; times: number[] } | string | undefined {
  const problem = reading.problems.find((p) => p.tf === tf);
  if (problem) return problem.why;
  const series = reading.series.find((s) => s.tf === tf);
  if (!series) return undefined;
  if (series.candles.length < 2) return 'fewer than 2 candles';
  return { closes: series.candles.map((c) => c.c), times: series.candles.map((c) => c.t) };
}

export interface ForecastChartBody {
  symbol?: unknown;
  price?: unknown;
  predictions?: unknown;
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
export function renderForecastCharts(
  out: Output,
  body: ForecastChartBody,
  candles: CandleReading,
  tfs?: readonly string[],
): ForecastCharts {
  const problems: string[] = [];
  const blocks: string[] = [];
  if (candles.why !== undefined) return { text: '', problems: ['the response has no candles to chart'] };
  const predictions = isRecord(body.predictions) ? body.predictions : {};
  const price = isRecord(body.price) ? body.price : {};
  const meta = isRecord(body.meta) ? body.meta : {};
  const nowSeconds = toNumber(meta.server_t);
  const width = chartWidth(out);
  // The symbol is the server's text: cleaned like every other string a view prints.
  const symbol = typeof body.symbol === 'string' ? `${clean(body.symbol)} · ` : '';

  for (const tf of chartedTimeframes(tfs, problems)) {
    const series = closesOf(candles, tf);
    if (series === undefined) {
      problems.push(`no ${tf} candles in the response`);
      continue;
    }
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
    axisTimes.push({ step: 0, t: series.times[0]! }, { step: lastStep, t: series.times[lastStep]! });
    const end = targetT ?? (stepsAhead !== undefined ? series.times[lastStep]! + (horizon ?? 0) * 60 : undefined);
    if (projection && end !== undefined) axisTimes.push({ step: lastStep + projection.stepsAhead, t: end });
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
export function summarizeCandles(candles: CandleReading): { lines: string[]; problems: string[] } {
  if (candles.why !== undefined) return { lines: [], problems: ['the response has no candles'] };
  const lines: string[] = [];
  const problems: string[] = [];
  for (const tf of CANDLE_TIMEFRAMES) {
    const series = closesOf(candles, tf);
    if (series === undefined) continue;
    if (typeof series === 'string') {
      problems.push(`the ${tf} candles could not be read: ${series}`);
      continue;
    }
    const { closes, times } = series;
    const span = `, ${formatUtc(times[0])} to ${formatUtc(times[times.length - 1])}`;
    lines.push(`Candles ${tf}: ${closes.length}${span}, last close ${formatPrice(closes[closes.length - 1])}`);
  }
  return { lines, problems };
}
