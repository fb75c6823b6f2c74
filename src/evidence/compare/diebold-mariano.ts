// The Diebold–Mariano test of equal predictive accuracy (Diebold and Mariano 1995) with the
// small-sample correction of Harvey, Leybourne and Newbold (1997), as R's forecast::dm.test
// computes it with varestimator = "acf":
//   d_t = loss_a − loss_b, d̄ their mean, γ_j = (1/n) Σ_{t ≤ n−j} (d_t − d̄)(d_{t+j} − d̄);
//   V = (γ_0 + 2 Σ_{j=1}^{h−1} γ_j) / n (rectangular weights, the original test's);
//   DM = d̄ / √V × √((n + 1 − 2h + h(h − 1)/n) / n), p = 2 P(T_{n−1} ≤ −|DM|).
// h − 1 lags: how many later forecasts overlap one's horizon (lags.ts). Where V is not positive
// (the rectangular weights do not make a positive estimate), Bartlett's weights 1 − j/h
// (dm.test's varestimator = "bartlett"; R itself falls back to h = 1 there). Where every d_t is
// the same there is nothing to test: variance "zero", statistic 0, p 1 ("no difference"),
// never NaN. Too few forecasts for the correction (n < 2, or its radicand not positive): null.
import { CompensatedSum, compensatedSum } from '../../core/compensated-sum.js';
import { scratch } from './scratch.js';
import { studentTTwoSided } from './student-t.js';

export type VarianceKind = 'rectangular' | 'bartlett' | 'zero';

export interface DmResult {
  statistic: number | null;
  p_value: number | null;
  lags: number;
  variance: VarianceKind;
}

/**
 * n·(γ_0 + 2 Σ_{j=1}^{L} γ_j) in one pass, not L: Σ_{j=0}^{L} n·γ_j = Σ_t c_t Σ_{u=t}^{t+L} c_u,
 * the inner sum a difference of prefix sums; then twice that less n·γ_0. At a million
 * forecasts of a 1h timeframe recorded every minute (L in the hundreds) this is the difference
 * between milliseconds and seconds.
 */
export function rectangularSum(c: Float64Array, L: number): number {
  const n = c.length;
  const prefix = scratch('dm.prefix', n + 1);
  prefix[0] = 0;
  // CompensatedSum's sums written out on locals: a double handed to a call that is not inlined is
  // a new heap object, and these loops run millions of times.
  let rs = 0;
  let rc = 0;
  for (let i = 0; i < n; i++) {
    const x = c[i]!;
    const t = rs + x;
    rc += Math.abs(rs) >= Math.abs(x) ? rs - t + x : x - t + rs;
    rs = t;
    prefix[i + 1] = rs + rc;
  }
  let as = 0;
  let ac = 0;
  let zs = 0;
  let zc = 0;
  for (let t = 0; t < n; t++) {
    const x = c[t]!;
    const end = Math.min(t + L + 1, n);
    const y = x * (prefix[end]! - prefix[t]!);
    const u = as + y;
    ac += Math.abs(as) >= Math.abs(y) ? as - u + y : y - u + as;
    as = u;
    const z = x * x;
    const w = zs + z;
    zc += Math.abs(zs) >= Math.abs(z) ? zs - w + z : z - w + zs;
    zs = w;
  }
  return 2 * (as + ac) - (zs + zc);
}

/** γ_0..γ_L of centred values (divisor n, as acf()), each summed directly. */
export function autocovariances(c: Float64Array, L: number): Float64Array {
  const n = c.length;
  const gamma = new Float64Array(L + 1);
  for (let j = 0; j <= L; j++) {
    const sum = new CompensatedSum();
    for (let t = 0; t + j < n; t++) sum.add(c[t]! * c[t + j]!);
    gamma[j] = sum.value / n;
  }
  return gamma;
}

/** The test of the loss differences `d` (in time order) with `lags` = h − 1 autocovariances. */
export function dieboldMariano(d: ArrayLike<number>, lags: number): DmResult {
  const n = d.length;
  // acf() never takes more lags than the series has.
  const L = Math.max(0, Math.min(lags, n - 1));
  const h = L + 1;
  if (n === 0) return { statistic: null, p_value: null, lags: L, variance: 'zero' };
  let allEqual = true;
  for (let i = 1; i < n && allEqual; i++) if (d[i] !== d[0]) allEqual = false;
  if (allEqual) return { statistic: 0, p_value: 1, lags: L, variance: 'zero' };
  const dbar = compensatedSum(d) / n;
  const centred = scratch('dm.centred', n);
  for (let i = 0; i < n; i++) centred[i] = d[i]! - dbar;
  let variance: VarianceKind = 'rectangular';
  let v = rectangularSum(centred, L) / n / n;
  if (!(v > 0)) {
    const gamma = autocovariances(centred, L);
    let bartlett = gamma[0]!;
    for (let j = 1; j < h; j++) bartlett += 2 * (1 - j / h) * gamma[j]!;
    v = bartlett / n;
    variance = 'bartlett';
    if (!(v > 0)) return { statistic: 0, p_value: 1, lags: L, variance: 'zero' };
  }
  const radicand = (n + 1 - 2 * h + (h / n) * (h - 1)) / n;
  if (n < 2 || !(radicand > 0)) return { statistic: null, p_value: null, lags: L, variance };
  const statistic = (dbar / Math.sqrt(v)) * Math.sqrt(radicand);
  return { statistic, p_value: studentTTwoSided(statistic, n - 1), lags: L, variance };
}
