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
import { compensatedSum } from './scores.js';
import { studentTTwoSided } from './student-t.js';

export type VarianceKind = 'rectangular' | 'bartlett' | 'zero';

export interface DmResult {
  statistic: number | null;
  p_value: number | null;
  lags: number;
  variance: VarianceKind;
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
  const centred = new Float64Array(n);
  for (let i = 0; i < n; i++) centred[i] = d[i]! - dbar;
  const gamma = new Float64Array(h);
  for (let j = 0; j < h; j++) {
    let s = 0;
    let c = 0;
    for (let t = 0; t + j < n; t++) {
      const x = centred[t]! * centred[t + j]!;
      const u = s + x;
      c += Math.abs(s) >= Math.abs(x) ? s - u + x : x - u + s;
      s = u;
    }
    gamma[j] = (s + c) / n;
  }
  let rectangular = gamma[0]!;
  for (let j = 1; j < h; j++) rectangular += 2 * gamma[j]!;
  let variance: VarianceKind = 'rectangular';
  let v = rectangular / n;
  if (!(v > 0)) {
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
