// The Murphy diagram (Ehm, Gneiting, Jordan and Krüger 2016) of the probability of one event:
// the mean elementary score at each threshold θ_k = (k + 0.5)/200, k = 0..199,
//   S_θ(x, y) = 2θ·1{y = 0, x > θ} + 2(1 − θ)·1{y = 1, x ≤ θ},
// whose integral over θ in [0, 1] is the Brier score (x − y)²; the midpoints make the mean over
// the grid that integral's midpoint rule. A forecaster whose curve lies below another's at
// every θ is better for every user's cost–loss ratio. Counted, not summed per threshold: each
// forecast is placed by how many thresholds lie below it, then prefix counts give every θ.

export const MURPHY_POINTS = 200;

/** θ_k = (k + 0.5)/200. */
export const murphyTheta = (): number[] => Array.from({ length: MURPHY_POINTS }, (_, k) => (k + 0.5) / MURPHY_POINTS);

/** How many θ_k are below x (θ_k < x), checked against the thresholds themselves. */
function thresholdsBelow(x: number, theta: readonly number[]): number {
  let j = Math.ceil(MURPHY_POINTS * x - 0.5);
  if (j < 0) j = 0;
  if (j > MURPHY_POINTS) j = MURPHY_POINTS;
  while (j > 0 && !(theta[j - 1]! < x)) j--;
  while (j < MURPHY_POINTS && theta[j]! < x) j++;
  return j;
}

/** The mean elementary score at each θ_k of forecasts `x` against outcomes `y` (1: the event). */
export function murphy(x: ArrayLike<number>, y: ArrayLike<number>): number[] {
  const theta = murphyTheta();
  const n = x.length;
  if (n === 0) return theta.map(() => Number.NaN);
  // misses[j]: forecasts of a non-event with j thresholds below them; hits[j], of an event.
  const misses = new Float64Array(MURPHY_POINTS + 1);
  const hits = new Float64Array(MURPHY_POINTS + 1);
  for (let i = 0; i < n; i++) {
    const j = thresholdsBelow(x[i]!, theta);
    if (y[i]) hits[j]!++;
    else misses[j]!++;
  }
  // At θ_k: non-events with x > θ_k (j > k) cost 2θ; events with x ≤ θ_k (j ≤ k) cost 2(1 − θ).
  let above = 0;
  for (let j = 1; j <= MURPHY_POINTS; j++) above += misses[j]!;
  let atOrBelow = 0;
  return theta.map((t, k) => {
    atOrBelow += hits[k]!;
    const value = (2 * t * above + 2 * (1 - t) * atOrBelow) / n;
    above -= misses[k + 1]!;
    return value;
  });
}
