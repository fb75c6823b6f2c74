// A body's JSON read for --format csv|tsv: like JSON.parse, except that each number keeps the
// text it was sent as. JSON.parse turns `1.50` into 1.5, `1e2` into 100 and an id past 2^53
// into a neighbour; --json prints the text as sent, and a CSV cell of the same field must say
// the same, so a number here is a NumberText holding its token. Objects have no prototype (a
// key `__proto__` is a key like any other), and a repeated key keeps its first place and its
// last value, as with JSON.parse. The text is valid JSON: the client has parsed it already.
import { BadResponseError } from '../../core/errors.js';
import { MAX_JSON_DEPTH, NestedTooDeeplyError } from '../../core/values.js';
import { closingQuote } from '../json.js';

/** A JSON number as the body wrote it: `-0.19`, `1.50`, `1E+2`. */
export class NumberText {
  constructor(readonly text: string) {}
  /** The number the text stands for, as JSON.parse reads it. */
  get value(): number {
    return Number(this.text);
  }
}

export type JsonValue = null | boolean | string | NumberText | JsonValue[] | { [key: string]: JsonValue };

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

class Reader {
  i = 0;
  constructor(readonly text: string) {}

  fail(): never {
    throw new BadResponseError('the response is not valid JSON');
  }

  space(): void {
    const t = this.text;
    for (;;) {
      const c = t.charCodeAt(this.i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.i++;
      else return;
    }
  }

  value(depth: number): JsonValue {
    this.space();
    const t = this.text;
    const c = t[this.i];
    if (c === '{' || c === '[') {
      if (depth >= MAX_JSON_DEPTH) throw new NestedTooDeeplyError();
      return c === '{' ? this.object(depth + 1) : this.array(depth + 1);
    }
    if (c === '"') return this.string();
    if (t.startsWith('true', this.i)) return this.literal(4, true);
    if (t.startsWith('false', this.i)) return this.literal(5, false);
    if (t.startsWith('null', this.i)) return this.literal(4, null);
    NUMBER.lastIndex = this.i;
    const m = NUMBER.exec(t);
    if (!m) this.fail();
    this.i += m[0].length;
    return new NumberText(m[0]);
  }

  literal<T>(length: number, value: T): T {
    this.i += length;
    return value;
  }

  /** To the closing quote (one preceded by an even run of backslashes); JSON.parse decodes the escapes. */
  string(): string {
    const j = closingQuote(this.text, this.i);
    if (j < 0) this.fail();
    const s = JSON.parse(this.text.slice(this.i, j + 1)) as string;
    this.i = j + 1;
    return s;
  }

  /** After `[` or `{`: true (and past it) when the container closes at once. */
  closes(close: string): boolean {
    this.i++;
    this.space();
    if (this.text[this.i] !== close) return false;
    this.i++;
    return true;
  }

  /** After an element: true at the closing bracket, false at a comma. */
  ends(close: string): boolean {
    this.space();
    const c = this.text[this.i++];
    if (c === close) return true;
    if (c !== ',') this.fail();
    return false;
  }

  array(depth: number): JsonValue[] {
    const items: JsonValue[] = [];
    if (this.closes(']')) return items;
    do items.push(this.value(depth));
    while (!this.ends(']'));
    return items;
  }

  object(depth: number): { [key: string]: JsonValue } {
    const o = Object.create(null) as { [key: string]: JsonValue };
    if (this.closes('}')) return o;
    do {
      this.space();
      if (this.text[this.i] !== '"') this.fail();
      const key = this.string();
      this.space();
      if (this.text[this.i++] !== ':') this.fail();
      o[key] = this.value(depth);
    } while (!this.ends('}'));
    return o;
  }
}

/** The JSON text read with its numbers as sent (the client has already dropped a byte-order mark). */
export function parseNumbersAsSent(raw: string): JsonValue {
  const reader = new Reader(raw);
  const value = reader.value(0);
  reader.space();
  if (reader.i !== reader.text.length) reader.fail();
  return value;
}
