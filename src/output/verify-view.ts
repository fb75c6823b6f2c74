// `fcast verify ID`: the stored forecast, the market closes and the settlement, whatever their
// exact fields (rendered generically), then a line saying whether the published outcome
// follows from the direction, the anchor price and the close at the target time.
import { checkSettlement, type SettlementCheck } from '../evidence/settlement.js';
import { serverNow, withAttribution } from './attribution.js';
import { renderBlock } from './document.js';
import { formatPercent, formatPrice } from './format.js';
import type { Output } from './io.js';
import { asRecord } from '../values.js';

const obj = asRecord;

/** Small returns get more decimals: +0.0225% would round to +0.02%, too coarse to judge a 0.01% band. */
const returnText = (pct: number): string => formatPercent(pct, Math.abs(pct) < 0.1 ? 4 : 2);

export function describeCheck(out: Output, check: SettlementCheck): string {
  if (!check.checked) return out.c.dim(`Check: not possible: the body does not show ${check.missing.join(', ')}`);
  const band = check.neutralBandPct !== undefined ? ` (neutral within ±${check.neutralBandPct}%)` : '';
  const figures = `Check: ${check.direction} from ${formatPrice(check.anchor)} to ${formatPrice(check.close)} (${returnText(check.returnPct)}) -> ${check.expected}${band}`;
  if (check.published === undefined) return `${figures}; no published outcome to compare`;
  if (check.agrees === true) return `${figures}; ${out.c.green('the published outcome agrees')}`;
  if (check.agrees === false)
    return `${figures}; ${out.c.red(`the published outcome is ${check.published}: it does NOT agree`)}`;
  return `${figures}; the published outcome is ${check.published}, which cannot be checked without a neutral band`;
}

export function renderVerification(out: Output, body: unknown, id: number, nowSeconds: number): string {
  const now = serverNow(obj(body).meta, nowSeconds);
  const lines = [out.c.bold(`Forecast ${id}: stored forecast, market closes and settlement`), ''];
  lines.push(...renderBlock(out, body, { skip: ['ok', 'meta'], nowSeconds: now }));
  lines.push('', describeCheck(out, checkSettlement(body)));
  return withAttribution(out, lines.join('\n'), obj(body).meta);
}
