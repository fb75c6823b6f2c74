// `--json` prints the body as the server sent it: no field added, removed or reordered, and
// numbers as written. JSON.parse + stringify would reorder integer-like keys and rewrite
// numbers (1.10 -> 1.1), so the raw text is re-indented token by token instead.

/** Re-indents valid JSON text with two spaces, starting at `depth`. Throws on invalid JSON. */
export function reindentJson(raw: string, depth = 0): string {
  JSON.parse(raw); // the caller promised valid JSON; make sure before trusting the tokens
  let out = '';
  let level = depth;
  let i = 0;
  const newline = () => `\n${'  '.repeat(level)}`;
  while (i < raw.length) {
    const ch = raw[i]!;
    if (ch === '"') {
      let j = i + 1;
      while (raw[j] !== '"') j += raw[j] === '\\' ? 2 : 1;
      out += raw.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (ch === ' ' || ch === '\n' || ch === '\r' || ch === '\t') {
      i++;
      continue;
    }
    if (ch === '{' || ch === '[') {
      const close = ch === '{' ? '}' : ']';
      let k = i + 1;
      while (raw[k] === ' ' || raw[k] === '\n' || raw[k] === '\r' || raw[k] === '\t') k++;
      if (raw[k] === close) {
        out += ch + close;
        i = k + 1;
        continue;
      }
      level++;
      out += ch + newline();
    } else if (ch === '}' || ch === ']') {
      level--;
      out += newline() + ch;
    } else if (ch === ',') {
      out += `,${newline()}`;
    } else if (ch === ':') {
      out += ': ';
    } else {
      out += ch;
    }
    i++;
  }
  return out;
}

/** Several bodies as one JSON array, each as sent. */
export function jsonArrayOf(raws: string[]): string {
  if (raws.length === 0) return '[]';
  return `[\n${raws.map((r) => `  ${reindentJson(r, 1)}`).join(',\n')}\n]`;
}

/** A value we made ourselves (dry runs, local commands). */
export const stringifyJson = (value: unknown): string => JSON.stringify(value, null, 2);
