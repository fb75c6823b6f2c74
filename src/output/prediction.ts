// The output of `predict` for one symbol: the forecast table of `demo`, then, when asked,
// the candles (summarised, or charted), and the attribution footer last, as the licence asks.
import type { ForecastEnvelope } from '../api/schemas.js';
import { attributionFooter } from './attribution.js';
import { renderForecastCharts, summarizeCandles } from './chart.js';
import { renderForecastHeader, renderForecastRows } from './forecast-table.js';
import type { Output } from './io.js';

export interface PredictionView {
  text: string;
  /** What could not be shown (an unknown candle shape): notes for stderr. */
  problems: string[];
}

export function renderPrediction(out: Output, body: ForecastEnvelope, nowSeconds: number, opts: { candles?: boolean; chart?: boolean }): PredictionView {
  const meta = body.meta as { server_t?: unknown } | undefined;
  const now = typeof meta?.server_t === 'number' ? meta.server_t : nowSeconds;
  const parts = [renderForecastHeader(out, body, now), '', renderForecastRows(out, body)];
  let problems: string[] = [];
  if (opts.chart) {
    const charts = renderForecastCharts(out, body);
    if (charts.text) parts.push('', charts.text);
    problems = charts.problems;
  } else if (opts.candles) {
    const summary = summarizeCandles(body);
    if (summary.lines.length) parts.push('', ...summary.lines);
    problems = summary.problems;
  }
  parts.push('', attributionFooter(out, body.meta));
  return { text: parts.join('\n'), problems };
}
