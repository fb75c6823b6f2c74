// Public evidence: the track record of the current protocol cohort and the inspection of one
// settled forecast. The figures are chosen to exercise a client's gates: some timeframes are
// mature, some early, `4h` nearly empty and `1d` empty (null rates), so every branch shows up.
// The record grows with the clock, as a cumulative record does: every count of every timeframe
// only ever goes up; after 2026-11-22 12:00 UTC by every bar the emulator forecasts. The `shrink` fault rewrites it, dropping the losses of one timeframe.
import {
  ACCURACY_TIMEFRAMES,
  FORECAST_TIMEFRAMES,
  type Direction,
  type Maturity,
  type Outcome,
} from '../core/domain.js';
import { wilsonInterval } from '../evidence/wilson.js';
import { SYMBOLS, tfSeconds, type AssetClass, type SymbolInfo } from './catalog.js';
import { engineForecast, POLICY_VERSION } from './forecasts.js';
import { isoSeconds, meta, type MetaBody, type Tier } from './meta.js';
import { priceAt, typicalMovePct } from './prices.js';
import { HttpProblem } from './problems.js';
import { round, unit } from './random.js';

const PROTOCOL = {
  id: 'mfa-cohort-p3-2025-01',
  starts_at_utc: '2025-01-06T00:00:00Z',
  direction: 'ia3.direction at ts against the close at target_t',
  settlement: `close at target_t vs anchor_price; |return| below ${0.01}% is neutral`,
  status: 'active',
} as const;
const PROTOCOL_START_S = Date.parse(PROTOCOL.starts_at_utc) / 1000;

/** Returns closer to zero than this many percent settle neutral: too small to call either way. */
const NEUTRAL_BAND_PCT = 0.01;

/** Settled forecasts of the whole cohort per timeframe at COHORT_SIZE_AT, before the seed's jitter. */
const COHORT_SIZE: Record<string, number> = {
  '1min': 41_800,
  '5min': 8_650,
  '15min': 2_960,
  '30min': 1_475,
  '1h': 742,
  '2h': 361,
  '3h': 236,
  '4h': 6,
  '6h': 118,
  '1d': 0,
};
/** 2026-11-22 12:00 UTC: the record holds COHORT_SIZE then, fewer before, more after. */
const COHORT_SIZE_AT = Date.UTC(2026, 10, 22, 12) / 1000;

/** The timeframe the `shrink` fault rewrites, and how far back its losses are cut. */
const SHRUNK_TIMEFRAME = '1h';
const SHRINK_BACK_S = 90 * 86_400;

function maturityOf(nSettled: number): Maturity {
  return nSettled < 30 ? 'insufficient_sample' : nSettled < 300 ? 'early_sample' : 'growing_sample';
}

/** Wilson score interval at z = 1.96, the figure clients recompute with `--audit`, as published: 4 decimals. */
function wilson95(wins: number, n: number): [number, number] {
  const [low, high] = wilsonInterval(wins, n);
  return [round(low, 4), round(high, 4)];
}

export interface TrackRecordResultBody {
  timeframe: string;
  n_settled: number;
  outcomes: { win: number; loss: number; neutral: number };
  resolved_win_rate: number | null;
  resolved_win_rate_ci95: [number, number] | null;
  positive_outcome_rate: number | null;
  average_return_pct: number | null;
  maturity: Maturity;
}

// The cohort carries forecasts settled before its start that its protocol accepts, so the
// record grows as if it had begun two years earlier: steadily, and never from nothing.
const GROWTH_ORIGIN_S = PROTOCOL_START_S - 2 * 365 * 86_400;

/**
 * The record's size at `t` against COHORT_SIZE: 1 at COHORT_SIZE_AT, in proportion to the time
 * since the origin; nothing before the protocol starts, since a cohort that has not begun has
 * no record (an emulator set to 2024 must not publish one).
 */
const grownShare = (t: number): number =>
  t < PROTOCOL_START_S ? 0 : (t - GROWTH_ORIGIN_S) / (COHORT_SIZE_AT - GROWTH_ORIGIN_S);

/**
 * The share of a week a market is open (market-hours.ts): crypto always, FX and gold from
 * Sunday 22:00 to Friday 22:00 UTC, US stocks and indices 6.5 hours on weekdays (holidays aside).
 */
const OPEN_SHARE: Record<AssetClass, number> = {
  crypto: 1,
  fx: 120 / 168,
  metal: 120 / 168,
  stock: 32.5 / 168,
  index: 32.5 / 168,
};

