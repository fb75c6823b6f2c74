// What every gateway view shares: how it is called, the heading line, times in UTC or the
// user's zone, prices and changes formatted per column, and the fields a view does not know,
// still shown (generically) under it so that nothing the gateway sends is hidden.
import type { z } from 'zod';
import { renderBlock } from '../document.js';
import {
  DASH,
  columnDecimals,
  decimalsOf,
  formatFixed,
  formatPercent,
  formatRate,
  formatZonedWithAge,
  isoToEpoch,
  slashSymbol,
} from '../format.js';
import type { Output } from '../io.js';
import { changePaint } from '../paint.js';
import { clean } from '../sanitize.js';
import { type Cell, type Column, packLine, textWidth } from '../table.js';
import { finiteNumber } from '../../core/values.js';

export interface ViewContext {
  out: Output;
  /** The gateway's clock (`meta.generated_at`), for ages. */
  nowSeconds: number;
  /** The zone times are shown in: the `user_tz` the command was given, else UTC. */
  zone: string;
}

/** The text of one command's `data`, or undefined when `data` is not in the shape the view reads. */
export type GatewayView = (data: unknown, ctx: ViewContext) => string | undefined;

/** `data` as the schema reads it, or undefined: the caller then falls back to the generic renderer. */
export function readAs<S extends z.ZodTypeAny>(schema: S, data: unknown): z.infer<S> | undefined {
  const parsed = schema.safeParse(data);
  return parsed.success ? parsed.data : undefined;
}

/** `BTC/USD · 1h · as of 2026-11-22 14:05 UTC (now)`: the first part bold, the empty ones left out, wrapped to fit. */
export function heading(ctx: ViewContext, first: string, ...rest: Array<string | undefined>): string {
  const parts = [clean(first), ...rest.filter((p): p is string => !!p).map(clean)];
  const lines = packLine(parts, textWidth(ctx.out));
  return [
    ctx.out.c.bold(lines[0]!.slice(0, parts[0]!.length)) + lines[0]!.slice(parts[0]!.length),
    ...lines.slice(1),
  ].join('\n');
}

/** An ISO time (or epoch seconds) as `2026-11-22 14:05 UTC (3h ago)`, in the view's zone. */
export const when = (ctx: ViewContext, t: unknown): string =>
  formatZonedWithAge(typeof t === 'number' ? t : isoToEpoch(t), ctx.nowSeconds, ctx.zone);

/** A probability or confidence in 0..1 as a whole percentage, like every other fcast table. */
export const percent01 = (v: unknown): string => {
  const n = finiteNumber(v);
  if (n === undefined) return DASH;
  // Outside 0..1 it is not a probability: shown as sent rather than as a wrong percentage.
  return n >= 0 && n <= 1 ? formatRate(n, 0) : String(n);
};

/** A price with the decimals its instrument was sent with (2 at least), and thousands separators. */
export const priceText = (v: unknown): string => {
  const n = finiteNumber(v);
  return n === undefined ? DASH : formatFixed(n, Math.min(6, Math.max(2, decimalsOf(n))));
};

/** A change already in percent, signed and coloured: `+1.36%`. */
export const changeCell = (out: Output, v: unknown, decimals = 2): Cell => ({
  text: formatPercent(v, decimals),
  paint: changePaint(out, v, decimals),
});

/** A symbol as fcast writes it: `BTC/USD` (the gateway writes `BTCUSD`). */
export const symbolText = (code: unknown, display?: unknown): string =>
  typeof display === 'string' && display.includes('/') ? display : slashSymbol(code);

/** Numbers of one column with one number of decimals (the most any value has, within bounds). */
export function fixedColumn(values: readonly unknown[], min: number, max: number, signed = false): string[] {
  const decimals = columnDecimals(values, min, max);
  return values.map((v) => formatFixed(v, decimals, signed));
}

/** A right-aligned column. */
export const right = (header: string, extra: Partial<Column> = {}): Column => ({ header, align: 'right', ...extra });

/** The fields of `data` the view did not show, generically, so nothing sent is hidden. */
export function otherFields(ctx: ViewContext, data: Record<string, unknown>, shown: readonly string[]): string[] {
  const rest = Object.fromEntries(Object.entries(data).filter(([k]) => !shown.includes(k)));
  if (Object.keys(rest).length === 0) return [];
  return renderBlock(ctx.out, rest, { nowSeconds: ctx.nowSeconds });
}

/** Blocks of lines, one blank line between, the empty ones left out. */
export const sections = (...blocks: Array<string | string[] | undefined>): string =>
  blocks
    .map((b) => (Array.isArray(b) ? b.join('\n') : (b ?? '')))
    .filter((b) => b !== '')
    .join('\n\n');
