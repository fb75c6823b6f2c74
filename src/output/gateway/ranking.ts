// `opportunities` and `macro`: ranked and grouped lists of instruments.
import { z } from 'zod';
import { columnDecimals } from '../format.js';
import { changePaint, signalPaint } from '../paint.js';
import { clean } from '../sanitize.js';
import { renderTable, type Cell } from '../table.js';
import type { Output } from '../io.js';
import {
  changeCell,
  fixedColumn,
  heading,
  otherFields,
  percent01,
  priceText,
  readAs,
  right,
  sections,
  symbolText,
  when,
} from './shared.js';
import type { GatewayView } from './shared.js';

const optionalText = z.string().nullish();
const optionalNumber = z.number().nullish();

const OpportunitiesData = z
  .object({
    generated_at: optionalText,
    count: optionalNumber,
    items: z.array(
      z
        .object({
          rank: optionalNumber,
          symbol: z.string(),
          timeframe: optionalText,
          direction: optionalText,
          score: optionalNumber,
          confidence: optionalNumber,
        })
        .passthrough(),
    ),
  })
  .passthrough();

export const opportunitiesView: GatewayView = (raw, ctx) => {
  const data = readAs(OpportunitiesData, raw);
  if (!data) return undefined;
  const { out } = ctx;
  const scores = fixedColumn(
    data.items.map((i) => i.score),
    1,
    2,
  );
  const table =
    data.items.length === 0
      ? 'No opportunities.'
      : renderTable(
          out,
          [
            right('#'),
            { header: 'Symbol', identity: true },
            { header: 'TF', identity: true },
            { header: 'Direction' },
            right('Score'),
            right('Confidence'),
          ],
          data.items.map((item, i): Cell[] => [
            item.rank == null ? '' : String(item.rank),
            symbolText(item.symbol),
            item.timeframe ?? '',
            { text: item.direction ?? '', paint: signalPaint(out, item.direction) },
            scores[i]!,
            percent01(item.confidence),
          ]),
        );
  const n = data.items.length;
  return sections(
    heading(
      ctx,
      'Opportunities',
      `${n} ranked`,
      data.generated_at ? `generated ${when(ctx, data.generated_at)}` : undefined,
    ),
    table,
    otherFields(ctx, data, ['generated_at', 'count', 'items']),
  );
};

const Quote = z.object({ symbol: z.string(), last: optionalNumber, change_pct: optionalNumber }).passthrough();
const Rate = z.object({ name: z.string(), value: optionalNumber, change_bp: optionalNumber }).passthrough();

const MacroData = z
  .object({
    as_of: optionalText,
    rates: z.array(Rate).nullish(),
    indices: z.array(Quote).nullish(),
    fx: z.array(Quote).nullish(),
    commodities: z.array(Quote).nullish(),
    regime: optionalText,
  })
  .passthrough();

function quoteTable(out: Output, title: string, quotes: ReadonlyArray<z.infer<typeof Quote>>): string[] {
  return [
    out.c.bold(title),
    renderTable(
      out,
      [{ header: 'Symbol', identity: true }, right('Last'), right('Change')],
      quotes.map((q): Cell[] => [symbolText(q.symbol), priceText(q.last), changeCell(out, q.change_pct)]),
    ),
  ];
}

function ratesTable(out: Output, rates: ReadonlyArray<z.infer<typeof Rate>>): string[] {
  const values = fixedColumn(
    rates.map((r) => r.value),
    2,
    4,
  );
  const changes = fixedColumn(
    rates.map((r) => r.change_bp),
    1,
    2,
    true,
  );
  const changeDecimals = columnDecimals(
    rates.map((r) => r.change_bp),
    1,
    2,
  );
  return [
    out.c.bold('Rates'),
    renderTable(
      out,
      [{ header: 'Name' }, right('Value'), right('Change (bp)')],
      rates.map((r, i): Cell[] => [
        r.name,
        values[i]!,
        // The colour follows the figure shown: a change that shows as 0.0 is not painted as one.
        { text: changes[i]!, paint: changePaint(out, r.change_bp, changeDecimals) },
      ]),
    ),
  ];
}

export const macroView: GatewayView = (raw, ctx) => {
  const data = readAs(MacroData, raw);
  if (!data || !(data.rates || data.indices || data.fx || data.commodities)) return undefined;
  const { out } = ctx;
  const regime = data.regime
    ? `${out.c.dim('Regime')}  ${(signalPaint(out, data.regime) ?? String)(clean(data.regime).replace(/_/g, ' '))}`
    : undefined;
  return sections(
    heading(ctx, 'Macro snapshot', data.as_of ? `as of ${when(ctx, data.as_of)}` : undefined),
    regime,
    data.rates ? ratesTable(out, data.rates) : undefined,
    data.indices ? quoteTable(out, 'Indices', data.indices) : undefined,
    data.fx ? quoteTable(out, 'FX', data.fx) : undefined,
    data.commodities ? quoteTable(out, 'Commodities', data.commodities) : undefined,
    otherFields(ctx, data, ['as_of', 'rates', 'indices', 'fx', 'commodities', 'regime']),
  );
};
