// The circular block bootstrap of a mean (Politis and Romano 1992): a replicate joins
// ⌈n/l⌉ blocks of l consecutive values, each starting at a uniform index and wrapping past the
// end, cut to n values; its mean is one draw of the mean's sampling distribution under the
// series' dependence up to lag l − 1. A block's sum is read from prefix sums of the series
// wrapped once (P[s + len] − P[s]), so a replicate costs n/l additions, not n. Several series
// (the pairs' loss differences on one sample) share the blocks of a replicate, as paired
// resampling of one set of forecasts should. Per series: the SE (standard deviation of the
// replicate means, divisor B − 1), the 95% percentile interval (quantiles 0.025 and 0.975,
// linear between order statistics as R's type 7 and numpy's default), and the two-sided p of
// a mean of 0: (1 + #{|m* − d̄| ≥ |d̄|}) / (B + 1), the replicates centred on the sample mean.
import { scratch } from './scratch.js';
import { compensatedSum } from '../../core/compensated-sum.js';

export interface BootstrapResult {
  block: number;
  se: number | null;
  ci95: [number, number] | null;
  p_value: number | null;
}

/** The block length used: the one asked for (else ⌈n^(1/3)⌉), at least `minimum` (h), at most n. */
export function blockLength(n: number, minimum: number, asked?: number): number {
  const base = asked ?? Math.ceil(Math.cbrt(n));
  return Math.max(1, Math.min(n, Math.max(base, minimum)));
}