/**
 * Forecasts of `tf` settled per second after COHORT_SIZE_AT, by one symbol or by all: the
 * service forecasts every bar of every timeframe a symbol carries while its market is open,
 * and each forecast settles once its target time has passed. 4h and 1d are forecast no more
 * (they come from older runs), so they settle nothing new.
 */
function settlingRate(tf: string, info: SymbolInfo | undefined): number {
  if (!FORECAST_TIMEFRAMES.some(([name]) => name === tf)) return 0;
  const symbols = info ? [info] : SYMBOLS;
  let open = 0;
  for (const s of symbols) if (s.timeframes.includes(tf)) open += OPEN_SHARE[s.assetClass];
  return open / tfSeconds(tf);
}

function settledCount(seed: string, tf: string, info: SymbolInfo | undefined, t: number): number {
  // Up to COHORT_SIZE_AT, the cohort as the docs and the suite show it: small samples that
  // exercise the gates (some mature, some early, 4h nearly and 1d wholly empty); from then on
  // it grows as a service that forecasts every bar does, so that a weekly check of new
  // settlements passes on an honest week (docs/decisions/2026-12-02-emulator-settlement-volume.md).
  const since = Math.max(0, t - COHORT_SIZE_AT);
  const grown = Math.floor(settlingRate(tf, info) * since);
  const base = COHORT_SIZE[tf] ?? 0;
  const all = Math.round(base * (0.92 + 0.16 * unit(seed, 'cohort', tf)) * grownShare(Math.min(t, COHORT_SIZE_AT)));
  if (!info) return all + grown;
  // A timeframe the symbol is not forecast on has nothing settled; 4h and 1d come from older runs.
  const carried = info.timeframes.includes(tf) || !FORECAST_TIMEFRAMES.some(([name]) => name === tf);
  return carried ? Math.round(all * info.share) + grown : 0;
}

interface OutcomeCounts {
  win: number;
  loss: number;
  neutral: number;
}

/**
 * The outcomes of the settled forecasts at `t`. Each count is a rounded share of a count that
 * grows with `t`, and rounding never goes backwards, so every count only grows.
 */
function outcomesAt(seed: string, tf: string, info: SymbolInfo | undefined, t: number): OutcomeCounts {
  const n = settledCount(seed, tf, info, t);
  const key = info?.symbol ?? '*';
  const neutral = Math.round(n * (0.04 + 0.08 * unit(seed, 'neutral', key, tf)));
  const resolved = n - neutral;
  const win = Math.round(resolved * (0.47 + 0.11 * unit(seed, 'winrate', key, tf)));
  return { win, loss: resolved - win, neutral };
}

function result(
  seed: string,
  tf: string,
  info: SymbolInfo | undefined,
  t: number,
  shrink: boolean,
): TrackRecordResultBody {
  const outcomes = outcomesAt(seed, tf, info, t);
  // The rewrite: the losses settled in the last 90 days are gone, so the rate looks better.
  if (shrink && tf === SHRUNK_TIMEFRAME) outcomes.loss = outcomesAt(seed, tf, info, t - SHRINK_BACK_S).loss;
  const { win, loss, neutral } = outcomes;
  const n = win + loss + neutral;
  const resolved = win + loss;
  const key = info?.symbol ?? '*';
  const avg =
    (win / Math.max(resolved, 1) - 0.5) * 0.8 * typicalMovePct(info ?? SYMBOLS[0]!, tfSeconds(tf) / 60) +
    0.01 * (unit(seed, 'avg', key, tf) - 0.5);
  return {
    timeframe: tf,
    n_settled: n,
    outcomes,
    resolved_win_rate: resolved > 0 ? round(win / resolved, 4) : null,
    resolved_win_rate_ci95: resolved > 0 ? wilson95(win, resolved) : null,
    positive_outcome_rate: n > 0 ? round(win / n, 4) : null,
    average_return_pct: n > 0 ? round(avg, 4) : null,
    maturity: maturityOf(n),
  };
}

export interface TrackRecordBody {
  ok: true;
  protocol: typeof PROTOCOL;
  symbol?: string;
  totals: { n_settled: number; wins: number; losses: number; neutrals: number };
  results: TrackRecordResultBody[];
  generated_at: string;
  meta: MetaBody;
}

export interface TrackRecordQuery {
  info?: SymbolInfo;
  tf?: string;
  /** The `shrink` fault: one timeframe loses settlements it published before. */
  shrink?: boolean;
}

