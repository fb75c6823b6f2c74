// The forecast table of `demo` and `predict`, built to answer "what, how sure, when" at a
// glance: a header with the price, then one row per timeframe in horizon order, the open
// forecasts first and the settled ones apart below them, and the attribution footer.
// Every probability is a percentage; a mark flags rows where ia3's direction and the move
// to the target price disagree. The columns that repeat another (ia2 Δ) or need the API's
// documentation to read (ia1) show on a terminal only with --wide.
import { ACCURACY_TIMEFRAMES } from '../core/domain.js';
import type { ForecastEnvelope } from '../schema/bodies.js';
import { serverNow, withAttribution } from './attribution.js';
import type { Output } from './io.js';
import {
  DASH,
  formatAge,
  formatDuration,
  formatMinutes,
  formatPercent,
  formatPrice,
  formatRate,
  formatSigned,
  roundsToZero,
  formatTimeWithAge,
} from './format.js';
import { changePaint, signalPaint } from './paint.js';
import { clean } from './sanitize.js';
import { flowLine, renderTable, wrapText, type Cell, type Column } from './table.js';
import { asRecord, finiteNumber } from '../core/values.js';

type Row = Record<string, unknown>;
const obj = asRecord;
const num = finiteNumber;

/** Shown after a direction where it disagrees with the target move; explained by the legend. */
export const DISAGREES = '≠';

/** Shown after a timeframe the public track record covers (accuracy.php's); explained by the legend. */
export const TRACKED = '*';
export const TRACKED_LEGEND = `${TRACKED} the track record covers this timeframe: 'fcast accuracy --tf TF'`;
export const isTracked = (tf: string): boolean => (ACCURACY_TIMEFRAMES as readonly string[]).includes(tf);

/**
 * What changed since the previous refresh of a watch, shown for one refresh: by timeframe, a
 * forecast not shown before or one whose direction flipped, and which way the price moved.
 */
export interface ForecastMarks {
  tfs: ReadonlyMap<string, 'new' | 'flipped'>;
  price?: 'up' | 'down';
}

/** The marks' glyphs, one terminal cell each; the watch's legend explains them. */
export const MARK = { new: '•', flipped: '⇄', up: '▲', down: '▼' } as const;

/** A mark in its colour, or a blank of the same width, so that a marked board does not shift. */
export function markCell(out: Output, mark: keyof typeof MARK | undefined): Cell {
  if (mark === undefined) return ' ';
  const paint = mark === 'up' ? out.c.green : mark === 'down' ? out.c.red : (s: string) => out.c.bold(out.c.cyan(s));
  return { text: MARK[mark], paint };
}

/** The column of marks a watched table starts with: no header, never dropped. */
export const MARK_COLUMN: Column = { header: '' };

// Priorities: the higher, the sooner a narrow terminal drops the column.
const COLUMNS: Column[] = [
  { header: 'TF', identity: true },
  { header: 'Dir', maxWidth: 9 },
  { header: 'Prob', align: 'right' },
  { header: 'Resolves', align: 'right' },
  { header: 'At (UTC)', priority: 3 },
  { header: 'Target', align: 'right', priority: 2 },
  { header: 'Move', align: 'right', priority: 1 },
  { header: 'Long', align: 'right', priority: 4 },
  { header: 'Short', align: 'right', priority: 4 },
  { header: 'Flat', align: 'right', priority: 6 },
  { header: 'Conf', align: 'right', priority: 5 },
  { header: 'Horizon', align: 'right', priority: 7 },
  { header: 'Age', align: 'right', priority: 7 },
  { header: 'Anchor', align: 'right', priority: 8 },
  { header: 'Status', wideOnly: true },
  { header: 'ia2 Δ', align: 'right', wideOnly: true },
  { header: 'ia1', align: 'right', wideOnly: true },
];

