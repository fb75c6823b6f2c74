// What the journal holds, one JSON object per line, each with the schema version `v`:
//   forecast    a forecast as it was shown (key: symbol, tf, ts), with ia3's call and probabilities
//   price       a price observation (`last` at `t`) from a response
//   settlement  the settlement of one forecast, appended later: settled (the close and where it
//               came from) or unsettleable (why); it repeats the forecast's call, probabilities and
//               anchor, so that a report can score it without joining the two lines
// Fields are written in a fixed order (the serialisers below): lines.ts reads lines of that
// exact shape without JSON.parse, and parses any other line in full.
import type { EngineForecast, ForecastEnvelope } from '../api/schemas.js';

export const JOURNAL_VERSION = 1;

/** The service's neutral band: |return| below this many percent is neither a win nor a loss. */
export const DEFAULT_FLAT_BAND_PCT = 0.01;

/** A recorded price observation settles a forecast only if taken at most this long after target_t. */
export const PRICE_GRACE_S = 900;

export interface ForecastRecord {
  v: 1;
  kind: 'forecast';
  symbol: string;
  tf: string;
  ts: number;
  horizon_min: number;
  target_t: number;
  anchor_price: number | null;
  target_price: number | null;
  /** ia3.direction as sent: `long` or `short` in every response seen. */
  direction: string;
  p_long: number;
  p_short: number;
  p_flat: number;
  tier: string | null;
  delay_min: number | null;
  /** meta.server_t of the response that showed it, when the server gave one. */
  server_t: number | null;
  /** The local clock when fcast wrote it, epoch seconds. */
  recorded_at: number;
}

export interface PriceRecord {
  v: 1;
  kind: 'price';
  symbol: string;
  t: number;
  last: number;
  tier: string | null;
  delay_min: number | null;
  recorded_at: number;
}

export type SettleSource = 'candles' | 'price';
export type Outcome = 'win' | 'loss' | 'neutral';
export type Move = 'up' | 'down' | 'flat';

/** What a settlement repeats of its forecast: enough to score it alone. */
interface SettlementBase {
  v: 1;
  kind: 'settlement';
  symbol: string;
  tf: string;
  ts: number;
  direction: string;
  p_long: number;
  p_short: number;
  p_flat: number;
  anchor_price: number | null;
}

export interface SettledRecord extends SettlementBase {
  status: 'settled';
  settle_price: number;
  settle_t: number;
  settle_source: SettleSource;
  return_pct: number;
  /** As the flat band of the settling run judged it; reports judge again with their own band. */
  outcome: Outcome;
  move: Move;
  flat_band_pct: number;
  settled_at: number;
}

export interface UnsettleableRecord extends SettlementBase {
  status: 'unsettleable';
  reason: string;
  settled_at: number;
}

export type SettlementRecord = SettledRecord | UnsettleableRecord;
export type JournalRecord = ForecastRecord | PriceRecord | SettlementRecord;

/** The key of a forecast: one line per key, whoever shows it how often. */
export const forecastKey = (r: { symbol: string; tf: string; ts: number }): string => `${r.symbol}\t${r.tf}\t${r.ts}`;

// --- from a response ---------------------------------------------------------------------------

export interface Shown {
  symbol: string;
  body: ForecastEnvelope;
}

/** The forecasts of a response, as records; `recordedAt` is the local clock in epoch seconds. */
export function forecastRecords({ symbol, body }: Shown, recordedAt: number): ForecastRecord[] {
  const tier = typeof body.meta.tier === 'string' ? body.meta.tier : null;
  const delay = Number.isInteger(body.meta.data_delay_min) ? body.meta.data_delay_min : null;
  const serverT = body.meta.server_t ?? null;
  return Object.values(body.predictions).map((f) =>
    forecastRecord(body.symbol || symbol, f, tier, delay, serverT, recordedAt),
  );
}

function forecastRecord(
  symbol: string,
  f: EngineForecast,
  tier: string | null,
  delay: number | null,
  serverT: number | null,
  recordedAt: number,
): ForecastRecord {
  return {
    v: JOURNAL_VERSION,
    kind: 'forecast',
    symbol,
    tf: f.tf,
    ts: f.ts,
    horizon_min: f.horizon_min,
    target_t: f.target_t,
    anchor_price: f.anchor_price ?? null,
    target_price: f.target_price ?? null,
    direction: f.ia3.direction,
    p_long: f.ia3.p_long,
    p_short: f.ia3.p_short,
    p_flat: f.ia3.p_flat,
    tier,
    delay_min: delay,
    server_t: serverT,
    recorded_at: recordedAt,
  };
}

