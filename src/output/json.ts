// `--json` prints the body as the server sent it: no field added, removed or reordered, and
// numbers as written. JSON.parse + stringify would reorder integer-like keys and rewrite
// numbers (1.10 -> 1.1), so the raw text is re-indented token by token; only a body that
// stringify would write exactly as it came is re-indented by stringify itself.
import { BadResponseError } from '../core/errors.js';
import { escapeInvisibleJson } from '../core/exact-text.js';
import { MAX_JSON_DEPTH, NestedTooDeeplyError } from '../core/values.js';

/** What `--json` may write: a small body must never turn into hundreds of megabytes of indentation. */
const MAX_JSON_OUTPUT = 64 * 1024 * 1024;

const tooLarge = (cap: number) =>
  new BadResponseError(`the response would print as more than ${Math.round(cap / 1024 / 1024)} MiB of JSON; not shown`);

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * Re-indents valid JSON text with two spaces, starting at `depth`. Throws on invalid JSON, on
 * nesting deeper than MAX_JSON_DEPTH, and when the result would exceed `cap` characters: the
 * whole text is built before anything is written, so nothing goes out when it throws.
 * Linear in the input, and cheap per token: the text between two structural characters is
 * copied as one slice (a compact body is mostly such runs), and indentation strings are made
 * once per level.
 */
export function reindentJson(raw: string, depth = 0, cap = MAX_JSON_OUTPUT): string {
  const value: unknown = JSON.parse(raw); // the caller promised valid JSON; make sure before trusting the tokens
  return escapeInvisibleJson(nativeReindent(raw, value, depth, cap) ?? reindentTokens(raw, depth, cap));
}

/**
 * The token scan of valid JSON text: the reference, which the native path must equal in
 * every text and every refusal (exported for the test that holds it to that).
 */
export function reindentTokens(raw: string, depth: number, cap: number, compact = false): string {
  const indents: string[] = [];
  // Compact (compactJson): no newline, no indentation and no depth to refuse, white space dropped.
  const newline = compact
    ? () => ''
    : (level: number): string => {
        if (level > MAX_JSON_DEPTH + depth) throw new NestedTooDeeplyError();
        indents[level] ??= indentOf(level);
        return indents[level]!;
      };
  const colon = compact ? ':' : ': ';
  let out = '';
  let level = depth;
  let from = 0; // start of the run not yet copied to `out`
  const n = raw.length;
  for (let i = 0; i < n; i++) {
    const ch = raw.charCodeAt(i);
    if (ch === 0x22 /* " */) {
      const { close, plain } = stringAt(raw, i);
      if (plain !== undefined) {
        out += raw.slice(from, i) + plain;
        from = close + 1;
      }
      i = close;
      continue;
    }
    if (ch === 0x2c /* , */) out += `${raw.slice(from, i)},${newline(level)}`;
    else if (ch === 0x3a /* : */) out += raw.slice(from, i) + colon;
    else if (ch === 0x7b /* { */ || ch === 0x5b /* [ */) {
      let k = i + 1;
      while (isSpace(raw.charCodeAt(k))) k++;
      if (raw.charCodeAt(k) === ch + 2 /* the matching } or ] */) {
        out += raw.slice(from, i + 1) + raw[k];
        i = k;
      } else out += raw.slice(from, i + 1) + newline(++level);
    } else if (ch === 0x7d /* } */ || ch === 0x5d /* ] */) out += raw.slice(from, i) + newline(--level) + raw[i];
    else if (isSpace(ch)) out += raw.slice(from, i);
    else continue;
    from = i + 1;
    if (out.length > cap) throw tooLarge(cap);
  }
  out += raw.slice(from);
  if (out.length > cap) throw tooLarge(cap);
  return out;
}

/**
 * A string token with each escape of a printable ASCII character written as the character
 * (`\\u0041` and `\\/` as `A` and `/`), as JSON.stringify writes it; the quote, the backslash,
 * control, non-ASCII and separator characters keep their escapes. The value is the same; the
 * text is the one the redactor knows: a key sent as `\\u006d\\u0066...` would otherwise reach
 * stdout and `--save` whole, for any JSON reader to decode.
 */
/** The string token opening at `open`: where it closes, and its text with plainEscapes where that differs. */
function stringAt(raw: string, open: number): { close: number; plain?: string } {
  const close = closingQuote(raw, open);
  const token = raw.slice(open, close + 1);
  const plain = token.includes('\\') ? plainEscapes(token) : token;
  return plain === token ? { close } : { close, plain };
}