/** Forecast entries in horizon order (the keys' order is the server's, not necessarily that). */
export function forecastsByHorizon(body: Pick<ForecastEnvelope, 'predictions'>): Row[] {
  return Object.entries(obj(body.predictions))
    .map(([tf, f]): Row => ({ ...obj(f), tf }))
    .sort((a, b) => (num(a.horizon_min) ?? Infinity) - (num(b.horizon_min) ?? Infinity));
}

function expectedMovePct(f: Row): number | undefined {
  const anchor = num(f.anchor_price);
  const target = num(f.target_price);
  return anchor && target !== undefined ? ((target - anchor) / anchor) * 100 : undefined;
}

/** ia3's direction, its probability, and whether the move to the target says otherwise. */
export function directionOf(f: Row): { dir: string; prob: unknown; disagrees: boolean } {
  const ia3 = obj(f.ia3);
  const dir = typeof ia3.direction === 'string' ? ia3.direction : '?';
  const d = dir.toLowerCase();
  const prob = d === 'long' ? ia3.p_long : d === 'short' ? ia3.p_short : d === 'flat' ? ia3.p_flat : undefined;
  // A move that shows as 0.00% is no move: it can disagree with nothing.
  const exact = expectedMovePct(f);
  const move = exact === undefined || roundsToZero(exact, 2) ? 0 : exact;
  const disagrees = (d === 'long' && move < 0) || (d === 'short' && move > 0);
  return { dir, prob, disagrees };
}

