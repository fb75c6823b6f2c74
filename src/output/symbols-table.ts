// The table of `symbols`: one row per symbol, how many forecast timeframes it carries, and
// when its newest forecast was made (UTC, with its age), then the attribution footer.
import type { SymbolsList } from '../schema/bodies.js';
import { serverNow, withAttribution } from './attribution.js';
import { DASH, formatAge, formatUtc } from './format.js';
import type { Output } from './io.js';
import { renderTable } from './table.js';
import { isRecord } from '../core/values.js';

/** The newest forecast time among a symbol's timeframes, or undefined when it has none. */
function newestForecast(timeframes: unknown): number | undefined {
  if (!isRecord(timeframes)) return undefined;
  const times = Object.values(timeframes).filter((t): t is number => typeof t === 'number' && Number.isFinite(t));
  return times.length ? Math.max(...times) : undefined;
}

export function renderSymbols(out: Output, body: SymbolsList, nowSeconds: number): string {
  const now = serverNow(body.meta, nowSeconds);
  const entries = Array.isArray(body.symbols) ? body.symbols.filter(isRecord) : [];
  const rows = entries.map((s) => {
    const newest = newestForecast(s.timeframes);
    const count = isRecord(s.timeframes) ? Object.keys(s.timeframes).length : undefined;
    return [
      String(s.symbol ?? DASH),
      count === undefined ? DASH : String(count),
      formatUtc(newest),
      formatAge(newest, now),
    ];
  });
  const table = renderTable(
    out,
    [
      { header: 'Symbol', identity: true },
      { header: 'Timeframes', align: 'right', priority: 1 },
      { header: 'Newest forecast', priority: 2 },
      { header: 'Age', align: 'right' },
    ],
    rows,
  );
  const count = `${entries.length} symbol${entries.length === 1 ? '' : 's'}`;
  return withAttribution(out, `${table}\n\n${out.c.dim(count)}`, body.meta);
}
