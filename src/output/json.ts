// `--json` prints the body as the server sent it: no field added, removed or reordered, and
// numbers as written. JSON.parse + stringify would reorder integer-like keys and rewrite
// numbers (1.10 -> 1.1), so the raw text is re-indented token by token instead.
import { BadResponseError } from '../errors.js';
import { MAX_JSON_DEPTH, NestedTooDeeplyError } from '../values.js';

/** What `--json` may write: a small body must never turn into hundreds of megabytes of indentation. */
const MAX_JSON_OUTPUT = 64 * 1024 * 1024;

const tooLarge = (cap: number) =>
  new BadResponseError(`the response would print as more than ${Math.round(cap / 1024 / 1024)} MiB of JSON; not shown`);

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * Re-indents valid JSON text with two spaces, starting at `depth`. Throws on invalid JSON, on
 * nesting deeper than MAX_JSON_DEPTH, and when the result would exceed `cap` characters: the
 * whole text is built before anything is written, so nothing goes out when it throws.
 * Linear in the input: indentation strings are made once per level, not once per line.
 */
export function reindentJson(raw: string, depth = 0, cap = MAX_JSON_OUTPUT): string {
  JSON.parse(raw); // the caller promised valid JSON; make sure before trusting the tokens
  const indents: string[] = [];
  const newline = (level: number): string => {
    if (level > MAX_JSON_DEPTH + depth) throw new NestedTooDeeplyError();
    indents[level] ??= `\n${'  '.repeat(level)}`;
    return indents[level]!;
  };
  const parts: string[] = [];
  let size = 0;
  const emit = (text: string) => {
    size += text.length;
    if (size > cap) throw tooLarge(cap);
    parts.push(text);
  };
  let level = depth;
  let i = 0;
  while (i < raw.length) {
    const ch = raw.charCodeAt(i);
    if (ch === 0x22 /* " */) {
      let j = i + 1;
      while (raw.charCodeAt(j) !== 0x22) j += raw.charCodeAt(j) === 0x5c ? 2 : 1;
      emit(raw.slice(i, j + 1));
      i = j + 1;
    } else if (isSpace(ch)) {
      i++;
    } else if (ch === 0x7b /* { */ || ch === 0x5b /* [ */) {
      const close = ch === 0x7b ? '}' : ']';
      let k = i + 1;
      while (isSpace(raw.charCodeAt(k))) k++;
      if (raw[k] === close) {
        emit(raw[i]! + close);
        i = k + 1;
        continue;
      }
      level++;
      emit(raw[i]! + newline(level));
      i++;
    } else if (ch === 0x7d /* } */ || ch === 0x5d /* ] */) {
      level--;
      emit(newline(level) + raw[i]!);
      i++;
    } else if (ch === 0x2c /* , */) {
      emit(`,${newline(level)}`);
      i++;
    } else if (ch === 0x3a /* : */) {
      emit(': ');
      i++;
    } else {
      // A number, true, false or null: copied as one run.
      let j = i + 1;
      while (j < raw.length && /[^\s,:{}[\]"]/.test(raw[j]!)) j++;
      emit(raw.slice(i, j));
      i = j;
    }
  }
  return parts.join('');
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
export const stringifyJson = (value: unknown): string => JSON.stringify(value, null, 2);
