// Any JSON document, readably, for bodies whose fields the seed does not fix (discovery,
// verify, gateway data): nested objects as indented key/value blocks, arrays of records as
// tables, epoch seconds as UTC times with their age.
import { serverNow, withAttribution } from './attribution.js';
import { DASH, formatTimeWithAge } from './format.js';
import type { Output } from './io.js';
import { clean } from './sanitize.js';
import { paintByKey } from './paint.js';
import { renderTable, type Cell } from './table.js';
import { isRecord, isScalar } from '../values.js';

// 2001-09-09 .. 2096: numbers in this range under a time-like key are epoch seconds.
const EPOCH_MIN = 1_000_000_000;
const EPOCH_MAX = 4_000_000_000;
const TIME_KEY = /(^|_)(t|ts|time|at|date)$|_t$|^server_t$|timestamp/i;

export function formatScalar(key: string, value: unknown, nowSeconds: number): string {
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
  if (typeof value === 'string') return clean(value);
  return String(value);
}

export interface DocumentOptions {
  /** Top-level keys not to show (meta is shown as the footer). */
  skip?: string[];
  nowSeconds: number;
}

export function renderBlock(out: Output, value: unknown, opts: DocumentOptions, indent = 0): string[] {
  const pad = '  '.repeat(indent);
  const lines: string[] = [];
  if (Array.isArray(value)) {
    if (value.length === 0) return [`${pad}(none)`];
    if (value.every(isScalar)) return [pad + value.map((v) => formatScalar('', v, opts.nowSeconds)).join(', ')];
    if (value.every(isRecord))
      return renderRecords(out, value, opts.nowSeconds)
        .split('\n')
        .map((l) => pad + l);
    value.forEach((item, i) => {
      lines.push(`${pad}${out.c.dim(`[${i + 1}]`)}`, ...renderBlock(out, item, opts, indent + 1));
    });
    return lines;
  }
  if (!isRecord(value)) return [pad + formatScalar('', value, opts.nowSeconds)];
  const entries = Object.entries(value).filter(([k]) => indent > 0 || !(opts.skip ?? []).includes(k));
  const inline = (v: unknown) => isScalar(v) || (Array.isArray(v) && v.every(isScalar));
  const width = Math.max(0, ...entries.filter(([, v]) => inline(v)).map(([k]) => clean(k).length));
  for (const [key, v] of entries) {
    const name = clean(key);
    if (isScalar(v)) {
      lines.push(`${pad}${out.c.dim(name.padEnd(width))}  ${formatScalar(key, v, opts.nowSeconds)}`);
    } else if (Array.isArray(v) && v.every(isScalar)) {
      lines.push(
        `${pad}${out.c.dim(name.padEnd(width))}  ${v.length ? v.map((x) => formatScalar(key, x, opts.nowSeconds)).join(', ') : '(none)'}`,
      );
    } else {
      lines.push(`${pad}${out.c.bold(name)}`, ...renderBlock(out, v, opts, indent + 1));
    }
  }
  return lines;
}

/** Records as a table, signals and changes coloured; nested values are shown compactly as JSON. */
export function renderRecords(out: Output, records: Array<Record<string, unknown>>, nowSeconds: number): string {
  const keys: string[] = [];
  for (const r of records) for (const k of Object.keys(r)) if (!keys.includes(k)) keys.push(k);
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
    keys.map((k, i) => ({ header: k, align: numeric[i] ? 'right' : 'left' })),
    rows,
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
