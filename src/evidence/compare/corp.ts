// CORP reliability (Dimitriadis, Gneiting and Jordan 2021) of the probability of one event:
// the forecasts recalibrated by isotonic regression of the outcomes on them (the pool-adjacent-
// violators algorithm, PAV, ties pooled first: forecasts of the same value get one recalibrated
// value, as scikit-learn's IsotonicRegression does), and the Brier score split exactly as
//   BS(x) = MCB − DSC + UNC,  MCB = BS(x) − BS(x̂),  DSC = BS(ȳ) − BS(x̂),  UNC = BS(ȳ) = ȳ(1 − ȳ),
// x̂ the recalibrated forecasts and ȳ the event's frequency. A block of the fit holding W
// forecasts and S events has mean S/W and costs S − S²/W to the Brier score of x̂.

export interface CorpBlock {
  /** The smallest and largest forecast the block holds. */
  lo: number;
  hi: number;
  n: number;
  /** The recalibrated probability: the block's event frequency. */
  value: number;
}

export interface CorpResult {
  n: number;
  mcb: number;
  dsc: number;
  unc: number;
  /** The Brier score of the forecasts (= mcb − dsc + unc). */
  score: number;
  blocks: CorpBlock[];
}

/**
 * The number of decimals (at most 6) every forecast is written with, exactly (x is the double
 * nearest k / 10^d), or undefined. Probabilities as a service sends them mostly are: then the
 * ties are pooled by counting, in one pass, instead of by a sort.
 */
function decimalsOf(x: ArrayLike<number>): number | undefined {
  for (let d = 2; d <= 6; d++) {
    const scale = 10 ** d;
    let ok = true;
    for (let i = 0; i < x.length; i++) {
      const v = x[i]!;
      if (!(v >= 0 && v <= 1) || Math.round(v * scale) / scale !== v) {
        ok = false;
        break;
      }
    }
    if (ok) return d;
  }
  return undefined;
}

/** pooledTies for forecasts of `d` decimals: counted per k / 10^d, k ascending. */
function countedTies(
  x: ArrayLike<number>,
  y: ArrayLike<number>,
  d: number,
): { v: Float64Array; w: Float64Array; s: Float64Array } {
  const scale = 10 ** d;
  const cw = new Float64Array(scale + 1);
  const cs = new Float64Array(scale + 1);
  for (let i = 0; i < x.length; i++) {
    const k = Math.round(x[i]! * scale);
    cw[k]!++;
    if (y[i]) cs[k]!++;
  }
  let m = 0;
  for (let k = 0; k <= scale; k++) if (cw[k]! > 0) m++;
  const v = new Float64Array(m);
  const w = new Float64Array(m);
  const s = new Float64Array(m);
  let at = 0;
  for (let k = 0; k <= scale; k++) {
    if (cw[k] === 0) continue;
    v[at] = k / scale;
    w[at] = cw[k]!;
    s[at] = cs[k]!;
    at++;
  }
  return { v, w, s };
}

/** The distinct forecasts ascending, with how many forecasts and events each holds. */
function pooledTies(x: ArrayLike<number>, y: ArrayLike<number>): { v: Float64Array; w: Float64Array; s: Float64Array } {
  const decimals = decimalsOf(x);
  if (decimals !== undefined) return countedTies(x, y, decimals);
  const n = x.length;
  let ones = 0;
  for (let i = 0; i < n; i++) if (y[i]) ones++;
  const pos = new Float64Array(ones);
  const neg = new Float64Array(n - ones);
  let a = 0;
  let b = 0;
  for (let i = 0; i < n; i++) {
    if (y[i]) pos[a++] = x[i]!;
    else neg[b++] = x[i]!;
  }
  pos.sort();
  neg.sort();
  const v = new Float64Array(n);
  const w = new Float64Array(n);
  const s = new Float64Array(n);
  let m = 0;
  let i = 0;
  let j = 0;
  while (i < pos.length || j < neg.length) {
    const next = j >= neg.length || (i < pos.length && pos[i]! <= neg[j]!) ? pos[i]! : neg[j]!;
    let cw = 0;
    let cs = 0;
    while (i < pos.length && pos[i] === next) {
      i++;
      cw++;
      cs++;
    }
    while (j < neg.length && neg[j] === next) {
      j++;
      cw++;
    }
    v[m] = next;
    w[m] = cw;
    s[m] = cs;
    m++;
  }
  return { v: v.subarray(0, m), w: w.subarray(0, m), s: s.subarray(0, m) };
}

function constant(x: ArrayLike<number>): boolean {
  for (let i = 1; i < x.length; i++) if (x[i] !== x[0]) return false;
  return true;
}

/** The pooled ties of a constant forecast (climatology's): one value, no sort. */
function onePool(x: ArrayLike<number>, y: ArrayLike<number>): { v: Float64Array; w: Float64Array; s: Float64Array } {
  let events = 0;
  for (let i = 0; i < y.length; i++) if (y[i]) events++;
  return { v: Float64Array.of(x[0]!), w: Float64Array.of(x.length), s: Float64Array.of(events) };
}

/** CORP of forecasts `x` (probabilities of the event) against outcomes `y` (1: the event happened). */
export function corp(x: ArrayLike<number>, y: ArrayLike<number>): CorpResult {
  const n = x.length;
  if (n === 0) return { n: 0, mcb: Number.NaN, dsc: Number.NaN, unc: Number.NaN, score: Number.NaN, blocks: [] };
  const { v, w, s } = constant(x) ? onePool(x, y) : pooledTies(x, y);
  // Brier score of x, from the distinct values.
  let bs = 0;
  let events = 0;
  for (let k = 0; k < v.length; k++) {
    bs += s[k]! * (1 - v[k]!) ** 2 + (w[k]! - s[k]!) * v[k]! ** 2;
    events += s[k]!;
  }
  bs /= n;
  // PAV on the distinct values: a stack of blocks, merged while the means decrease.
  const m = v.length;
  const bw = new Float64Array(m);
  const bsum = new Float64Array(m);
  const bstart = new Int32Array(m);
  let top = -1;
  for (let k = 0; k < m; k++) {
    top++;
    bw[top] = w[k]!;
    bsum[top] = s[k]!;
    bstart[top] = k;
    // mean(top − 1) > mean(top), compared without division.
    while (top > 0 && bsum[top - 1]! * bw[top]! > bsum[top]! * bw[top - 1]!) {
      bw[top - 1]! += bw[top]!;
      bsum[top - 1]! += bsum[top]!;
      top--;
    }
  }
  const blocks: CorpBlock[] = [];
  let bsHat = 0;
  for (let b = 0; b <= top; b++) {
    const W = bw[b]!;
    const S = bsum[b]!;
    bsHat += S - (S * S) / W;
    const end = b < top ? bstart[b + 1]! - 1 : m - 1;
    blocks.push({ lo: v[bstart[b]!]!, hi: v[end]!, n: W, value: S / W });
  }
  bsHat /= n;
  const ybar = events / n;
  const unc = ybar * (1 - ybar);
  return { n, mcb: bs - bsHat, dsc: unc - bsHat, unc, score: bs, blocks };
}

/** The recalibrated probability of forecast `p` by the fit's blocks (between blocks: the lower one's, a step). */
export function recalibrated(blocks: readonly CorpBlock[], p: number): number | undefined {
  if (blocks.length === 0) return undefined;
  let lo = 0;
  let hi = blocks.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (blocks[mid]!.lo <= p) lo = mid;
    else hi = mid - 1;
  }
  return blocks[lo]!.value;
}
