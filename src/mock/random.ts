// Every number the emulator serves is a pure function of the seed and a few coordinates
// (symbol, time, id), so two servers with the same seed and clock answer byte for byte alike
// and a test can pin a body without storing fixtures.

const FNV_OFFSET = 0x811c9dc5;
const SEPARATOR = 0x7c; // '|', between coordinates

/** FNV-1a, 32 bits, continued from `h`: cheap and good enough to spread similar keys apart before mulberry32 mixes them. */
function fnv1a(h: number, text: string): number {
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** The hash of the coordinates joined by '|', without building the joined string. */
function hashParts(parts: readonly KeyPart[], h = FNV_OFFSET, first = true): number {
  for (const part of parts) {
    if (!first) h = Math.imul(h ^ SEPARATOR, 0x01000193) >>> 0;
    h = fnv1a(h, typeof part === 'string' ? part : String(part));
    first = false;
  }
  return h;
}

/** mulberry32's output for a state, advanced once: a tiny PRNG whose whole state is one 32-bit integer. */
function mix(a: number): number {
  let t = a;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

function mulberry32(state: number): () => number {
  let a = state >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    return mix(a);
  };
}

export type KeyPart = string | number;

/** A generator seeded by the coordinates of the thing being generated. */
export function rngFor(...parts: KeyPart[]): () => number {
  return mulberry32(hashParts(parts));
}

/** One uniform draw in [0, 1) for a set of coordinates: the first draw of rngFor(...parts). */
export function unit(...parts: KeyPart[]): number {
  return mix((hashParts(parts) + 0x6d2b79f5) >>> 0);
}

/** Draws remembered per family; a family forgets them all past this many, so memory stays flat. */
const MEMO_LIMIT = 4096;

/**
 * The draws `unit(...prefix, last)` of one family (a price path's layer, say): the prefix is
 * hashed once, and each draw is remembered, since neighbouring times ask for the same ones.
 */
export function unitFamily(...prefix: KeyPart[]): (last: number) => number {
  const base = hashParts(prefix);
  const memo = new Map<number, number>();
  return (last) => {
    let v = memo.get(last);
    if (v === undefined) {
      if (memo.size >= MEMO_LIMIT) memo.clear();
      v = mix((hashParts([last], base, prefix.length === 0) + 0x6d2b79f5) >>> 0);
      memo.set(last, v);
    }
    return v;
  };
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
