// Forecasts as the seed describes them: issued on a cadence per timeframe, shown with the tier's
// delay, settled once their target time has passed. The engines peek a little at the emulated
// future, each through its own noise (below), so that the track record and `verify.php` show a
// plausible edge rather than a coin toss, and ia3 is measurably the better of ia2 and ia3.
import { CANDLE_TIMEFRAMES, FORECAST_TIMEFRAMES, type Direction } from '../core/domain.js';
import { tfSeconds, type SymbolInfo } from './catalog.js';
import { DELAY_MIN, meta, LINKS, type MetaBody, type Tier } from './meta.js';
import { candlesUntil, change24hPct, priceAt, rawPrice, typicalMovePct, type Candle } from './prices.js';
import { clamp, probabilities, rngFor, round } from './random.js';

export const POLICY_VERSION = 3;
const PRICE_SOURCE = 'fcast emulator price path';
const CANDLE_COUNT = 96;

export interface EngineForecastBody {
  tf: string;
  ts: number;
  horizon_min: number;
  target_t: number;
  age_s: number;
  status: 'open' | 'settled';
  anchor_price: number;
  target_price: number;
  ia1: { score: number; rsi_score: number; ema_score: number };
  ia2: {
    predicted_change_pct: number;
    confidence: number;
    label_raw: 'sube' | 'baja' | 'estable';
    p_long: number;
    p_short: number;
    p_flat: number;
  };
  ia3: {
    label: Direction;
    direction: Direction;
    p_long: number;
    p_short: number;
    p_flat: number;
    policy_version: number;
  };
}

/** Creation time of the latest forecast a tier may see: the cadence is the timeframe's own length. */
export function latestTs(tf: string, serverT: number, delayMin: number): number {
  const cadence = tfSeconds(tf);
  return Math.floor((serverT - delayMin * 60) / cadence) * cadence;
}

type ForecastDraws = Omit<EngineForecastBody, 'age_s' | 'status'>;

/** Forecasts already drawn, by seed, symbol, tf and ts; forgotten all at once past a bound, so memory stays flat. */
const drawn = new Map<string, ForecastDraws>();
const DRAWN_LIMIT = 4096;

/** The forecast of `tf` created at `ts`; the same (seed, symbol, tf, ts) always gives the same numbers. */
export function engineForecast(
  seed: string,
  info: SymbolInfo,
  tf: string,
  horizonMin: number,
  ts: number,
  serverT: number,
): EngineForecastBody {
  const key = `${seed}|${info.symbol}|${tf}|${horizonMin}|${ts}`;
  let draws = drawn.get(key);
  if (!draws) {
    if (drawn.size >= DRAWN_LIMIT) drawn.clear();
    draws = drawForecast(seed, info, tf, horizonMin, ts);
    drawn.set(key, draws);
  }
  // Only the age and the status move with the clock; key order is the documented one.
  const { tf: _tf, ts: _ts, horizon_min, target_t, ...engines } = draws;
  return {
    tf,
    ts,
    horizon_min,
    target_t,
    age_s: serverT - ts,
    status: target_t <= serverT ? 'settled' : 'open',
    ...engines,
  };
}

/** The protocol's neutral band (mock/evidence.ts): a return closer to zero than this many percent settles flat. */
const NEUTRAL_BAND_PCT = 0.01;

// The engines read the coming move (the emulator knows it: the price path is its own) through
// noise, each with its own, and state what their reading implies for the three classes: the
// chances of up, flat and down given it (both are calibrated). ia2 reads it through half ia3's
// noise (ia3 reads ia2's reading, blurred), so its probabilities are sharper and score better.
// ia3's noise is as large as its calls must be poor: they come true as often as the emulator's
// published track record says (mock/evidence.ts), so that a journal that settles these
// forecasts agrees with the record the emulator publishes. Both know the typical size of a
// move over the horizon and the neutral band, so both know when a flat close is likely (a calm
// pair over a short horizon). docs/reference.md ("The engines") has what a long session shows,
// docs/decisions/2026-12-02-emulator-engines.md why ia2 is the better of the two.
const IA3_NOISE = 8;
const IA2_NOISE = IA3_NOISE / 2;

/**
 * The spread (standard deviation) of the log move over `horizonMin`, in percent, as the price
 * path makes it: a fraction of the typical move that grows with the horizon (prices.ts's
 * layers: a short horizon sees the smoothest of them).
 */
function moveScalePct(info: SymbolInfo, horizonMin: number): number {
  return typicalMovePct(info, horizonMin) * 0.82 * (1 - 0.34 * Math.exp(-horizonMin / 40));
}

/** A standard normal draw from two uniform ones (Box-Muller). */
function normal(next: () => number): number {
  const u = 1 - next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * next());
}

/** The standard normal distribution function (Abramowitz and Stegun 7.1.26 for erf: within 1e-7). */
function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * z);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-z * z);
  return x >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/**
 * What a reading of the move implies: the move (in units of its spread) read as `reading`
 * through noise `noise`, the spread `scalePct`. The move given the reading is normal, of mean
 * reading / (1 + noise²) and spread noise / sqrt(1 + noise²), both in units of the spread;
 * returned: that mean in percent, and the chances of up, down and flat against the band.
 */
