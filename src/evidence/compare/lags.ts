// The lags of the Diebold–Mariano test from overlapping horizons: a forecast's loss is not
// known until its target time, so the losses of the forecasts made before then (of the same
// symbol and timeframe) share part of its price path. h − 1 is the largest number of later
// forecasts of one series whose ts falls before a forecast's target_t (the forecast itself not
// counted; a forecast made at target_t or after does not overlap).

/**
 * h − 1 of one series: `ts` ascending (distinct), `target` the target_t of each. For each
 * forecast, the first later one made at or after its target_t: searched onwards from the last
 * forecast's answer when the target has not moved back (targets mostly rise with ts, so this is
 * a step or two), by doubling steps and then halving them; else by halving from the next one.
 */
export function overlapLags(ts: ArrayLike<number>, target: ArrayLike<number>): number {
  const n = ts.length;
  let most = 0;
  let previous = 0;
  let previousTarget = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const t = target[i]!;
    // Every index below `lo` is known to have ts < t (those below the last answer had ts below
    // the last target, which t is not below).
    let lo = t >= previousTarget && previous > i + 1 ? previous : i + 1;
    let hi = lo;
    let step = 1;
    while (hi < n && ts[hi]! < t) {
      lo = hi + 1;
      hi += step;
      step *= 2;
    }
    if (hi > n) hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ts[mid]! < t) lo = mid + 1;
      else hi = mid;
    }
    // The ones between i and lo overlap.
    if (lo - i - 1 > most) most = lo - i - 1;
    previous = lo;
    previousTarget = t;
  }
  return most;
}
