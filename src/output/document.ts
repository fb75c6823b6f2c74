// Any JSON document, readably, for bodies whose fields the seed does not fix (discovery,
// verify, gateway data): nested objects as indented key/value blocks, arrays of records as
// tables, epoch seconds as UTC times with their age.
import { serverNow, withAttribution } from './attribution.js';
import { DASH, formatTimeWithAge, isoToEpoch } from './format.js';
import type { Output } from './io.js';
import { clean } from './sanitize.js';
import { paintByKey } from './paint.js';
import { renderTable, textWidth, wrapIndented, type Cell } from './table.js';
import { isRecord, isScalar, maxOf } from '../core/values.js';

// 2001-09-09 .. 2096: numbers in this range under a time-like key are epoch seconds.
const EPOCH_MIN = 1_000_000_000;
const EPOCH_MAX = 4_000_000_000;
const MAX_KEY_PAD = 32;
const TIME_KEY = /(^|_)(t|ts|time|at|date)$|_t$|^server_t$|timestamp/i;

function formatScalar(key: string, value: unknown, nowSeconds: number): string {
  if (value === null || value === undefined) return DASH;
  if (
    typeof value === 'number' &&
    TIME_KEY.test(key) &&
    Number.isInteger(value) &&
    value > EPOCH_MIN &&
    value < EPOCH_MAX
  ) {
    return formatTimeWithAge(value, nowSeconds);
  }
  // An ISO date-time under a time-like key (settled_at) reads as the epoch times do: UTC, with its age.
  if (typeof value === 'string' && TIME_KEY.test(key) && ISO_DATE_TIME.test(value)) {
    const epoch = isoToEpoch(value);
    if (epoch !== undefined) return formatTimeWithAge(epoch, nowSeconds);
  }
  if (typeof value === 'string') return clean(value);
  return String(value);
}

/** `2025-01-06T04:51:00Z`, with seconds, fractions or an offset: a date alone is left as written. */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

export interface DocumentOptions {
  /** Top-level keys not to show (meta is shown as the footer). */
  skip?: string[];
  nowSeconds: number;
}

export function renderBlock(out: Output, value: unknown, opts: DocumentOptions, indent = 0): string[] {
  const lines: string[] = [];
  appendBlock(lines, out, value, opts, indent);
  return lines;
}

/** Appends to one array (no spreading of a child's lines into push: a long array would overflow the stack). */
function appendBlock(lines: string[], out: Output, value: unknown, opts: DocumentOptions, indent: number): void {
  const pad = '  '.repeat(indent);
  if (Array.isArray(value)) {
    if (value.length === 0) lines.push(`${pad}(none)`);
    else if (value.every(isScalar)) lines.push(pad + value.map((v) => formatScalar('', v, opts.nowSeconds)).join(', '));
    else if (value.every(isRecord)) {
      for (const line of renderRecords(out, value, opts.nowSeconds, pad.length).split('\n')) lines.push(pad + line);
    } else {
      value.forEach((item, i) => {
        lines.push(`${pad}${out.c.dim(`[${i + 1}]`)}`);
        appendBlock(lines, out, item, opts, indent + 1);
      });
    }
    return;
  }
  if (!isRecord(value)) {
    lines.push(pad + formatScalar('', value, opts.nowSeconds));
    return;
  }
  const skip = new Set(indent > 0 ? [] : opts.skip);
  const entries = Object.entries(value).filter(([k]) => !skip.has(k));
  const inline = (v: unknown) => isScalar(v) || (Array.isArray(v) && v.every(isScalar));
  // A very long key is not allowed to pad every other line out to its length.
  const width = Math.min(MAX_KEY_PAD, maxOf(entries.filter(([, v]) => inline(v)).map(([k]) => clean(k).length)));
  // A long value wraps on a terminal, each line at the value's column.
  const valueAt = pad.length + width + 2;
  const pair = (name: string, text: string) =>
    `${pad}${out.c.dim(name.padEnd(width))}  ${wrapIndented(text, textWidth(out), valueAt)}`;
  for (const [key, v] of entries) {
    const name = clean(key);
    if (isScalar(v)) {
      lines.push(pair(name, formatScalar(key, v, opts.nowSeconds)));
    } else if (Array.isArray(v) && v.every(isScalar)) {
      lines.push(pair(name, v.length ? v.map((x) => formatScalar(key, x, opts.nowSeconds)).join(', ') : '(none)'));
    } else {
      lines.push(`${pad}${out.c.bold(name)}`);
      appendBlock(lines, out, v, opts, indent + 1);
    }
  }
}

/** Records as a table, signals and changes coloured; nested values are shown compactly as JSON. */
export function renderRecords(
  out: Output,
  records: Array<Record<string, unknown>>,
  nowSeconds: number,
  indent = 0,
): string {
  const seen = new Set<string>();
  for (const r of records) for (const k of Object.keys(r)) seen.add(k);
  const keys = [...seen];
  const numeric = keys.map((k) =>
    records.every((r) => r[k] === undefined || r[k] === null || typeof r[k] === 'number'),
  );
  const rows = records.map((r) =>
    keys.map((k): Cell => {
      const v = r[k];
      if (v === undefined) return '';
      if (isScalar(v)) return { text: formatScalar(k, v, nowSeconds), paint: paintByKey(out, k, v) };
      if (Array.isArray(v) && v.every(isScalar)) return v.map((x) => formatScalar(k, x, nowSeconds)).join(', ');
      return JSON.stringify(v);
    }),
  );
  return renderTable(
    out,
    // Column names are keys the server chose: cleaned like any other server text.
    // A time column (epoch seconds, shown as a UTC time and its age) reads left to right, as text.
    keys.map((k, i) => ({ header: clean(k), align: numeric[i] && !TIME_KEY.test(k) ? 'right' : 'left' })),
    rows,
    indent,
  );
}

export function renderDocument(
  out: Output,
  body: unknown,
  nowSeconds: number,
  skip: string[] = ['ok', 'meta'],
): string {
  const meta = isRecord(body) ? body.meta : undefined;
  const lines = renderBlock(out, body, { skip, nowSeconds: serverNow(meta, nowSeconds) });
  return withAttribution(out, lines.join('\n'), meta);
}

/** A body judged against its schema: the parsed type when it matched, anything when it did not. */
export interface Checked<T> {
  body: T;
  wellFormed: boolean;
}

/**
 * The one decision every command makes before rendering: a body that matched its schema goes
 * to its own renderer, any other (already warned about) to the generic document renderer.
 * Should a renderer still fail on a body its schema accepted, the body is shown as a document
 * too, with a warning: a server's answer never ends the command with an internal error.
 */
export function renderChecked<T>(
  out: Output,
  res: Checked<T>,
  nowSeconds: number,
  render: (body: T) => string,
): string {
  if (res.wellFormed) {
    try {
      return render(res.body);
    } catch (err) {
      out.warn(`${RENDER_FAILED} (${err instanceof Error ? err.message : String(err)}); shown as a document`);
      if (err instanceof Error && err.stack) out.debug(err.stack);
    }
  }
  return renderDocument(out, res.body, nowSeconds);
}

/** The start of the warning given when a renderer failed on a body its schema accepted (tests look for it). */
export const RENDER_FAILED = 'the response could not be shown in its usual form';
