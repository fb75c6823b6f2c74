// `snapshot` and `search`: one row per symbol, as the REST symbol tables show them.
import { z } from 'zod';
import { marketStatePaint, signalPaint } from '../paint.js';
import { renderTable, type Cell } from '../table.js';
import type { Output } from '../io.js';
import { changeCell, heading, otherFields, priceText, readAs, right, sections, symbolText, when } from './shared.js';
import type { GatewayView, ViewContext } from './shared.js';

const text = z.string();
const optionalText = text.nullish();

/** The fields of a symbol both commands send. */
const SymbolRow = z
  .object({
    symbol: text,
    display: optionalText,
    name: optionalText,
    asset_class: optionalText,
    market_state: optionalText,
  })
  .passthrough();

const SnapshotData = z
  .object({
    as_of: optionalText,
    count: z.number().nullish(),
    symbols: z.array(SymbolRow.extend({ last: z.number().nullish(), change24h_pct: z.number().nullish() })),
  })
  .passthrough();

/** open green, closed dim: whether a market trades now matters before its price does. */
const stateCell = (out: Output, state: string | null | undefined): Cell => ({
  text: state ?? '',
  paint: marketStatePaint(out, state),
});

export const snapshotView: GatewayView = (raw, ctx) => {
  const data = readAs(SnapshotData, raw);
  if (!data) return undefined;
  const { out } = ctx;
  const table = renderTable(
    out,
    [
      { header: 'Symbol', identity: true },
      { header: 'Name', priority: 2, maxWidth: 20 },
      { header: 'Class', priority: 3 },
      { header: 'Market' },
      right('Last'),
      right('24h'),
    ],
    data.symbols.map((s): Cell[] => [
      symbolText(s.symbol, s.display),
      s.name ?? '',
      s.asset_class ?? '',
      stateCell(out, s.market_state),
      priceText(s.last),
      changeCell(out, s.change24h_pct),
    ]),
  );
  const count = `${data.symbols.length} symbol${data.symbols.length === 1 ? '' : 's'}`;
  return sections(
    heading(ctx, 'Market snapshot', count, data.as_of ? `as of ${when(ctx, data.as_of)}` : undefined),
    table,
    otherFields(ctx, data, ['as_of', 'count', 'symbols']),
  );
};

const SearchData = z
  .object({
    query: optionalText,
    asset_class: optionalText,
    count: z.number().nullish(),
    matches: z.array(SymbolRow.extend({ status: optionalText, forecast_timeframes: z.array(text).nullish() })),
  })
  .passthrough();

/** `1min … 6h (22)`: the range of timeframes, not all 22 of them. */
function timeframeSpan(tfs: readonly string[] | null | undefined): string {
  if (!tfs || tfs.length === 0) return '';
  if (tfs.length <= 3) return tfs.join(', ');
  return `${tfs[0]} … ${tfs[tfs.length - 1]} (${tfs.length})`;
}

export const searchView: GatewayView = (raw, ctx: ViewContext) => {
  const data = readAs(SearchData, raw);
  if (!data) return undefined;
  const { out } = ctx;
  const n = data.matches.length;
  const title = heading(
    ctx,
    `Search ${JSON.stringify(data.query ?? '')}`,
    data.asset_class ? `class ${data.asset_class}` : undefined,
    `${n} match${n === 1 ? '' : 'es'}`,
  );
  const table =
    n === 0
      ? 'No symbol matches.'
      : renderTable(
          out,
          [
            { header: 'Symbol', identity: true },
            { header: 'Name', priority: 2, maxWidth: 20 },
            { header: 'Class', priority: 3 },
            { header: 'Market' },
            { header: 'Status', priority: 1 },
            { header: 'Forecast timeframes', priority: 4 },
          ],
          data.matches.map((m): Cell[] => [
            symbolText(m.symbol, m.display),
            m.name ?? '',
            m.asset_class ?? '',
            stateCell(out, m.market_state),
            { text: m.status ?? '', paint: signalPaint(out, m.status) },
            timeframeSpan(m.forecast_timeframes),
          ]),
        );
  return sections(title, table, otherFields(ctx, data, ['query', 'asset_class', 'count', 'matches']));
};