/** The response's price observation as a record; undefined when it carries none. */
export function priceRecord({ symbol, body }: Shown, recordedAt: number): PriceRecord | undefined {
  const price = body.price;
  if (!price) return undefined;
  return {
    v: JOURNAL_VERSION,
    kind: 'price',
    symbol: body.symbol || symbol,
    t: price.t,
    last: price.last,
    tier: typeof body.meta.tier === 'string' ? body.meta.tier : null,
    delay_min: Number.isInteger(body.meta.data_delay_min) ? body.meta.data_delay_min : null,
    recorded_at: recordedAt,
  };
}

// --- the outcome rule (the service's protocol: close at target_t vs anchor_price) ---------------

/** (close / anchor − 1) × 100; the one formula, so every reader computes the same double. */
export const returnPct = (close: number, anchor: number): number => (close / anchor - 1) * 100;

/**
 * up, down or flat against the band (|return| below it is flat). The return is compared
 * rounded to 10 decimals: 100.01 against 100 computes as 0.00999999999999801 in binary, and
 * is the 0.01% it reads as; no real decision lies within 1e-10 of the band.
 */
export function moveOf(returnPctValue: number, flatBandPct: number): Move {
  const r = Math.round(returnPctValue * 1e10) / 1e10;
  if (Math.abs(r) < flatBandPct) return 'flat';
  return r > 0 ? 'up' : 'down';
}

/** neutral within the band, else a win when the move agrees with the call (long: up, short: down), else a loss. */
export function outcomeOf(direction: string, move: Move): Outcome {
  if (move === 'flat') return 'neutral';
  return (move === 'up' && direction === 'long') || (move === 'down' && direction === 'short') ? 'win' : 'loss';
}

/** What settling a forecast needs of it: its key, target, anchor and call. */
export type Settleable = Pick<
  ForecastRecord,
  'symbol' | 'tf' | 'ts' | 'target_t' | 'anchor_price' | 'direction' | 'p_long' | 'p_short' | 'p_flat'
>;

export function settledRecord(
  f: Settleable,
  close: { price: number; t: number; source: SettleSource },
  flatBandPct: number,
  settledAt: number,
): SettledRecord {
  const r = returnPct(close.price, f.anchor_price!);
  const move = moveOf(r, flatBandPct);
  // Spelled out, not spread from a base: a literal of known shape is several times faster to
  // build, and an import makes a million of them.
  return {
    v: JOURNAL_VERSION,
    kind: 'settlement',
    symbol: f.symbol,
    tf: f.tf,
    ts: f.ts,
    direction: f.direction,
    p_long: f.p_long,
    p_short: f.p_short,
    p_flat: f.p_flat,
    anchor_price: f.anchor_price,
    status: 'settled',
    settle_price: close.price,
    settle_t: close.t,
    settle_source: close.source,
    return_pct: r,
    outcome: outcomeOf(f.direction, move),
    move,
    flat_band_pct: flatBandPct,
    settled_at: settledAt,
  };
}

export function unsettleableRecord(f: Settleable, reason: string, settledAt: number): UnsettleableRecord {
  return {
    v: JOURNAL_VERSION,
    kind: 'settlement',
    symbol: f.symbol,
    tf: f.tf,
    ts: f.ts,
    direction: f.direction,
    p_long: f.p_long,
    p_short: f.p_short,
    p_flat: f.p_flat,
    anchor_price: f.anchor_price,
    status: 'unsettleable',
    reason,
    settled_at: settledAt,
  };
}

// --- lines -------------------------------------------------------------------------------------

/**
 * One record as one line, its fields in the order of its type above. JSON.stringify keeps an
 * object's insertion order, and every record is built by the functions of this file (or
 * checked and rebuilt by them, on import), so the order is always this one.
 */
export const recordLine = (r: JournalRecord): string => `${JSON.stringify(r)}\n`;

/** The month file a record belongs in: its forecast's ts (a settlement's too), or a price's t; UTC. */
export function monthOf(r: JournalRecord): string {
  return monthOfEpoch(r.kind === 'price' ? r.t : r.ts);
}

/** The last month asked for, and its bounds: records come in runs of the same month. */
let lastMonth = { from: 0, to: 0, name: '' };

export function monthOfEpoch(epochS: number): string {
  if (epochS >= lastMonth.from && epochS < lastMonth.to) return lastMonth.name;
  const d = new Date(epochS * 1000);
  const from = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000;
  const to = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / 1000;
  lastMonth = { from, to, name: d.toISOString().slice(0, 7) };
  return lastMonth.name;
}
