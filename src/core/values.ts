// Guards for JSON of unknown shape. The seed leaves many fields open, so renderers read
// bodies defensively; these are the one definition of "an object", "a number", "text".
import { BadResponseError } from './errors.js';

export type JsonObject = Record<string, unknown>;

/** A plain JSON object (not null, not an array). */
export const isRecord = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The object itself, or an empty one, so that `asRecord(x).field` never throws. */
export const asRecord = (v: unknown): JsonObject => (isRecord(v) ? v : {});

/** null, a string, a number or a boolean. */
export const isScalar = (v: unknown): boolean => v === null || typeof v !== 'object';

/** A finite number, or undefined (never NaN or Infinity). */
export const finiteNumber = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : undefined;

/** A non-empty string, or undefined. */
export const nonEmptyText = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** The last second a date can show, the end of year 9999: a time past it has no ISO 8601 form (toISOString throws). */
/**
 * A number as a person types one in a flag, variable or config value: decimal digits with at
 * most one point (`5`, `0.55`, `.5`). No sign, exponent, hex, binary, `Infinity` or blank, which
 * JavaScript's Number() would all take (`0x10` is 16 to it).
 */
export const DECIMAL_NUMBER = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * The number a person typed (DECIMAL_NUMBER, blanks around it ignored) when it lies from `min`
 * (or above it, with `minExcluded`) to `max`; undefined otherwise, for the caller to say so in
 * its own words. The one place flags, variables and config values read a decimal.
 */
export function parseDecimal(
  raw: string,
  range: { min: number; max: number; minExcluded?: boolean },
): number | undefined {
  const text = raw.trim();
  const n = Number(text);
  if (!DECIMAL_NUMBER.test(text) || !Number.isFinite(n) || n > range.max) return undefined;
  return (range.minExcluded ? n <= range.min : n < range.min) ? undefined : n;
}

export const MAX_EPOCH_S = 253_402_300_799;

/** Whole epoch seconds from 1970 to the end of year 9999: the times the schemas accept and a date can show. */
export const isEpochSeconds = (v: unknown): v is number =>
  Number.isInteger(v) && (v as number) >= 0 && (v as number) <= MAX_EPOCH_S;

/** Real bodies nest under 10 levels; deeper is refused before anything walks or re-indents it. */
export const MAX_JSON_DEPTH = 64;

/** Exit 7: a body deeper than MAX_JSON_DEPTH, refused before any rendering or re-indenting. */
export class NestedTooDeeplyError extends BadResponseError {
  constructor(what = 'the response') {
    super(`${what} is nested too deeply (more than ${MAX_JSON_DEPTH} levels); not shown`);
  }
}

/**
 * Whether a parsed JSON value nests deeper than `limit` (objects and arrays, empty ones too).
 * JSON.parse itself takes any depth without recursion; this walk stops one level past the
 * limit, so its recursion is bounded, and it visits values, not characters: a body's few
 * hundred values cost less than a scan of its text (which V8 would even compile twice over).
 */
export function nestsDeeperThan(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (limit === 0) return true;
  if (Array.isArray(value)) {
    for (const child of value) if (nestsDeeperThan(child, limit - 1)) return true;
  } else {
    for (const key in value) if (nestsDeeperThan((value as JsonObject)[key], limit - 1)) return true;
  }
  return false;
}

/** The largest of many numbers, or `floor` for none; unlike Math.max(...xs), safe for any count. */
export function maxOf(values: Iterable<number>, floor = 0): number {
  let max = floor;
  for (const v of values) if (v > max) max = v;
  return max;
}

/** The map's value for `key`, made by `make` and stored on first asking (a nested cache's step). */
export function getOrInsert<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}