const plainEscapes = (token: string): string =>
  token.replace(/\\(?:u([0-9A-Fa-f]{4})|(\/)|([\s\S]))/g, (written, hex: string | undefined, slash, other) => {
    if (other !== undefined) return written;
    if (slash !== undefined) return '/';
    const code = Number.parseInt(hex!, 16);
    return code >= 0x20 && code <= 0x7e && code !== 0x22 && code !== 0x5c ? String.fromCharCode(code) : written;
  });

/** Where the string opening at `open` ends: the next quote preceded by an even number of backslashes (-1: none). */
export function closingQuote(raw: string, open: number): number {
  let j = open;
  for (;;) {
    j = raw.indexOf('"', j + 1);
    let k = j - 1;
    while (raw.charCodeAt(k) === 0x5c) k--;
    if ((j - k) % 2 === 1) return j;
  }
}

/** Larger bodies go to the scan: the native path's compact copy may be ~5 times the body (1e20). */
const NATIVE_MAX = 1024 * 1024;

/**
 * The same text made by JSON.stringify, when that is provably the same: a body that is exactly
 * JSON.stringify's compact form of itself, give or take white space around it (no spaces,
 * keys in the order the engine keeps them, numbers in their shortest spelling), re-indents to
 * exactly JSON.stringify's indented form. Most bodies are written that way, and the native
 * path costs a tenth of the token scan. Undefined when it does not apply, or when the scan
 * could refuse the body (too deep, too large): then the scan does the work, and words any refusal.
 */
function nativeReindent(raw: string, value: unknown, depth: number, cap: number): string | undefined {
  if (value === null || typeof value !== 'object' || raw.length > NATIVE_MAX) return undefined;
  const levels = nonEmptyLevels(value, depth, MAX_JSON_DEPTH + depth);
  // Each token gains at most a newline and its indentation: within the cap, for certain.
  if (levels === undefined || raw.length * (2 * levels + 2) > cap) return undefined;
  // Around the value there can only be JSON's own white space (it parsed): not part of the form.
  if (JSON.stringify(value) !== raw.trim()) return undefined;
  const text = JSON.stringify(value, null, 2);
  return depth === 0 ? text : text.replaceAll('\n', indentOf(depth));
}

const indentOf = (level: number) => `\n${'  '.repeat(level)}`;

/**
 * The deepest level of a non-empty array or object, `level` being the value's own; undefined
 * past `limit`, where the walk stops, so its recursion is bounded.
 */
function nonEmptyLevels(value: unknown, level: number, limit: number): number | undefined {
  if (value === null || typeof value !== 'object') return level;
  const children = Array.isArray(value) ? value : Object.values(value);
  if (children.length === 0) return level;
  if (level + 1 > limit) return undefined;
  let deepest = level + 1;
  for (const child of children) {
    const below = nonEmptyLevels(child, level + 1, limit);
    if (below === undefined) return undefined;
    deepest = Math.max(deepest, below);
  }
  return deepest;
}

/** Several bodies as one JSON array, each as sent. */
export function jsonArrayOf(raws: string[], cap = MAX_JSON_OUTPUT): string {
  if (raws.length === 0) return '[]';
  let left = cap;
  const items = raws.map((r) => {
    const item = reindentJson(r, 1, left);
    left -= item.length;
    return `  ${item}`;
  });
  return `[\n${items.join(',\n')}\n]`;
}

/** A value we made ourselves (dry runs, local commands). */
export const stringifyJson = (value: unknown): string => escapeInvisibleJson(JSON.stringify(value, null, 2));

/**
 * A body on one line, as sent (a line of NDJSON): the white space between tokens removed, every
 * token (key order, numbers as written) kept, strings' escapes as --json writes them (an
 * escaped printable character as itself; C1, bidi and line separators escaped). Throws on text
 * that is not JSON.
 */
export function compactJson(raw: string): string {
  const value: unknown = JSON.parse(raw);
  const trimmed = raw.trim();
  // Most bodies come compact already: then they are their own compact form.
  if (raw.length <= NATIVE_MAX && JSON.stringify(value) === trimmed) return escapeInvisibleJson(trimmed);
  return escapeInvisibleJson(reindentTokens(raw, 0, Number.POSITIVE_INFINITY, true));
}