/** Quantile q of sorted `xs`, linear between order statistics (type 7). */
export function quantileSorted(xs: ArrayLike<number>, q: number): number {
  const h = (xs.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(xs.length - 1, lo + 1);
  return xs[lo]! + (h - lo) * (xs[hi]! - xs[lo]!);
}

/** Prefix sums of `d` wrapped once by `l` values: P[i] = Σ_{k < i} d[k mod n], i ≤ n + l (into `into`, of length n + l + 1, when given). */
export function wrappedPrefix(d: ArrayLike<number>, l: number, into?: Float64Array): Float64Array {
  const n = d.length;
  const p = into ?? new Float64Array(n + l + 1);
  p[0] = 0;
  let s = 0;
  let c = 0;
  for (let i = 0, k = 0; i < n + l; i++, k = k + 1 === n ? 0 : k + 1) {
    const x = d[k]!;
    const t = s + x;
    c += Math.abs(s) >= Math.abs(x) ? s - t + x : x - t + s;
    s = t;
    p[i + 1] = s + c;
  }
  return p;
}

/**
 * The replicate means of every series (all of length n), B of them, with blocks of length
 * `block` drawn from a generator seeded with `seed`. A replicate costs n/l reads: every
 * block's sum is taken once from the prefix sums (P[s + l] − P[s], s = 0..n−1, wrapping), and
 * a replicate adds up the sums at its starts (its last block, cut short, read from the prefix
 * sums). Every series sees the same starts. The series are resampled two at a time, their
 * block sums side by side (16n bytes, one cache line serving both), so that only they are read
 * at random; and each such pass draws the starts again from a generator seeded alike, the very
 * same stream, rather than keeping B·n/l starts in memory: drawing a start costs less than the
 * memory that would hold it, and every series gets the same starts in the same order, so its
 * sums are added in the same order as if they had been kept.
 */
export function replicateMeans(
  series: ReadonlyArray<ArrayLike<number>>,
  block: number,
  replicates: number,
  seed: number,
): Float64Array[] {
  const n = series[0]?.length ?? 0;
  const out = series.map(() => new Float64Array(replicates));
  if (n === 0 || series.length === 0) return out;
  const l = Math.max(1, Math.min(block, n));
  const blocks = Math.ceil(n / l);
  const full = blocks - 1;
  const lastLength = n - full * l;
  const sums = scratch('bootstrap.sums', 2 * n);
  for (let j = 0; j < series.length; j += 2) {
    const pa = wrappedPrefix(series[j]!, l, scratch('bootstrap.a', n + l + 1));
    const pb = j + 1 < series.length ? wrappedPrefix(series[j + 1]!, l, scratch('bootstrap.b', n + l + 1)) : pa;
    for (let i = 0; i < n; i++) {
      sums[2 * i] = pa[i + l]! - pa[i]!;
      sums[2 * i + 1] = pb[i + l]! - pb[i]!;
    }
    const ma = out[j]!;
    const mb = out[j + 1] ?? new Float64Array(replicates);
    resamplePair(sums, pa, pb, ma, mb, n, full, lastLength, seed);
  }
  return out;
}

/** What mulberry32 adds to its state at each draw. */
const STEP = 0x6d2b79f5;

/** mulberry32's state after `draws` draws from `seed` (its state only ever adds STEP). */
const stateAfter = (seed: number, draws: number): number =>
  ((seed >>> 0) + Math.imul((draws % 4294967296) | 0, STEP)) | 0;

/** The draw mulberry32 makes from a state already stepped: ⌊u·scale⌋, as Random.below gives it. */
const drawAt = (state: number, scale: number): number => {
  let t = Math.imul(state ^ (state >>> 15), state | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return Math.floor(((t ^ (t >>> 14)) >>> 0) * scale);
};

/**
 * One pass of replicateMeans: the starts drawn afresh from `seed`, every replicate's full
 * blocks then its last. Random.below's draws, made here (mulberry32 on a local state, drawAt's
 * ⌊u·(n/2^32)⌋) so that the loop keeps its state in a register: the
 * same integers, in the same order within each replicate (a test holds the two to each other).
 * Two replicates at a time,
 * each from its own place in the stream (replicate r starts after r·(full + 1) draws, and
 * mulberry32's state is reached there by one multiplication), so that twice as many reads of
 * the sums are in flight; each replicate's sums are added in its own order, as before.
 */
function resamplePair(
  sums: Float64Array,
  pa: Float64Array,
  pb: Float64Array,
  ma: Float64Array,
  mb: Float64Array,
  n: number,
  full: number,
  lastLength: number,
  seed: number,
): void {
  const scale = n / 4294967296;
  const per = full + 1;
  const B = ma.length;
  let r = 0;
  for (; r + 1 < B; r += 2) {
    let s1 = stateAfter(seed, r * per);
    let s2 = stateAfter(seed, (r + 1) * per);
    let a1 = 0;
    let b1 = 0;
    let a2 = 0;
    let b2 = 0;
    for (let k = 0; k < full; k++) {
      s1 = (s1 + STEP) | 0;
      s2 = (s2 + STEP) | 0;
      // drawAt written out twice: called, it measured 10% slower in this, the hot loop.
      let t = Math.imul(s1 ^ (s1 >>> 15), s1 | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      let u = Math.imul(s2 ^ (s2 >>> 15), s2 | 1);
      u ^= u + Math.imul(u ^ (u >>> 7), u | 61);
      const at = 2 * Math.floor(((t ^ (t >>> 14)) >>> 0) * scale);
      const au = 2 * Math.floor(((u ^ (u >>> 14)) >>> 0) * scale);
      a1 += sums[at]!;
      b1 += sums[at + 1]!;
      a2 += sums[au]!;
      b2 += sums[au + 1]!;
    }
    s1 = (s1 + STEP) | 0;
    s2 = (s2 + STEP) | 0;
    const e1 = drawAt(s1, scale);
    const e2 = drawAt(s2, scale);
    ma[r] = (a1 + pa[e1 + lastLength]! - pa[e1]!) / n;
    mb[r] = (b1 + pb[e1 + lastLength]! - pb[e1]!) / n;
    ma[r + 1] = (a2 + pa[e2 + lastLength]! - pa[e2]!) / n;
    mb[r + 1] = (b2 + pb[e2 + lastLength]! - pb[e2]!) / n;
  }
  if (r < B) {
    // An odd B: the last replicate alone.
    let state = stateAfter(seed, r * per);
    let a = 0;
    let b = 0;
    for (let k = 0; k < full; k++) {
      state = (state + STEP) | 0;
      const at = 2 * drawAt(state, scale);
      a += sums[at]!;
      b += sums[at + 1]!;
    }
    state = (state + STEP) | 0;
    const e = drawAt(state, scale);
    ma[r] = (a + pa[e + lastLength]! - pa[e]!) / n;
    mb[r] = (b + pb[e + lastLength]! - pb[e]!) / n;
  }
}

/** The SE, interval and p of one series' replicate means around its sample mean. */
export function summarize(means: Float64Array, sampleMean: number, block: number): BootstrapResult {
  const B = means.length;
  if (B < 2 || !Number.isFinite(sampleMean)) return { block, se: null, ci95: null, p_value: null };
  const centre = compensatedSum(means) / B;
  let ss = 0;
  let extreme = 0;
  const bar = Math.abs(sampleMean);
  for (let b = 0; b < B; b++) {
    ss += (means[b]! - centre) ** 2;
    if (Math.abs(means[b]! - sampleMean) >= bar) extreme++;
  }
  const sorted = Float64Array.from(means).sort();
  return {
    block,
    se: Math.sqrt(ss / (B - 1)),
    ci95: [quantileSorted(sorted, 0.025), quantileSorted(sorted, 0.975)],
    p_value: Math.min(1, (1 + extreme) / (B + 1)),
  };
}

/**
 * The exact variance of the circular block bootstrap's mean when l divides n: the variance of
 * one block's mean over the n starting points, over n/l blocks. What the Monte Carlo SE
 * estimates (its square), for the tests.
 */
export function exactBootstrapVariance(d: ArrayLike<number>, l: number): number {
  const n = d.length;
  const p = wrappedPrefix(d, l);
  const dbar = compensatedSum(d) / n;
  let s = 0;
  for (let i = 0; i < n; i++) s += ((p[i + l]! - p[i]!) / l - dbar) ** 2;
  return s / n / (n / l);
}