/** A forecast still waiting for its target time (by its status, else by the clock). */
export function isOpen(f: Row, nowSeconds: number): boolean {
  if (f.status === 'open') return true;
  if (f.status === 'settled') return false;
  const target = num(f.target_t);
  return target === undefined || target > nowSeconds;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `14:05` on the day of `now` (UTC), else `Nov 23 14:05`: short enough for a column. */
function clockTime(epochSeconds: unknown, nowSeconds: number): string {
  const t = num(epochSeconds);
  if (t === undefined || Math.abs(t) > 8.64e12) return DASH;
  const d = new Date(t * 1000);
  const hm = d.toISOString().slice(11, 16);
  const sameDay = d.toISOString().slice(0, 10) === new Date(nowSeconds * 1000).toISOString().slice(0, 10);
  return sameDay ? hm : `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()} ${hm}`;
}

function renderForecastHeader(
  out: Output,
  body: ForecastEnvelope,
  nowSeconds: number,
  moved?: ForecastMarks['price'],
): string {
  const price = obj(body.price);
  const symbol = clean(body.symbol ?? '?');
  const parts: Array<[string, string]> = [[symbol, out.c.bold(symbol)]];
  if (num(price.last) !== undefined) {
    const arrow = markCell(out, moved);
    const last = formatPrice(price.last);
    parts.push(
      typeof arrow === 'string' ? [last, last] : [`${last} ${arrow.text}`, `${last} ${arrow.paint!(arrow.text)}`],
    );
    const change = num(price.change24h_pct);
    if (change !== undefined) {
      const text = `${formatPercent(change)} 24h`;
      parts.push([text, (changePaint(out, change) ?? String)(text)]);
    }
    const at = `at ${formatTimeWithAge(price.t, nowSeconds)}`;
    parts.push([at, at]);
    if (typeof price.source === 'string') {
      const source = `· ${clean(price.source)}`;
      parts.push([source, out.c.dim(source)]);
    }
  } else {
    parts.push(['no price', out.c.dim('no price')]);
  }
  return flowLine(out, parts);
}

function forecastRow(out: Output, f: Row, nowSeconds: number, mark?: 'new' | 'flipped'): Cell[] {
  const ia1 = obj(f.ia1);
  const ia2 = obj(f.ia2);
  const ia3 = obj(f.ia3);
  const status = typeof f.status === 'string' ? f.status : '';
  const { dir, prob, disagrees } = directionOf(f);
  const move = expectedMovePct(f);
  const open = isOpen(f, nowSeconds);
  const dim = open ? undefined : out.c.dim;
  const dirPaint = signalPaint(out, dir) ?? out.c.yellow;
  const tf = String(f.tf);
  return [
    isTracked(tf) ? `${tf} ${TRACKED}` : tf,
    {
      text: disagrees ? `${dir} ${DISAGREES}` : dir,
      // A flipped direction stands out for the one refresh it is marked.
      paint: mark === 'flipped' ? (s: string) => out.c.inverse(dirPaint(s)) : dirPaint,
    },
    formatRate(prob, 0),
    { text: formatAge(f.target_t, nowSeconds), paint: dim },
    { text: clockTime(f.target_t, nowSeconds), paint: dim },
    formatPrice(f.target_price),
    { text: formatPercent(move), paint: changePaint(out, move) },
    formatRate(ia3.p_long, 0),
    formatRate(ia3.p_short, 0),
    formatRate(ia3.p_flat, 0),
    formatRate(ia2.confidence, 0),
    formatMinutes(f.horizon_min),
    formatDuration(f.age_s),
    formatPrice(f.anchor_price),
    { text: status, paint: open ? undefined : out.c.dim },
    formatPercent(ia2.predicted_change_pct),
    formatSigned(ia1.score, 2),
  ];
}

/**
 * The rows of the timeframes asked for (all when `tfs` is undefined), open first, then settled;
 * with `marks` (a watch), each row starts with its mark.
 */
function renderForecastRows(
  out: Output,
  body: ForecastEnvelope,
  nowSeconds: number,
  tfs?: string[],
  marks?: ForecastMarks,
): string {
  const wanted = (f: Row) => tfs === undefined || tfs.includes(String(f.tf).toLowerCase());
  const all = forecastsByHorizon(body).filter(wanted);
  const open = all.filter((f) => isOpen(f, nowSeconds));
  const settled = all.filter((f) => !isOpen(f, nowSeconds));
  if (all.length === 0) return out.c.dim('(no forecasts in this response)');
  const row = (f: Row): Cell[] => {
    if (marks === undefined) return forecastRow(out, f, nowSeconds);
    const mark = marks.tfs.get(String(f.tf));
    return [markCell(out, mark), ...forecastRow(out, f, nowSeconds, mark)];
  };
  // One table for both groups, so that their columns line up; the settled ones get a heading.
  const lines = renderTable(
    out,
    marks === undefined ? COLUMNS : [MARK_COLUMN, ...COLUMNS],
    [...open, ...settled].map(row),
  ).split('\n');
  if (settled.length > 0) {
    const heading = out.c.dim(`settled (target time passed): ${settled.length}`);
    lines.splice(1 + open.length, 0, ...(open.length > 0 ? ['', heading] : [heading]));
  }
  if (all.some((f) => directionOf(f).disagrees)) {
    lines.push(out.c.dim(wrapText(out, `${DISAGREES} ia3's direction and the move to the target price disagree`)));
  }
  if (all.some((f) => isTracked(String(f.tf)))) lines.push(out.c.dim(wrapText(out, TRACKED_LEGEND)));
  return lines.join('\n');
}

/** One symbol's header and table, without the attribution (several symbols share one footer). */
export function renderForecastSection(
  out: Output,
  body: ForecastEnvelope,
  nowSeconds: number,
  opts: { tfs?: string[]; sections?: string[]; marks?: ForecastMarks } = {},
): string {
  const now = serverNow(body.meta, nowSeconds);
  return [
    renderForecastHeader(out, body, now, opts.marks?.price),
    renderForecastRows(out, body, now, opts.tfs, opts.marks),
    ...(opts.sections ?? []),
  ]
    .filter((p) => p !== '')
    .join('\n\n');
}

/** Header, rows, any further sections (predict's candles or charts), then the attribution. */
export function renderForecast(
  out: Output,
  body: ForecastEnvelope,
  nowSeconds: number,
  opts: { tfs?: string[]; sections?: string[]; marks?: ForecastMarks } = {},
): string {
  return withAttribution(out, renderForecastSection(out, body, nowSeconds, opts), body.meta);
}
