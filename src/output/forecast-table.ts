// The forecast table of `demo` and `predict`: a header with the price, one row per timeframe
// in horizon order, and the attribution footer.
import type { ForecastEnvelope } from '../api/schemas.js';
import { serverNow, withAttribution } from './attribution.js';
import type { Output } from './io.js';
import {
  formatDuration,
  formatMinutes,
  formatPercent,
  formatPrice,
  formatRate,
  formatSigned,
  formatTimeWithAge,
  formatNumber,
} from './format.js';
import { changePaint, signalPaint } from './paint.js';
import { clean } from './sanitize.js';
import { renderTable, type Cell, type Column } from './table.js';
import { asRecord, finiteNumber } from '../values.js';

type Row = Record<string, unknown>;
const obj = asRecord;
const num = finiteNumber;

const COLUMNS: Column[] = [
  { header: 'TF' },
  { header: 'Horizon', align: 'right' },
  { header: 'Status' },
  { header: 'Age', align: 'right' },
  { header: 'Anchor', align: 'right' },
  { header: 'Target', align: 'right' },
  { header: 'Move', align: 'right' },
  { header: 'Dir' },
  { header: 'Long', align: 'right' },
  { header: 'Short', align: 'right' },
  { header: 'Flat', align: 'right' },
  { header: 'ia2 Δ', align: 'right' },
  { header: 'Conf', align: 'right' },
  { header: 'ia1', align: 'right' },
];

/** Forecast entries in horizon order (the keys' order is the server's, not necessarily that). */
function forecastsByHorizon(body: Pick<ForecastEnvelope, 'predictions'>): Row[] {
  return Object.entries(obj(body.predictions))
    .map(([tf, f]): Row => ({ tf, ...obj(f) }))
    .sort((a, b) => (num(a.horizon_min) ?? Infinity) - (num(b.horizon_min) ?? Infinity));
}

function expectedMovePct(f: Row): number | undefined {
  const anchor = num(f.anchor_price);
  const target = num(f.target_price);
  return anchor && target !== undefined ? ((target - anchor) / anchor) * 100 : undefined;
}

function renderForecastHeader(out: Output, body: ForecastEnvelope, nowSeconds: number): string {
  const price = obj(body.price);
  const parts = [out.c.bold(clean(body.symbol ?? '?'))];
  if (num(price.last) !== undefined) {
    parts.push(formatPrice(price.last));
    const change = num(price.change24h_pct);
    if (change !== undefined) parts.push((changePaint(out, change) ?? String)(`${formatPercent(change)} 24h`));
    parts.push(`at ${formatTimeWithAge(price.t, nowSeconds)}`);
    if (typeof price.source === 'string') parts.push(out.c.dim(`· ${clean(price.source)}`));
  } else {
    parts.push(out.c.dim('no price'));
  }
  return parts.join('  ');
}

function renderForecastRows(out: Output, body: ForecastEnvelope): string {
  const rows: Cell[][] = forecastsByHorizon(body).map((f) => {
    const ia1 = obj(f.ia1);
    const ia2 = obj(f.ia2);
    const ia3 = obj(f.ia3);
    const status = typeof f.status === 'string' ? f.status : '';
    const dir = typeof ia3.direction === 'string' ? ia3.direction : '?';
    const move = expectedMovePct(f);
    return [
      String(f.tf),
      formatMinutes(f.horizon_min),
      { text: status, paint: status === 'settled' ? out.c.dim : undefined },
      formatDuration(f.age_s),
      formatPrice(f.anchor_price),
      formatPrice(f.target_price),
      { text: formatPercent(move), paint: changePaint(out, move) },
      { text: dir, paint: signalPaint(out, dir) ?? out.c.yellow },
      formatRate(ia3.p_long, 0),
      formatRate(ia3.p_short, 0),
      formatRate(ia3.p_flat, 0),
      formatPercent(ia2.predicted_change_pct),
      formatNumber(ia2.confidence, 2),
      formatSigned(ia1.score, 2),
    ];
  });
  return renderTable(out, COLUMNS, rows);
}

/** Header, rows, any further sections (predict's candles or charts), then the attribution. */
export function renderForecast(
  out: Output,
  body: ForecastEnvelope,
  nowSeconds: number,
  sections: string[] = [],
): string {
  const now = serverNow(body.meta, nowSeconds);
  const parts = [renderForecastHeader(out, body, now), renderForecastRows(out, body), ...sections].filter(
    (p) => p !== '',
  );
  return withAttribution(out, parts.join('\n\n'), body.meta);
}
