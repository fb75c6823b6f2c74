// The one place that turns bodies into records for --format csv|tsv: a header row and one row
// per natural record. A column is named by the field's path joined with dots: inside the record
// for the record's own fields (`ia3.p_long`, `outcomes.win`, `resolved_win_rate_ci95.0`), from
// the body's root for the fields around it (`symbol`, `price.last`, `protocol.id`), so that a
// name is the one a user reads in --json. Columns are the same for every row of a table: the
// known ones of the table, always there (empty where a row lacks one), in their documented
// order; then any other field, in the order first seen; then `source`, the attribution. Each
// field holding epoch seconds gets an ISO 8601 UTC twin right after it, named `<name>_iso`.
// Cells are as sent: text as text (the writer cleans and escapes it), numbers as their JSON
// text, true/false, and null or absent as an empty cell.
import { isoSeconds } from '../../core/instant.js';
import { MAX_EPOCH_S } from '../../core/values.js';
import type { Cell } from './delimited.js';
import { NumberText, type JsonValue } from './json-text.js';

export interface RecordTable {
  header: string[];
  rows: Cell[][];
}

/** A table's known columns: always there, in this order; the epoch ones get an `_iso` twin. */
export interface Layout {
  known: readonly string[];
  epochs: readonly string[];
}

type Leaf = string | boolean | null | NumberText | number;

/** One row's fields by column name, in the order they were put. */
export class Fields {
  readonly byName = new Map<string, Leaf>();

  /** A leaf under `name`; a name already taken in this row (`a.b` and {a: {b}}) gets `~2`, `~3`. */
  put(name: string, value: Leaf): void {
    let unique = name;
    // `source` is the attribution's: a field of that name is `source~2`.
    for (let n = 2; this.byName.has(unique) || unique === SOURCE; n++) unique = `${name}~${n}`;
    this.byName.set(unique, value);
  }

  /** Every leaf of `value` under `name`, objects and arrays walked (an array's items by index). */
  add(name: string, value: unknown): void {
    if (value instanceof NumberText || value === null || typeof value !== 'object') {
      this.put(name, value === undefined ? null : (value as Leaf));
      return;
    }
    const join = (key: string) => (name === '' ? key : `${name}.${key}`);
    const entries = Array.isArray(value) ? value.entries() : Object.entries(value);
    for (const [key, item] of entries) this.add(join(String(key)), item);
  }

  /** The fields of a record: its own keys at the top; a record that is no object is one column, `value`. */
  addRecord(record: unknown): void {
    if (record !== null && typeof record === 'object' && !(record instanceof NumberText)) this.add('', record);
    else this.add('value', record);
  }
}

/** The attribution column, last in every table. */
export const SOURCE = 'source';

// Under a name like these, an integer of 2001..2096 is taken for epoch seconds, as the tables do.
const TIME_NAME = /(^|_)(t|ts|time|at|date)$|_t$|timestamp/i;
const GUESSED_EPOCH: readonly [number, number] = [1_000_000_000, 4_000_000_000];
// What the schemas accept as an epoch: 1970 to the end of year 9999.
const KNOWN_EPOCH: readonly [number, number] = [0, MAX_EPOCH_S];

function epochOf(value: Leaf | undefined, [min, max]: readonly [number, number]): number | undefined {
  const n = value instanceof NumberText ? value.value : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= min && n <= max ? n : undefined;
}

const lastSegment = (name: string): string => name.slice(name.lastIndexOf('.') + 1).replace(/~\d+$/, '');

function cellOf(value: Leaf | undefined): Cell {
  if (value instanceof NumberText) return { number: value.text };
  return value ?? null;
}

/**
 * The rows as one table: the layout's known columns, then the others in the order first seen,
 * each epoch column followed by its ISO twin, then the attribution (one per row, from
 * `sources`). An unknown column is taken for epoch seconds when its name says time and some
 * row holds an integer of 2001..2096 there, as the terminal tables judge it.
 */
export function tableOf(rows: readonly Fields[], sources: readonly unknown[], layout: Layout): RecordTable {
  const names: string[] = [...layout.known];
  const seen = new Set(names);
  seen.add(SOURCE);
  // A null where known columns hang (`resolved_win_rate_ci95: null`) is those columns left
  // empty, not a column more; anything else there is kept.
  const parents = new Set(layout.known.flatMap((k) => [...k.matchAll(/\./g)].map((m) => k.slice(0, m.index))));
  for (const row of rows)
    for (const [name, value] of row.byName)
      if (!seen.has(name) && !(value === null && parents.has(name))) {
        seen.add(name);
        names.push(name);
      }
  const known = new Set(layout.epochs);
  const columns: Array<{ name: string; read: (row: Fields) => Cell }> = [];
  for (const name of names) {
    columns.push({ name, read: (row) => cellOf(row.byName.get(name)) });
    const range = known.has(name) ? KNOWN_EPOCH : TIME_NAME.test(lastSegment(name)) ? GUESSED_EPOCH : undefined;
    if (!range) continue;
    if (!known.has(name) && !rows.some((row) => epochOf(row.byName.get(name), range) !== undefined)) continue;
    let twin = `${name}_iso`;
    for (let n = 2; seen.has(twin); n++) twin = `${name}_iso~${n}`;
    seen.add(twin);
    columns.push({
      name: twin,
      read: (row) => {
        const epoch = epochOf(row.byName.get(name), range);
        return epoch === undefined ? null : isoSeconds(epoch);
      },
    });
  }
  return {
    header: [...columns.map((c) => c.name), SOURCE],
    rows: rows.map((row, i) => [...columns.map((c) => c.read(row)), textOf(sources[i])]),
  };
}

const textOf = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** An object's entries, or none: bodies are read defensively, whatever their shape. */
export function entriesOf(value: JsonValue | undefined): Array<[string, JsonValue]> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof NumberText)
    ? Object.entries(value)
    : [];
}

/** A field of an object, or undefined. */
export function fieldOf(value: JsonValue | undefined, key: string): JsonValue | undefined {
  return value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    !(value instanceof NumberText) &&
    Object.hasOwn(value, key)
    ? value[key]
    : undefined;
}

/** `meta.source` of a body, the attribution the licence asks for. */
export const attributionOf = (body: JsonValue | undefined): unknown => fieldOf(fieldOf(body, 'meta'), 'source');
