// `fcast verify ID`: the stored forecast, the market closes and the settlement, rendered
// generically (the seed fixes none of their fields), then the line that says whether the
// published outcome follows from the figures. The check is computed by the command; this
// view only formats it. Prices are shown with thousands separators and the precision the
// server publishes for this instrument: 96,515.10 and 229.87, never 96515.1 or 229.870.
import type { SettlementCheck } from '../core/domain.js';
import { serverNow, withAttribution } from './attribution.js';
import { renderBlock } from './document.js';
import { formatNumber, formatPercent } from './format.js';
import type { Output } from './io.js';
import { flowLine } from './table.js';
import { asRecord, isRecord } from '../core/values.js';

const PRICE_KEYS = new Set(['anchor_price', 'target_price', 'close_at_target', 'close']);

const decimalsOf = (n: number): number => {
  const text = String(n);
  return text.includes('e') ? 8 : (text.split('.')[1]?.length ?? 0);
};

function pricesIn(value: unknown, found: number[] = []): number[] {
  if (Array.isArray(value)) for (const v of value) pricesIn(v, found);
  else if (isRecord(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (PRICE_KEYS.has(k) && typeof v === 'number' && Number.isFinite(v)) found.push(v);
      else pricesIn(v, found);
    }
  }
  return found;
}

/** Every price of the body gets the most decimals any of them was published with: 2 to 8. */
function priceDecimals(body: unknown): number {
  return Math.min(8, Math.max(2, ...pricesIn(body).map(decimalsOf)));
}

/** In a list of records (a table), prices padded to one width so that they stay right-aligned as text. */
function alignedColumns(records: unknown[]): unknown[] {
  const widths = new Map<string, number>();
  for (const r of records.filter(isRecord))
    for (const [k, v] of Object.entries(r))
      if (PRICE_KEYS.has(k) && typeof v === 'string') widths.set(k, Math.max(widths.get(k) ?? 0, v.length));
  return records.map((r) =>
    isRecord(r)
      ? Object.fromEntries(
          Object.entries(r).map(([k, v]) => [
            k,
            typeof v === 'string' && widths.has(k) ? v.padStart(widths.get(k)!) : v,
          ]),
        )
      : r,
  );
}

/** The body with its prices as formatted text, for the generic renderer. */
function withPricesFormatted(value: unknown, decimals: number): unknown {
  if (Array.isArray(value)) return alignedColumns(value.map((v) => withPricesFormatted(v, decimals)));
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      PRICE_KEYS.has(k) && typeof v === 'number' ? formatNumber(v, decimals) : withPricesFormatted(v, decimals),
    ]),
  );
}

/** Small returns get more decimals: +0.0225% would round to +0.02%, too coarse to judge a 0.01% band. */
const returnText = (pct: number): string => formatPercent(pct, Math.abs(pct) < 0.1 ? 4 : 2);

/** The check in one sentence, wrapped at the terminal's width with only its verdict coloured. */
export function describeCheck(out: Output, check: SettlementCheck, decimals = 2): string {
  const words = (text: string, paint: (s: string) => string = (s) => s): Array<[string, string]> =>
    text.split(' ').map((w) => [w, paint(w)]);
  if (!check.checked)
    return flowLine(
      out,
      words(`Check: not possible: the body does not show ${check.missing.join(', ')}`, out.c.dim),
      ' ',
    );
  const band = check.neutralBandPct !== undefined ? ` (neutral within ±${check.neutralBandPct}%)` : '';
  const price = (v: number) => formatNumber(v, decimals);
  const figures = words(
    `Check: ${check.direction} from ${price(check.anchor)} to ${price(check.close)} (${returnText(check.returnPct)}) -> ${check.expected}${band};`,
  );
  const verdict =
    check.published === undefined
      ? words('no published outcome to compare')
      : check.agrees === true
        ? words('the published outcome agrees', out.c.green)
        : check.agrees === false
          ? words(`the published outcome is ${check.published}: it does NOT agree`, out.c.red)
          : words(`the published outcome is ${check.published}, which cannot be checked without a neutral band`);
  return flowLine(out, [...figures, ...verdict], ' ');
}

export function renderVerification(
  out: Output,
  body: unknown,
  check: SettlementCheck,
  id: number,
  nowSeconds: number,
): string {
  const meta = asRecord(body).meta;
  const decimals = priceDecimals(body);
  const lines = [out.c.bold(`Forecast ${id}: stored forecast, market closes and settlement`), ''];
  lines.push(
    ...renderBlock(out, withPricesFormatted(body, decimals), {
      skip: ['ok', 'meta'],
      nowSeconds: serverNow(meta, nowSeconds),
    }),
  );
  lines.push('', describeCheck(out, check, decimals));
  return withAttribution(out, lines.join('\n'), meta);
}
