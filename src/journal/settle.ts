// The settlement rule, written once and applied the same way by `journal settle` and by a
// recording run. Pure: it is given the candles, the recorded price observations and the
// server's clock, and says settled (with the close), unsettleable (with why) or still open.
//
// For a forecast with anchor A, call D and target time T, the server's clock S:
// 1. T > S: not due yet (open). The server's clock, not this machine's: an emulator on an
//    emulated clock settles by its own time.
// 2. The close at T, exactly: a 15min or 1h candle whose close time (open t + its length) is T,
//    else a recorded price observation taken at T. Source `candles` or `price`.
// 3. If the candles do not reach T yet (their last close is before T: the data is delayed), wait.
// 4. Else (no candle closes at T: T is off their grid, or before their first close), the
//    earliest recorded observation taken after T and at most 900 s after it. Source `price`.
// 5. Else, while an observation could still come (T + 900 s is not yet behind the newest data
//    seen), wait; once it is, `unsettleable`, with why. Never a price from before T, never a guess.
// The outcome then follows the service's protocol: return_pct = (close / A − 1) × 100; neutral
// when |return_pct| < the flat band, else win when the move agrees with D, else loss.
// A recording run applies steps 1 and 2 (scope 'exact'): its evidence is its own response, and
// what steps 3 to 5 decide needs the recorded observations, so it waits for `journal settle`.
import type { CandlesEvidence } from '../api/candles.js';
import {
  PRICE_GRACE_S,
  settledRecord,
  unsettleableRecord,
  type Settleable,
  type SettledRecord,
  type UnsettleableRecord,
} from './record.js';

/** A price observation: `last` at `t`. */
export interface Observation {
  t: number;
  last: number;
}

/** What is known about one symbol when settling its forecasts. */
export interface SymbolEvidence {
  /** The server's clock (meta.server_t of the candles response). */
  serverT: number;
  candles: CandlesEvidence;
  /** Recorded price observations of the symbol, sorted by t (the response's own included). */
  observations: readonly Observation[];
  /** The newest time the data reaches: the response's price time, or its last candle close. */
  dataUntil: number;
}

export type Verdict =
  | { status: 'settled'; record: SettledRecord }
  | { status: 'unsettleable'; record: UnsettleableRecord }
  | { status: 'open'; why: 'not due' | 'waiting for data' };

/** The first observation with t in [from, to], by binary search over the sorted list. */
export function firstObservationIn(obs: readonly Observation[], from: number, to: number): Observation | undefined {
  let lo = 0;
  let hi = obs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (obs[mid]!.t < from) lo = mid + 1;
    else hi = mid;
  }
  const found = obs[lo];
  return found !== undefined && found.t <= to ? found : undefined;
}

/** Step 2: the close at exactly T, from a candle closing then or an observation taken then. */
export function exactClose(
  f: Pick<Settleable, 'target_t'>,
  candles: CandlesEvidence,
  observations: readonly Observation[],
): { price: number; t: number; source: 'candles' | 'price' } | undefined {
  if (candles.usable) {
    for (const series of candles.series) {
      // Candles are sorted by open time: the one closing at T opens at T − length.
      const candle = series.candles.find((c) => c.t + series.seconds === f.target_t);
      if (candle) return { price: candle.c, t: f.target_t, source: 'candles' };
    }
  }
  const at = firstObservationIn(observations, f.target_t, f.target_t);
  return at ? { price: at.last, t: at.t, source: 'price' } : undefined;
}

/** Where the candles end: the latest close time of any usable series; undefined when there are none. */
export function candlesReach(candles: CandlesEvidence): number | undefined {
  if (!candles.usable) return undefined;
  let reach: number | undefined;
  for (const series of candles.series) {
    const last = series.candles.at(-1);
    if (last) reach = Math.max(reach ?? Number.NEGATIVE_INFINITY, last.t + series.seconds);
  }
  return reach;
}

/**
 * What one response tells about its symbol, for the rule: the server's clock (this machine's
 * when the response gives none), its candles, the observations known, and how far the data reaches.
 */
export function responseEvidence(
  response: { serverT: number | undefined; candles: CandlesEvidence; price: Observation | undefined },
  observations: readonly Observation[],
  nowS: number,
): SymbolEvidence {
  const reach = candlesReach(response.candles) ?? Number.NEGATIVE_INFINITY;
  return {
    serverT: response.serverT ?? nowS,
    candles: response.candles,
    observations,
    dataUntil: Math.max(reach, response.price?.t ?? Number.NEGATIVE_INFINITY),
  };
}

/** 'all': the whole rule (`journal settle`); 'exact': steps 1 and 2 only (a recording run). */
export type SettleScope = 'all' | 'exact';

export function settleForecast(
  f: Settleable,
  evidence: SymbolEvidence,
  flatBandPct: number,
  settledAt: number,
  scope: SettleScope = 'all',
): Verdict {
  const T = f.target_t;
  if (T > evidence.serverT) return { status: 'open', why: 'not due' };
  if (f.anchor_price === null || !(f.anchor_price > 0)) {
    return { status: 'unsettleable', record: unsettleableRecord(f, 'the forecast has no anchor price', settledAt) };
  }
  const settled = (close: { price: number; t: number; source: 'candles' | 'price' }): Verdict => ({
    status: 'settled',
    record: settledRecord(f, close, flatBandPct, settledAt),
  });
  const exact = exactClose(f, evidence.candles, evidence.observations);
  if (exact) return settled(exact);
  if (scope === 'exact') return { status: 'open', why: 'waiting for data' };
  const reach = candlesReach(evidence.candles);
  if (reach !== undefined && T > reach) return { status: 'open', why: 'waiting for data' };
  const later = firstObservationIn(evidence.observations, T + 1, T + PRICE_GRACE_S);
  if (later) return settled({ price: later.last, t: later.t, source: 'price' });
  if (T + PRICE_GRACE_S >= evidence.dataUntil) return { status: 'open', why: 'waiting for data' };
  return { status: 'unsettleable', record: unsettleableRecord(f, unsettleableReason(T, evidence.candles), settledAt) };
}

function unsettleableReason(T: number, candles: CandlesEvidence): string {
  const noPrice = `no price observed within ${PRICE_GRACE_S} s after target_t`;
  if (!candles.usable) return `the candles were unusable (${candles.why}) and ${noPrice}`;
  const first = Math.min(...candles.series.map((s) => (s.candles[0]?.t ?? Number.POSITIVE_INFINITY) + s.seconds));
  if (T < first) return `target_t is before the candles' reach and ${noPrice}`;
  return `no 15min or 1h candle closes at target_t and ${noPrice}`;
}
