// The lags of the Diebold–Mariano test from overlapping horizons: a forecast's loss is not
// known until its target time, so the losses of the forecasts made before then (of the same
// symbol and timeframe) share part of its price path. h − 1 is the largest number of later
// forecasts of one series whose ts falls before a forecast's target_t (the forecast itself not
// counted; a forecast made at target_t or after does not overlap).

/**
 * h − 1 of one series: `ts` ascending (distinct), `target` the target_t of each. A binary
 * search per forecast.
 */
export function overlapLags(ts: ArrayLike<number>, target: ArrayLike<number>): number {
  const n = ts.length;
  let most = 0;
  for (let i = 0; i < n; i++) {
    // The first index whose ts is at or after target[i]; the ones between i and it overlap.
    let lo = i + 1;
    let hi = n;
    const t = target[i]!;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ts[mid]! < t) lo = mid + 1;
      else hi = mid;
    }
    if (lo - i - 1 > most) most = lo - i - 1;
  }
  return most;
}