export function trackRecord(seed: string, serverT: number, tier: Tier, query: TrackRecordQuery = {}): TrackRecordBody {
  const { info, tf } = query;
  const tfs = tf ? [tf] : [...ACCURACY_TIMEFRAMES];
  const results = tfs.map((name) => result(seed, name, info, serverT, query.shrink === true));
  const totals = { n_settled: 0, wins: 0, losses: 0, neutrals: 0 };
  for (const r of results) {
    totals.n_settled += r.n_settled;
    totals.wins += r.outcomes.win;
    totals.losses += r.outcomes.loss;
    totals.neutrals += r.outcomes.neutral;
  }
  return {
    ok: true,
    protocol: PROTOCOL,
    ...(info ? { symbol: info.symbol } : {}),
    totals,
    results,
    generated_at: isoSeconds(serverT),
    meta: meta(tier, serverT),
  };
}

/** Ids up to this one are settled forecasts whose settlement is public. */
const LAST_EXPIRED_ID = 50_000;
/** Ids above the expired ones, up to this, exist but are still open. */
const LAST_KNOWN_ID = 60_000;
/** Stored forecasts are laid out from the protocol start, one every this many seconds. */
const ID_SPACING_S = 97;

function outcomeOf(direction: Direction, returnPct: number): Outcome {
  if (Math.abs(returnPct) < NEUTRAL_BAND_PCT) return 'neutral';
  return returnPct > 0 === (direction === 'long') ? 'win' : 'loss';
}

/** The stored forecast behind an id: symbol and timeframe by hash, time by position in the cohort. */
function storedForecast(seed: string, id: number): { info: SymbolInfo; tf: string; horizon: number; ts: number } {
  let pick = unit(seed, 'verify-symbol', id);
  let info = SYMBOLS[SYMBOLS.length - 1]!;
  for (const s of SYMBOLS) {
    if (pick < s.share) {
      info = s;
      break;
    }
    pick -= s.share;
  }
  const tfs = FORECAST_TIMEFRAMES.filter(([tf]) => info.timeframes.includes(tf));
  const [tf, horizon] = tfs[Math.floor(unit(seed, 'verify-tf', id) * tfs.length)] ?? FORECAST_TIMEFRAMES[0]!;
  const cadence = tfSeconds(tf);
  const ts = Math.floor((PROTOCOL_START_S + id * ID_SPACING_S) / cadence) * cadence;
  return { info, tf, horizon, ts };
}

export function verifyBody(seed: string, id: number, serverT: number, tier: Tier): unknown {
  if (id > LAST_KNOWN_ID) throw new HttpProblem('not-found', `no forecast with id ${id}`);
  const stored = id <= LAST_EXPIRED_ID ? storedForecast(seed, id) : undefined;
  // Settlement is published a minute after the target time (see settled_at).
  if (!stored || stored.ts + stored.horizon * 60 + 60 > serverT) {
    throw new HttpProblem(
      'forecast-not-expired',
      `forecast ${id} has not expired yet; its settlement is not public until its target time`,
    );
  }
  const { info, tf, horizon, ts } = stored;
  const f = engineForecast(seed, info, tf, horizon, ts, serverT);
  const closes: Array<{ t: number; close: number }> = [];
  // Whole minutes, at most six steps: a 5-minute horizon gets one close per minute.
  const steps = Math.min(6, horizon);
  for (let i = 0; i <= steps; i++) {
    const t = ts + Math.round(((f.target_t - ts) * i) / steps / 60) * 60;
    closes.push({ t, close: priceAt(seed, info, t) });
  }
  const closeAtTarget = priceAt(seed, info, f.target_t);
  const returnPct = round((closeAtTarget / f.anchor_price - 1) * 100, 4);
  return {
    ok: true,
    id,
    forecast: {
      id,
      symbol: info.symbol,
      tf,
      ts,
      horizon_min: horizon,
      target_t: f.target_t,
      anchor_price: f.anchor_price,
      target_price: f.target_price,
      direction: f.ia3.direction,
      p_long: f.ia3.p_long,
      p_short: f.ia3.p_short,
      p_flat: f.ia3.p_flat,
      policy_version: POLICY_VERSION,
    },
    market: { symbol: info.symbol, closes },
    settlement: {
      target_t: f.target_t,
      close_at_target: closeAtTarget,
      return_pct: returnPct,
      neutral_band_pct: NEUTRAL_BAND_PCT,
      outcome: outcomeOf(f.ia3.direction, returnPct),
      settled_at: isoSeconds(f.target_t + 60),
    },
    meta: meta(tier, serverT),
  };
}
