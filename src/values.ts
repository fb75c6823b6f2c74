// Guards for JSON of unknown shape. The seed leaves many fields open, so renderers read
// bodies defensively; these are the one definition of "an object", "a number", "text".

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
