// A reader of the YAML that action.yml and the docs' workflows are written in, no more: block
// mappings and sequences by indentation, `key: |` literal blocks, plain and double- or
// single-quoted scalars, `{ a: b }` flow maps of plain scalars, and whole-line comments.
// Anything else throws, so that a file outgrowing it fails its test rather than reads wrong.

export type Yaml = string | Yaml[] | { [key: string]: Yaml };

interface Line {
  indent: number;
  text: string;
  /** 0-based line number, for messages and literal blocks. */
  n: number;
}

export function parseYaml(source: string): Yaml {
  const raw = source.split('\n');
  const lines: Line[] = [];
  raw.forEach((line, n) => {
    if (line.trim() === '' || line.trim().startsWith('#')) return;
    lines.push({ indent: line.length - line.trimStart().length, text: line.trim(), n });
  });
  let i = 0;

  function scalar(text: string, n: number): Yaml {
    if (text.startsWith('"')) return JSON.parse(text) as string;
    if (text.startsWith("'")) return text.slice(1, -1).replaceAll("''", "'");
    if (text.startsWith('{')) {
      const inner = text.slice(1, -1).trim();
      if (inner === '') return {};
      return Object.fromEntries(
        inner.split(',').map((pair) => {
          const [k, ...v] = pair.split(':');
          return [k!.trim(), scalar(v.join(':').trim(), n)];
        }),
      );
    }
    if (/^[[&*!|>%@`]/.test(text)) throw new Error(`line ${n + 1}: unsupported YAML: ${text}`);
    return text.replace(/\s+#.*$/, '');
  }

  /** A `|` block: the lines more indented than `parent`, blank ones kept, as text with a final newline. */
  function literal(parent: number, after: number): string {
    const body: string[] = [];
    let n = after + 1;
    for (; n < raw.length; n++) {
      const line = raw[n]!;
      if (line.trim() !== '' && line.length - line.trimStart().length <= parent) break;
      body.push(line);
    }
    while (body.length && body.at(-1)!.trim() === '') body.pop();
    const cut = Math.min(...body.filter((l) => l.trim() !== '').map((l) => l.length - l.trimStart().length));
    while (i < lines.length && lines[i]!.n < n) i++;
    return `${body.map((l) => l.slice(cut)).join('\n')}\n`;
  }

  /** `key: value` (or `key:` and a block, or `key: |`) into `map`. */
  function entry(map: Record<string, Yaml>, text: string, indent: number, n: number): void {
    const m = /^([\w.-]+|"[^"]*"):(?:\s+(.*))?$/.exec(text);
    if (!m) throw new Error(`line ${n + 1}: not a key: ${text}`);
    const key = m[1]!.startsWith('"') ? (JSON.parse(m[1]!) as string) : m[1]!;
    const value = m[2];
    if (value === '|' || value === '|-') {
      const text = literal(indent, n);
      map[key] = value === '|-' ? text.slice(0, -1) : text;
    } else if (value === undefined || value === '') map[key] = block(indent);
    else map[key] = scalar(value, n);
  }

  /** The block more indented than `parent`: a mapping or a sequence. */
  function block(parent: number): Yaml {
    const first = lines[i];
    if (!first || first.indent <= parent) return '';
    const indent = first.indent;
    if (first.text.startsWith('- ') || first.text === '-') {
      const list: Yaml[] = [];
      while (i < lines.length && lines[i]!.indent === indent && lines[i]!.text.startsWith('-')) {
        const { text, n } = lines[i++]!;
        const rest = text.slice(1).trim();
        if (/^[\w.-]+:(\s|$)/.test(rest)) {
          // A mapping whose first key shares the dash's line; its other keys line up with it.
          const map: Record<string, Yaml> = {};
          const inner = indent + 2;
          entry(map, rest, inner, n);
          while (i < lines.length && lines[i]!.indent === inner) {
            const next = lines[i++]!;
            entry(map, next.text, inner, next.n);
          }
          list.push(map);
        } else list.push(rest === '' ? block(indent) : scalar(rest, n));
      }
      return list;
    }
    const map: Record<string, Yaml> = {};
    while (i < lines.length && lines[i]!.indent === indent) {
      const { text, n } = lines[i++]!;
      entry(map, text, indent, n);
    }
    if (i < lines.length && lines[i]!.indent > indent)
      throw new Error(`line ${lines[i]!.n + 1}: unexpected indentation`);
    return map;
  }

  const doc = block(-1);
  if (i < lines.length) throw new Error(`line ${lines[i]!.n + 1}: unexpected: ${lines[i]!.text}`);
  return doc;
}
