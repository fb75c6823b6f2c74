// Every number the emulator serves is a pure function of the seed and a few coordinates
// (symbol, time, id), so two servers with the same seed and clock answer byte for byte alike
// and a test can pin a body without storing fixtures.

/** FNV-1a, 32 bits: cheap and good enough to spread similar keys apart before mulberry32 mixes them. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** mulberry32: a tiny PRNG whose whole state is one 32-bit integer. */
function mulberry32(state: number): () => number {
  let a = state >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type KeyPart = string | number;

/** A generator seeded by the coordinates of the thing being generated. */
export function rngFor(...parts: KeyPart[]): () => number {
  return mulberry32(fnv1a(parts.join('|')));
}

/** One uniform draw in [0, 1) for a set of coordinates. */
export function unit(...parts: KeyPart[]): number {
  return rngFor(...parts)();
}

/** Hex digits derived from coordinates, for identifiers that must be stable but look opaque. */
export function hexFor(length: number, ...parts: KeyPart[]): string {
  const next = rngFor(...parts);
  let out = '';
  while (out.length < length)
    out += Math.floor(next() * 0x100000000)
      .toString(16)
      .padStart(8, '0');
  return out.slice(0, length);
}

/** Rounds half away from zero and never returns -0, which would print as `0` anyway but compares oddly. */
export function round(x: number, decimals: number): number {
  const f = 10 ** decimals;
  const r = (Math.sign(x) * Math.round(Math.abs(x) * f)) / f;
  return r === 0 ? 0 : r;
}

export function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}

/**
 * Three probabilities rounded to 4 decimals that sum to exactly 1: the first two are rounded,
 * the last takes the remainder, computed in integer ten-thousandths so no float error creeps in.
 */
export function probabilities(a: number, b: number, c: number): [number, number, number] {
  const total = a + b + c;
  const ia = Math.round((a / total) * 10_000);
  const ib = Math.min(10_000 - ia, Math.round((b / total) * 10_000));
  const ic = 10_000 - ia - ib;
  return [ia / 10_000, ib / 10_000, ic / 10_000];
}
