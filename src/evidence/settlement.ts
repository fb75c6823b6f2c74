// Re-derives the outcome of one settled forecast from `verify.php`'s body: direction, anchor
// price and the close at the target time give the return, the return gives the outcome.
// The seed shows none of this body's fields, so only the names the seed uses elsewhere are
// read: `forecast.direction` (or `forecast.ia3.direction`) with its values `long`/`short`,
// `anchor_price`, `target_t`, the `settlement` block's `close_at_target`, `neutral_band_pct`
// and `outcome` (`win`, `loss`, `neutral`, the track record's words), and the market closes as
// `{t, close}` records. A figure found under no such name means no check, never a guess.
import type { Direction, Outcome, SettlementCheck } from '../core/domain.js';
import { asRecord, finiteNumber, isRecord } from '../core/values.js';

const DIRECTIONS: readonly Direction[] = ['long', 'short'];
const OUTCOMES: readonly Outcome[] = ['win', 'loss', 'neutral'];

const oneOf =
  <T extends string>(allowed: readonly T[]) =>
  (v: unknown): T | undefined =>
    (allowed as readonly unknown[]).includes(v) ? (v as T) : undefined;

const positive = (v: unknown): number | undefined => {
  const n = finiteNumber(v);
  return n !== undefined && n > 0 ? n : undefined;
};

/** The market close at the target time, from the `closes` list of `{t, close}` records. */
function closeAt(market: Record<string, unknown>, targetT: number | undefined): number | undefined {
  if (targetT === undefined || !Array.isArray(market.closes)) return undefined;
  const hit = market.closes.filter(isRecord).find((c) => c.t === targetT);
  return hit ? positive(hit.close) : undefined;
}

export function outcomeFor(direction: Direction, returnPct: number, neutralBandPct = 0): Outcome {
  if (Math.abs(returnPct) < neutralBandPct || returnPct === 0) return 'neutral';
  return returnPct > 0 === (direction === 'long') ? 'win' : 'loss';
}

export function checkSettlement(body: unknown): SettlementCheck {
  const root = asRecord(body);
  const forecast = asRecord(root.forecast);
  const settlement = asRecord(root.settlement);
  const direction = oneOf(DIRECTIONS)(forecast.direction) ?? oneOf(DIRECTIONS)(asRecord(forecast.ia3).direction);
  const anchor = positive(forecast.anchor_price);
  const targetT = finiteNumber(settlement.target_t) ?? finiteNumber(forecast.target_t);
  const close = positive(settlement.close_at_target) ?? closeAt(asRecord(root.market), targetT);

  const missing = [
    direction ? '' : 'a direction',
    anchor ? '' : 'an anchor price',
    close ? '' : 'the close at the target time',
  ].filter(Boolean);
  if (!direction || !anchor || !close) return { checked: false, missing };

  const neutralBandPct = finiteNumber(settlement.neutral_band_pct);
  const returnPct = (close / anchor - 1) * 100;
  const expected = outcomeFor(direction, returnPct, neutralBandPct);
  const published = oneOf(OUTCOMES)(settlement.outcome);
  let agrees: boolean | undefined = published === undefined ? undefined : published === expected;
  // Without a published band, a small return called neutral can be neither confirmed nor refuted.
  if (neutralBandPct === undefined && published === 'neutral' && expected !== 'neutral') agrees = undefined;
  return { checked: true, direction, anchor, close, returnPct, expected, neutralBandPct, published, agrees };
}
