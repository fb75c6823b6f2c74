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
import { Random } from './random.js';
import { compensatedSum } from './scores.js';

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

/** Prefix sums of `d` wrapped once by `l` values: P[i] = Σ_{k < i} d[k mod n], i ≤ n + l. */
export function wrappedPrefix(d: ArrayLike<number>, l: number): Float64Array {
  const n = d.length;
  const p = new Float64Array(n + l + 1);
  let s = 0;
  let c = 0;
  for (let i = 0; i < n + l; i++) {
    const x = d[i % n]!;
    const t = s + x;
    c += Math.abs(s) >= Math.abs(x) ? s - t + x : x - t + s;
    s = t;
    p[i + 1] = s + c;
  }
  return p;
}

/** Replicates drawn at once: their block starts are visited in memory order. */
const BATCH = 64;
/** Starts per bucket of that visit: 2^9 starts of the series' sums fit a core's cache. */
const BUCKET_SHIFT = 9;

/**
 * The replicate means of every series (all of length n), B of them, with blocks of length
 * `block` drawn from a generator seeded with `seed`. Every block's sum is taken once from the
 * prefix sums (P[s + l] − P[s], s = 0..n−1, wrapping), the series' sums of a start side by
 * side, so a block costs one read for all the series and a replicate n/l of them. At a million
 * forecasts those reads, scattered over megabytes, are what a replicate costs: the starts of
 * BATCH replicates are drawn first (in the generator's order, so the figures do not depend on
 * the batching), then visited bucket by bucket in memory order. The last block of a
 * replicate, cut short, is read from the prefix sums.
 */
export function replicateMeans(
  series: ReadonlyArray<ArrayLike<number>>,
  block: number,
  replicates: number,
  seed: number,
): Float64Array[] {
  const n = series[0]?.length ?? 0;
  const m = series.length;
  const out = series.map(() => new Float64Array(replicates));
  if (n === 0 || m === 0) return out;
  const l = Math.max(1, Math.min(block, n));
  const prefixes = series.map((d) => wrappedPrefix(d, l));
  const sumsAt = new Float64Array(n * m);
  for (let j = 0; j < m; j++) {
    const p = prefixes[j]!;
    for (let i = 0; i < n; i++) sumsAt[i * m + j] = p[i + l]! - p[i]!;
  }
  const blocks = Math.ceil(n / l);
  const full = blocks - 1;
  const lastLength = n - full * l;
  const random = new Random(seed);
  const buckets = (n >> BUCKET_SHIFT) + 1;
  const counts = new Int32Array(buckets + 1);
  const drawn = new Int32Array(BATCH * full);
  const sortedStart = new Int32Array(BATCH * full);
  const sortedRep = new Int32Array(BATCH * full);
  const last = new Int32Array(BATCH);
  const sums = new Float64Array(BATCH * m);
  for (let first = 0; first < replicates; first += BATCH) {
    const size = Math.min(BATCH, replicates - first);
    const count = size * full;
    counts.fill(0);
    for (let r = 0; r < size; r++) {
      for (let k = 0; k < full; k++) {
        const s = random.below(n);
        drawn[r * full + k] = s;
        counts[(s >> BUCKET_SHIFT) + 1]!++;
      }
      last[r] = random.below(n);
    }
    for (let q = 0; q < buckets; q++) counts[q + 1]! += counts[q]!;
    for (let i = 0; i < count; i++) {
      const s = drawn[i]!;
      const at = counts[s >> BUCKET_SHIFT]!++;
      sortedStart[at] = s * m;
      sortedRep[at] = ((i / full) | 0) * m;
    }
    sums.fill(0);
    for (let i = 0; i < count; i++) {
      const s = sortedStart[i]!;
      const r = sortedRep[i]!;
      for (let j = 0; j < m; j++) sums[r + j]! += sumsAt[s + j]!;
    }
    for (let r = 0; r < size; r++) {
      const s = last[r]!;
      for (let j = 0; j < m; j++) {
        const p = prefixes[j]!;
        out[j]![first + r] = (sums[r * m + j]! + p[s + lastLength]! - p[s]!) / n;
      }
    }
  }
  return out;
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
