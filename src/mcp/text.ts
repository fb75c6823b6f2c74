// Server text made fit for an assistant: the terminal sanitiser's rules (escape sequences,
// C0/C1 and bidi controls removed: output/sanitize.ts), and the invisible characters that can
// hide words from a person reading the transcript (zero-width spaces and joiners, word joiner,
// BOM, soft hyphen, the tag characters that smuggle text). Then keys masked, string by string,
// before any result is cut into pages: a key's spelling cut in two would be no spelling the
// output boundary knows.
import { redactText } from '../core/sinks.js';
import { cleanBlock } from '../output/sanitize.js';

// Alternatives, not one class: a class holding combining marks (U+034F, the variation
// selectors) reads as if it could join them to their neighbours.
const INVISIBLE =
  /\u00ad|\u034f|\u115f|\u1160|\u17b4|\u17b5|[\u180b-\u180f]|[\u200b-\u200d]|[\u2060-\u2064]|\u3164|[\ufe00-\ufe0f]|\ufeff|\uffa0|[\ufff9-\ufffb]|\udb40[\udc00-\udc7f]/g;

/** One string from the service, safe to hand over. */
export function serverText(text: string): string {
  return redactText(cleanBlock(text).replace(INVISIBLE, ''));
}

/** A copy of a parsed body with every string (keys too) through serverText. */
export function cleanValue(value: unknown): unknown {
  if (typeof value === 'string') return serverText(value);
  if (Array.isArray(value)) return value.map(cleanValue);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[serverText(k)] = cleanValue(v);
    return out;
  }
  return value;
}
