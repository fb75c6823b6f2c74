// A smooth, endless price path per symbol: layered value noise on the log price. Smooth so
// that neighbouring candles join up and a 1-minute forecast sees a small move, layered so
// that longer horizons see larger moves, as markets do.
import { getOrInsert } from '../core/values.js';
import { round, unit, unitFamily } from './random.js';
import type { PathSpec } from './catalog.js';

/** [period in seconds, amplitude of the log price for vol = 1]. */
const LAYERS: ReadonlyArray<readonly [number, number]> = [
  [7 * 86_400, 0.1],
  [86_400, 0.03],
  [4 * 3600, 0.012],
  [3600, 0.005],
  [600, 0.0018],
  [120, 0.0006],
];

/** Per seed and path, one remembered family of draws per layer (the seeds and paths in use are few). */
const layerDraws = new Map<string, Map<string, Array<(k: number) => number>>>();

function drawsOf(seed: string, id: string): Array<(k: number) => number> {
  const bySeed = getOrInsert(layerDraws, seed, () => new Map<string, Array<(k: number) => number>>());
  return getOrInsert(bySeed, id, () => LAYERS.map((_, layer) => unitFamily(seed, 'path', id, layer)));
}

/** unit(seed, 'path', id, layer, k) at the integers around x, blended smoothly. */
function valueNoise(draw: (k: number) => number, x: number): number {
  const k = Math.floor(x);
  const f = x - k;
  const a = draw(k) * 2 - 1;
  const b = draw(k + 1) * 2 - 1;
  const s = f * f * (3 - 2 * f);
  return a + (b - a) * s;
}

/** The unrounded price at epoch second `t`. */
export function rawPrice(seed: string, spec: PathSpec, t: number): number {
  const draws = drawsOf(seed, spec.id);
  let logMove = 0;
  for (let i = 0; i < LAYERS.length; i++) {
    const [period, amp] = LAYERS[i]!;
    logMove += amp * spec.vol * valueNoise(draws[i]!, t / period);
  }
  return spec.base * Math.exp(logMove);
}

export function priceAt(seed: string, spec: PathSpec, t: number): number {
  return round(rawPrice(seed, spec, t), spec.decimals);
}

export function change24hPct(seed: string, spec: PathSpec, t: number): number {
  return round((rawPrice(seed, spec, t) / rawPrice(seed, spec, t - 86_400) - 1) * 100, 2);
}

/** Typical size of a move over `horizonMin` minutes, in percent, used to scale forecasts. */
export function typicalMovePct(spec: PathSpec, horizonMin: number): number {
  return spec.vol * 0.6 * Math.sqrt(Math.max(horizonMin, 5) / 60);
}

export interface Candle {
  t: number;
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
}

/** One OHLCV candle opening at `t`; its close is the next candle's open, as on a real chart. */
function candleAt(seed: string, spec: PathSpec, t: number, seconds: number): Candle {
  const samples: number[] = [];
  for (let j = 0; j <= 6; j++) samples.push(rawPrice(seed, spec, t + (j * seconds) / 6));
  const wick = 1 + unit(seed, 'wick', spec.id, seconds, t) * 0.0008 * spec.vol;
  const o = samples[0] ?? spec.base;
  const c = samples[samples.length - 1] ?? spec.base;
  const volume = (spec.base > 100 ? 50 : 5e6) * (seconds / 900) * (0.4 + unit(seed, 'vol', spec.id, seconds, t) * 1.2);
  return {
    t,
    o: round(o, spec.decimals),
    h: round(Math.max(...samples) * wick, spec.decimals),
    l: round(Math.min(...samples) / wick, spec.decimals),
    c: round(c, spec.decimals),
    v: round(volume, 4),
  };
}

/** The `count` last complete candles before `until`, oldest first. */
export function candlesUntil(seed: string, spec: PathSpec, until: number, seconds: number, count: number): Candle[] {
  const lastOpen = Math.floor(until / seconds) * seconds - seconds;
  const out: Candle[] = [];
  for (let i = count - 1; i >= 0; i--) out.push(candleAt(seed, spec, lastOpen - i * seconds, seconds));
  return out;
}
