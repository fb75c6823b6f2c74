// The output of `predict` for one symbol: the forecast table of `demo`, then, when asked,
// the candles (summarised, or charted), and the attribution footer last, as the licence asks.
import type { ForecastEnvelope } from '../api/schemas.js';
import { renderForecastCharts, summarizeCandles } from './chart.js';
import { renderForecast } from './forecast-table.js';
import type { Output } from './io.js';

export interface PredictionView {
  text: string;
  /** What could not be shown (an unknown candle shape): notes for stderr. */
  problems: string[];
}

export function renderPrediction(
  out: Output,
  body: ForecastEnvelope,
  nowSeconds: number,
  opts: { candles?: boolean; chart?: boolean },
): PredictionView {
  if (opts.chart) {
    const charts = renderForecastCharts(out, body);
    return { text: renderForecast(out, body, nowSeconds, [charts.text]), problems: charts.problems };
  }
  if (opts.candles) {
    const summary = summarizeCandles(body);
    return { text: renderForecast(out, body, nowSeconds, [summary.lines.join('\n')]), problems: summary.problems };
  }
  return { text: renderForecast(out, body, nowSeconds), problems: [] };
}
