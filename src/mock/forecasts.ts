// Forecasts as the seed describes them: issued on a cadence per timeframe, shown with the tier's
// delay, settled once their target time has passed. The engines peek a little at the emulated
// future so that the track record and `verify.php` show a plausible edge rather than a coin toss.
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

function drawForecast(seed: string, info: SymbolInfo, tf: string, horizonMin: number, ts: number): ForecastDraws {
  const next = rngFor(seed, 'forecast', info.symbol, tf, ts);
  const horizonS = horizonMin * 60;
  const sigma = typicalMovePct(info, horizonMin);
  const anchorRaw = rawPrice(seed, info, ts);
  const momentumZ = (100 * Math.log(anchorRaw / rawPrice(seed, info, ts - horizonS))) / sigma;
  const futureZ = (100 * Math.log(rawPrice(seed, info, ts + horizonS) / anchorRaw)) / sigma;

  const emaScore = clamp(Math.tanh(momentumZ), -1, 1);
  const rsiScore = clamp(0.7 * emaScore + 0.3 * (next() * 2 - 1), -1, 1);
  const score = clamp(0.5 * emaScore + 0.5 * rsiScore, -1, 1);

  // The engines' view: mostly noise, with a small look at the momentum and at the emulated
  // future, so that the direction comes true 52-56% of the time at every horizon, as the
  // emulator's own published track record says (mock/evidence.ts): a journal that scores these
  // forecasts agrees with the record the emulator publishes. (A larger look made them come
  // true 70-80% of the time, far beyond the record.)
  const view = clamp(0.02 * score + 0.03 * Math.tanh(futureZ) + 0.2 * (next() * 2 - 1), -1, 1);
  // The forecast move: up to half a typical move over the horizon, at the view's widest.
  const change = round(view * sigma * 2.5, 4);
  const labelRaw = change > 0.05 ? 'sube' : change < -0.05 ? 'baja' : 'estable';
  const flat2 = 0.08 + 0.5 * (1 - Math.abs(view)) ** 2 * next();
  const [l2, s2, f2] = probabilities((1 - flat2) * (0.5 + 0.4 * view), (1 - flat2) * (0.5 - 0.4 * view), flat2);

  const view3 = clamp(view + 0.1 * (next() * 2 - 1), -1, 1);
  const flat3 = 0.04 + 0.12 * next();
  const [l3, s3, f3] = probabilities((1 - flat3) * (0.5 + 0.45 * view3), (1 - flat3) * (0.5 - 0.45 * view3), flat3);
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
