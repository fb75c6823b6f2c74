// `indicators` and `analyze`: one symbol on one timeframe. The indicator names are the
// gateway's own (`rsi_14`, `bollinger_20_2`), written as people write them: RSI(14).
import { z } from 'zod';
import { DASH, decimalsOf, formatFixed } from '../format.js';
import type { Output } from '../io.js';
import { signalPaint } from '../paint.js';
import { clean } from '../sanitize.js';
import { renderTable, textWidth, wrapIndented, type Cell } from '../table.js';
import { finiteNumber, isRecord } from '../../core/values.js';
import { heading, otherFields, percent01, readAs, right, sections, symbolText, when } from './shared.js';
import type { GatewayView, ViewContext } from './shared.js';

const optionalText = z.string().nullish();
/** Numbers, or groups of numbers (MACD's three lines, Bollinger's three bands). */
const IndicatorSet = z.record(z.union([z.number(), z.null(), z.record(z.union([z.number(), z.null()]))]));

const IndicatorsData = z
  .object({
    symbol: z.string(),
    timeframe: optionalText,
    as_of: optionalText,
    cached: z.boolean().nullish(),
    indicators: IndicatorSet,
  })
  .passthrough();

/** `rsi_14` -> `RSI(14)`, `bollinger_20_2` -> `Bollinger(20, 2)`, `close` -> `Close`. */
export function indicatorName(key: string): string {
  const m = /^([a-z]+)((?:_\d+(?:\.\d+)?)*)$/i.exec(key);
  if (!m) return key;
  const word = m[1]!.length <= 4 ? m[1]!.toUpperCase() : `${m[1]![0]!.toUpperCase()}${m[1]!.slice(1)}`;
  const params = m[2]!.split('_').filter(Boolean);
  return params.length ? `${word}(${params.join(', ')})` : word;
}

/**
 * Decimals for a group of indicator values (one line, or MACD's three): values on the price's
 * scale get the price's decimals, so that EMA and close line up; others (oscillators, MACD)
 * two, or up to six for values under 1 that would otherwise read as zero.
 */
function groupDecimals(values: readonly number[], close: number | undefined, priceDecimals: number): number {
  const onPriceScale = (v: number) => close !== undefined && close !== 0 && v / close > 0.5 && v / close < 2;
  if (values.length && values.every(onPriceScale)) return priceDecimals;
  const small = values.every((v) => Math.abs(v) < 1);
  return small ? Math.min(6, Math.max(2, ...values.map(decimalsOf))) : 2;
}

/** The indicators as a two-column table; a group (MACD, Bollinger) as indented rows under its name. */
function indicatorTable(out: Output, set: z.infer<typeof IndicatorSet>): string {
  const close = finiteNumber(set.close);
  const priceDecimals = Math.min(6, Math.max(2, close === undefined ? 2 : decimalsOf(close)));
  const numbers = (vs: ReadonlyArray<number | null>) => vs.filter((v): v is number => v !== null);
  const rows: Cell[][] = [];
  for (const [key, v] of Object.entries(set)) {
    if (isRecord(v)) {
      const decimals = groupDecimals(numbers(Object.values(v)), close, priceDecimals);
      rows.push([indicatorName(key), '']);
      for (const [part, pv] of Object.entries(v)) rows.push([`  ${clean(part)}`, formatFixed(pv, decimals)]);
    } else {
      rows.push([indicatorName(key), v === null ? DASH : formatFixed(v, groupDecimals([v], close, priceDecimals))]);
    }
  }
  return renderTable(out, [{ header: 'Indicator' }, right('Value')], rows);
}

export const indicatorsView: GatewayView = (raw, ctx) => {
  const data = readAs(IndicatorsData, raw);
  if (!data) return undefined;
  return sections(
    heading(
      ctx,
      symbolText(data.symbol),
      data.timeframe ? `${data.timeframe} indicators` : 'indicators',
      data.as_of ? `as of ${when(ctx, data.as_of)}` : undefined,
      data.cached === true ? 'cached' : undefined,
    ),
    indicatorTable(ctx.out, data.indicators),
    otherFields(ctx, data, ['symbol', 'timeframe', 'as_of', 'cached', 'indicators']),
  );
};

const AnalyzeData = z
  .object({
    symbol: optionalText,
    timeframe: optionalText,
    as_of: optionalText,
    bias: z.string(),
    confidence: z.number().nullish(),
    drivers: z.array(z.string()).nullish(),
    indicators: IndicatorSet.nullish(),
    forecast: z
      .object({
        direction: optionalText,
        p_long: z.number().nullish(),
        p_short: z.number().nullish(),
        target_t: z.number().nullish(),
      })
      .passthrough()
      .nullish(),
  })
  .passthrough();

type Forecast = NonNullable<z.infer<typeof AnalyzeData>['forecast']>;

/** `short · long 38% · short 56% · resolves 2026-11-23 04:00 UTC (in 5h33m)`. */
function forecastLine(ctx: ViewContext, f: Forecast): string {
  const paint = signalPaint(ctx.out, f.direction) ?? ((s: string) => s);
  const parts = [paint(clean(f.direction ?? DASH))];
  if (f.p_long != null) parts.push(`long ${percent01(f.p_long)}`);
  if (f.p_short != null) parts.push(`short ${percent01(f.p_short)}`);
  const lines = [parts.join(' · ')];
  if (f.target_t != null) lines.push(`resolves ${when(ctx, f.target_t)}`);
  return lines.join('\n            ');
}

export const analyzeView: GatewayView = (raw, ctx) => {
  const data = readAs(AnalyzeData, raw);
  if (!data) return undefined;
  const { out } = ctx;
  const label = (k: string) => out.c.dim(k.padEnd(10));
  const biasPaint = signalPaint(out, data.bias) ?? ((s: string) => s);
  const lead = [`${label('Bias')}  ${biasPaint(clean(data.bias))}`];
  if (data.confidence != null) lead.push(`${label('Confidence')}  ${percent01(data.confidence)}`);
  if (data.forecast) lead.push(`${label('Forecast')}  ${forecastLine(ctx, data.forecast)}`);
  const drivers = data.drivers
    ? [
        out.c.bold('Drivers'),
        ...(data.drivers.length
          ? data.drivers.map((d) => `  • ${wrapIndented(clean(d), textWidth(out), 4)}`)
          : ['  (none)']),
      ]
    : undefined;
  return sections(
    heading(
      ctx,
      data.symbol ? symbolText(data.symbol) : 'Analysis',
      data.timeframe ?? undefined,
      data.as_of ? `as of ${when(ctx, data.as_of)}` : undefined,
    ),
    lead,
    drivers,
    data.indicators ? [out.c.bold('Indicators'), indicatorTable(out, data.indicators)] : undefined,
    otherFields(ctx, data, ['symbol', 'timeframe', 'as_of', 'bias', 'confidence', 'drivers', 'indicators', 'forecast']),
  );
};
