// Reading a decimal's digits into the double JSON.parse would make of them, without a string:
// the report's fast path (fast-lines.ts) reads every price and probability through it. Measured
// and explained in docs/decisions/2026-11-27-journal-report-speed.md.

/** Powers of ten that are exact doubles: m / 10^k is then correctly rounded, as JSON.parse's result is. */
export const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k);

/** 2^53: every integer up to it is a double. */
export const MAX_EXACT = 2 ** 53;
const SPLITTER = 2 ** 27 + 1;
const bits = new Float64Array(1);
const words = new Uint32Array(bits.buffer);
const HIGH = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;

/**
 * Half the gap between `x` (a positive normal double) and its neighbours, 2^(exponent − 53);
 * NaN for a power of two, whose gap below is half the one above.
 */
function halfUlp(x: number): number {
  bits[0] = x;
  const high = words[HIGH]!;
  if ((high & 0xfffff) === 0 && words[1 - HIGH] === 0) return Number.NaN;
  const exponent = (high >>> 20) & 0x7ff;
  bits[0] = 0;
  words[HIGH] = (exponent - 53) << 20;
  return bits[0];
}

/**
 * (big + lo) / 10^k correctly rounded, as JSON.parse reads that decimal, without making a
 * string of it; NaN when it can't tell cheaply (the caller then asks Number()). big is the
 * first eight significant digits times 10^(the count of the rest), exact, and lo the rest (at
 * most nine digits, below big), so their sum is the integer rounded once. Its quotient c by
 * 10^k is within an ulp or so of the true value; the remainder m − c·10^k is computed exactly
 * in two doubles (Knuth's TwoSum, Dekker's TwoProduct), and c is kept when the true value lies
 * clearly inside c's rounding interval (|remainder| below half an ulp of c, times 10^k, with a
 * margin far above the few roundings of the check). When the two roundings (of the sum, of the
 * quotient) put c one ulp off (about one long decimal in ten), the neighbour on the true
 * value's side is checked the same way: its remainder is this one less an ulp times 10^k, a
 * power of two times an exact integer, so the check costs one more subtraction.
 */
export function longDecimal(big: number, lo: number, k: number): number {
  const m = big + lo;
  if (k === 0) return m;
  const me = lo - (m - big); // m's rounding error: exact, as |lo| < |big|
  const p10 = POW10[k]!;
  const c = m / p10;
  // c·10^k = p + pe exactly.
  const p = c * p10;
  let t = SPLITTER * c;
  const ch = t - (t - c);
  const cl = c - ch;
  t = SPLITTER * p10;
  const ph = t - (t - p10);
  const pl = p10 - ph;
  const pe = ch * ph - p + ch * pl + cl * ph + cl * pl;
  // m and p are within a few ulps of each other: m − p is exact (Sterbenz).
  const rest = m - p + (me - pe);
  const half = halfUlp(c);
  // c a power of two (NaN): its interval is lopsided, Number() reads it.
  if (Number.isNaN(half)) return Number.NaN;
  const bound = half * p10 * (1 - 2 ** -20);
  if (Math.abs(rest) < bound) return c;
  const step = 2 * half;
  const neighbour = rest > 0 ? c + step : c - step;
  // A neighbour that is a power of two (the binade's edge) has a lopsided interval too.
  if (Number.isNaN(halfUlp(neighbour))) return Number.NaN;
  const restOfNeighbour = rest > 0 ? rest - step * p10 : rest + step * p10;
  return Math.abs(restOfNeighbour) < bound ? neighbour : Number.NaN;
}
