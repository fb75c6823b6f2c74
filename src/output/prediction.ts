// The output of `predict`: for one symbol, the forecast table of `demo`, then, when asked,
// the candles (summarised, or charted); for several, an overview with one row per symbol
// first and the detail tables after it when asked. The attribution footer comes once, last,
// as the licence asks.
import type { CandleReading, ForecastEnvelope } from '../schema/bodies.js';
import { withAttribution } from './attribution.js';
import { renderForecastCharts, summarizeCandles } from './chart.js';
import { type ForecastMarks, renderForecastSection } from './forecast-table.js';
import type { Output } from './io.js';
import { renderOverview } from './overview.js';
import { wrapText } from './table.js';

interface PredictionOptions {
  candles?: boolean;
  chart?: boolean;
  /** Only these timeframes (lower case); all when undefined. */
  tfs?: string[];
  /** A watch: what changed since the previous refresh, by the symbol asked for. */
  marks?: ReadonlyMap<string, ForecastMarks>;
}

interface PredictionView {
  text: string;
  /** What could not be shown (an unknown candle shape): notes for stderr. */
  problems: string[];
}

/** A symbol's answer, with its candles as the command read them (api/candles.ts) when it asked for them. */
interface Answer {
  symbol: string;
  body: ForecastEnvelope;
  candles?: CandleReading;
}

const NO_CANDLES: CandleReading = { series: [], problems: [], why: 'the response has no candles' };

/** The chart, or the candles' summary, when asked. */
function candleSection(out: Output, answer: Answer, opts: PredictionOptions): PredictionView {
  const candles = answer.candles ?? NO_CANDLES;
  if (opts.chart) return renderForecastCharts(out, answer.body, candles, opts.tfs);
  if (!opts.candles) return { text: '', problems: [] };
  const summary = summarizeCandles(candles);
  return { text: summary.lines.map((l) => wrapText(out, l)).join('\n'), problems: summary.problems };
}

/** One symbol's section: header, table, candles or chart; no attribution footer. */
function renderPrediction(out: Output, answer: Answer, nowSeconds: number, opts: PredictionOptions): PredictionView {
  const { symbol, body } = answer;
  const extra = candleSection(out, answer, opts);
  const text = renderForecastSection(out, body, nowSeconds, {
    tfs: opts.tfs,
    sections: [extra.text],
    marks: opts.marks && (opts.marks.get(symbol) ?? { tfs: new Map() }),
  });
  return { text, problems: extra.problems };
}

/**
 * The whole table output of `predict`: one symbol's section, or for several the overview and
 * (with `detail`) each symbol's section; then one attribution footer, from the first body.
 */
export function renderPredictions(
  out: Output,
  bodies: Answer[],
  nowSeconds: number,
  opts: PredictionOptions & { detail: boolean; several: boolean; headline?: string[] },
): PredictionView {
  const parts: string[] = [];
  const problems: string[] = [];
  if (opts.several) parts.push(renderOverview(out, bodies, nowSeconds, opts.headline, opts.marks));
  if (!opts.several || opts.detail) {
    for (const answer of bodies) {
      const view = renderPrediction(out, answer, nowSeconds, opts);
      parts.push(view.text);
      problems.push(...view.problems.map((p) => `${answer.symbol}: ${p}`));
    }
  }
  return { text: withAttribution(out, parts.join('\n\n'), bodies[0]?.body.meta), problems };
}