function readMove(reading: number, noise: number, scalePct: number): { meanPct: number; up: number; down: number } {
  const meanPct = (scalePct * reading) / (1 + noise * noise);
  const spreadPct = (scalePct * noise) / Math.sqrt(1 + noise * noise);
  return {
    meanPct,
    up: 1 - normalCdf((NEUTRAL_BAND_PCT - meanPct) / spreadPct),
    down: normalCdf((-NEUTRAL_BAND_PCT - meanPct) / spreadPct),
  };
}

function drawForecast(seed: string, info: SymbolInfo, tf: string, horizonMin: number, ts: number): ForecastDraws {
  const next = rngFor(seed, 'forecast', info.symbol, tf, ts);
  const horizonS = horizonMin * 60;
  const sigma = typicalMovePct(info, horizonMin);
  const anchorRaw = rawPrice(seed, info, ts);
  const momentumZ = (100 * Math.log(anchorRaw / rawPrice(seed, info, ts - horizonS))) / sigma;

  const emaScore = clamp(Math.tanh(momentumZ), -1, 1);
  const rsiScore = clamp(0.7 * emaScore + 0.3 * (next() * 2 - 1), -1, 1);
  const score = clamp(0.5 * emaScore + 0.5 * rsiScore, -1, 1);

  // The move to come, in units of its spread: what the engines read, each through its noise.
  const scale = moveScalePct(info, horizonMin);
  const move = (100 * Math.log(rawPrice(seed, info, ts + horizonS) / anchorRaw)) / scale;
  const ia2Reading = move + IA2_NOISE * normal(next);
  // ia3 reads what ia2 reads, blurred by more noise: the two agree more often than not.
  const ia3Reading = ia2Reading + Math.sqrt(IA3_NOISE ** 2 - IA2_NOISE ** 2) * normal(next);
  const ia2View = readMove(ia2Reading, IA2_NOISE, scale);
  const ia3View = readMove(ia3Reading, IA3_NOISE, scale);

  const change = round(ia2View.meanPct, 4);
  const labelRaw = change > 0.05 ? 'sube' : change < -0.05 ? 'baja' : 'estable';
  const [l2, s2, f2] = probabilities(ia2View.up, ia2View.down, 1 - ia2View.up - ia2View.down);
  const [l3, s3, f3] = probabilities(ia3View.up, ia3View.down, 1 - ia3View.up - ia3View.down);
  const direction: Direction = l3 >= s3 ? 'long' : 'short';

  const anchor = round(anchorRaw, info.decimals);
  const targetT = ts + horizonS;
  return {
    tf,
    ts,
    horizon_min: horizonMin,
    target_t: targetT,
    anchor_price: anchor,
    target_price: round(anchor * (1 + change / 100), info.decimals),
    ia1: { score: round(score, 4), rsi_score: round(rsiScore, 4), ema_score: round(emaScore, 4) },
    ia2: {
      predicted_change_pct: change,
      confidence: Math.max(l2, s2, f2),
      label_raw: labelRaw,
      p_long: l2,
      p_short: s2,
      p_flat: f2,
    },
    ia3: { label: direction, direction, p_long: l3, p_short: s3, p_flat: f3, policy_version: POLICY_VERSION },
  };
}

/** Latest forecast per timeframe the symbol carries, keyed by tf in horizon order. */
export function latestForecasts(
  seed: string,
  info: SymbolInfo,
  serverT: number,
  delayMin: number,
): Record<string, EngineForecastBody> {
  const out: Record<string, EngineForecastBody> = {};
  for (const [tf, horizon] of FORECAST_TIMEFRAMES) {
    if (!info.timeframes.includes(tf)) continue;
    out[tf] = engineForecast(seed, info, tf, horizon, latestTs(tf, serverT, delayMin), serverT);
  }
  return out;
}

export interface ForecastEnvelopeBody {
  ok: true;
  demo?: true;
  symbol: string;
  price: { last: number; t: number; change24h_pct: number; source: string };
  predictions: Record<string, EngineForecastBody>;
  candles?: Record<string, Candle[]>;
  next?: { free_key: string; quickstart: string };
  meta: MetaBody;
}

export function forecastEnvelope(
  seed: string,
  info: SymbolInfo,
  tier: Tier,
  serverT: number,
  opts: { candles?: boolean } = {},
): ForecastEnvelopeBody {
  const delay = DELAY_MIN[tier];
  // The price is as delayed as the forecasts, on a whole minute, like a delayed feed's last tick.
  const priceT = Math.floor((serverT - delay * 60) / 60) * 60;
  let candles: Record<string, Candle[]> | undefined;
  if (opts.candles) {
    candles = {};
    for (const tf of CANDLE_TIMEFRAMES) candles[tf] = candlesUntil(seed, info, priceT, tfSeconds(tf), CANDLE_COUNT);
  }
  return {
    ok: true,
    ...(tier === 'demo' ? { demo: true as const } : {}),
    symbol: info.symbol,
    price: {
      last: priceAt(seed, info, priceT),
      t: priceT,
      change24h_pct: change24hPct(seed, info, priceT),
      source: PRICE_SOURCE,
    },
    predictions: latestForecasts(seed, info, serverT, delay),
    ...(candles ? { candles } : {}),
    ...(tier === 'demo'
      ? {
          next: {
            free_key:
              'POST /api/agent/v1/register.php with {"email": "you@example.com"} for a free key: 15-minute delay instead of 60.',
            quickstart: LINKS.quickstart,
          },
        }
      : {}),
    meta: meta(tier, serverT),
  };
}
