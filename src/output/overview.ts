// The first thing `predict` shows for several symbols: one row per symbol with its price,
// its 24 h change, the direction and probability of a few headline timeframes, and which
// forecast resolves next, so a watchlist reads in one glance before any detail table.
import type { ForecastEnvelope } from '../schema/bodies.js';
import { serverNow } from './attribution.js';
import {
  directionOf,
  DISAGREES,
  isTracked,
  type ForecastMarks,
  forecastsByHorizon,
  isOpen,
  MARK_COLUMN,
  markCell,
} from './forecast-table.js';
import { DASH, formatAge, formatPercent, formatPrice, formatRate } from './format.js';
import type { Output } from './io.js';
import { changePaint, signalPaint } from './paint.js';
import { renderTable, wrapText, type Cell, type Column } from './table.js';
import { asRecord, finiteNumber } from '../core/values.js';

/** Headline timeframes when none are asked for: a short, a middle and a long horizon. */
const DEFAULT_HEADLINE = ['15min', '1h', '6h'];
const MAX_HEADLINE = 4;

type Entry = { symbol: string; body: ForecastEnvelope };

/** The timeframes to show: those asked for, else the defaults any body has, else the first few present. */
function headlineTimeframes(entries: Entry[], asked?: string[]): string[] {
  if (asked && asked.length > 0) return asked.slice(0, MAX_HEADLINE);
  const present: string[] = [];
  for (const { body } of entries)
    for (const f of forecastsByHorizon(body)) if (!present.includes(String(f.tf))) present.push(String(f.tf));
  const defaults = DEFAULT_HEADLINE.filter((tf) => present.includes(tf));
  return defaults.length > 0 ? defaults : present.slice(0, DEFAULT_HEADLINE.length);
}

function directionCell(out: Output, f: Record<string, unknown> | undefined): Cell {
  if (!f) return DASH;
  const { dir, prob, disagrees } = directionOf(f);
  return { text: `${dir} ${formatRate(prob, 0)}${disagrees ? ` ${DISAGREES}` : ''}`, paint: signalPaint(out, dir) };
}

/** A watched overview's marks of one symbol: a headline forecast flipped or new, then the price's move. */
function overviewMarks(out: Output, headline: string[], marks: ForecastMarks | undefined): Cell {
  const changes = headline.map((tf) => marks?.tfs.get(tf));
  const forecast = changes.includes('flipped') ? 'flipped' : changes.includes('new') ? 'new' : undefined;
  const [a, b] = [markCell(out, forecast), markCell(out, marks?.price)];
  const text = (c: Cell) => (typeof c === 'string' ? c : c.text);
  const paint = (c: Cell) => (typeof c === 'string' ? c : c.paint!(c.text));
  return { text: text(a) + text(b), paint: () => paint(a) + paint(b) };
}

/**
 * One row per symbol. With `marks` (a watch, by the symbol asked for), each row starts with
 * what changed since the previous refresh.
 */
export function renderOverview(
  out: Output,
  entries: Entry[],
  nowSeconds: number,
  asked?: string[],
  marks?: ReadonlyMap<string, ForecastMarks>,
): string {
  const headline = headlineTimeframes(entries, asked);
  const columns: Column[] = [
    ...(marks ? [MARK_COLUMN] : []),
    { header: 'Symbol', identity: true },
    { header: 'Price', align: 'right' },
    // A narrow terminal drops the third headline timeframe first, then the 24h change.
    { header: '24h', align: 'right', priority: 5 },
    ...headline.map((tf, i): Column => ({ header: tf, priority: i === 0 ? 0 : 2 + 2 * i, maxWidth: 14 })),
    { header: 'Next', priority: 3, maxWidth: 22 },
  ];
  let disagreement = false;
  const rows = entries.map(({ symbol, body }): Cell[] => {
    const now = serverNow(body.meta, nowSeconds);
    const price = asRecord(body.price);
    const forecasts = forecastsByHorizon(body);
    const byTf = (tf: string) => forecasts.find((f) => String(f.tf).toLowerCase() === tf.toLowerCase());
    // With --tf, the next of the timeframes asked for.
    const next = forecasts
      .filter((f) => !asked?.length || asked.includes(String(f.tf).toLowerCase()))
      .filter((f) => isOpen(f, now) && finiteNumber(f.target_t) !== undefined)
      .sort((a, b) => (a.target_t as number) - (b.target_t as number))[0];
    disagreement ||= headline.some((tf) => {
      const f = byTf(tf);
      return f !== undefined && directionOf(f).disagrees;
    });
    return [
      ...(marks ? [overviewMarks(out, headline, marks.get(symbol))] : []),
      typeof body.symbol === 'string' ? body.symbol : symbol,
      formatPrice(price.last),
      { text: formatPercent(price.change24h_pct), paint: changePaint(out, price.change24h_pct) },
      ...headline.map((tf) => directionCell(out, byTf(tf))),
      next ? `${String(next.tf)} ${formatAge(next.target_t, now)}` : DASH,
    ];
  });
  const lines = [renderTable(out, columns, rows)];
  const tracked = headline.filter(isTracked);
  const legend = [
    `direction and probability (ia3) per timeframe; Next: the first forecast${asked?.length ? ' of those timeframes' : ''} to resolve`,
    ...(disagreement ? [`${DISAGREES} the target price moves the other way`] : []),
    ...(tracked.length > 0 ? [`track record: ${tracked.join(', ')}`] : []),
  ].join('; ');
  lines.push(out.c.dim(wrapText(out, legend)));
  return lines.join('\n');
}
