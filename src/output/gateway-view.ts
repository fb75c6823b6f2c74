// The gateway's `data`, readably, whatever its shape (the seed does not fix it): the fields a
// reader looks for first (bias, confidence, drivers), lists of records as tables with
// directions coloured, everything else as key/value blocks. And the rate-limit and quota
// state from `meta`, as one line for stderr.
import { withAttribution } from './attribution.js';
import { renderBlock, renderRecords, formatScalar } from './document.js';
import { signalPaint } from './paint.js';
import { formatDuration, formatRate, isoToEpoch } from './format.js';
import type { Output } from './io.js';
import { clean } from './sanitize.js';
import { finiteNumber, isRecord, isScalar } from '../values.js';

type Obj = Record<string, unknown>;
const isRecordList = (v: unknown): v is Obj[] => Array.isArray(v) && v.length > 0 && v.every(isRecord);
const num = finiteNumber;

/** Shown first, in this order, when `data` has them (analyze). */
const LEAD_KEYS = ['symbol', 'timeframe', 'bias', 'confidence'] as const;
const DRIVERS_KEY = 'drivers';
function leadLines(out: Output, data: Obj, nowSeconds: number): string[] {
  const present = LEAD_KEYS.filter((k) => k in data && isScalar(data[k]));
  if (!present.some((k) => k === 'bias' || k === 'confidence') && !Array.isArray(data[DRIVERS_KEY])) return [];
  const width = Math.max(...present.map((k) => k.length));
  const lines = present.map((k) => {
    const v = data[k];
    let text = formatScalar(k, v, nowSeconds);
    // A confidence in 0..1 reads better as a percentage; anything else is shown as sent.
    if (k === 'confidence' && num(v) !== undefined && num(v)! >= 0 && num(v)! <= 1) text = formatRate(v, 0);
    const paint = k === 'bias' ? signalPaint(out, v) : undefined;
    return `${out.c.dim(k.padEnd(width))}  ${paint ? paint(text) : text}`;
  });
  const drivers = data[DRIVERS_KEY];
  if (Array.isArray(drivers)) {
    lines.push(out.c.bold(DRIVERS_KEY));
    if (drivers.length === 0) lines.push('  (none)');
    for (const d of drivers)
      lines.push(`  • ${isScalar(d) ? formatScalar('', d, nowSeconds) : clean(JSON.stringify(d))}`);
  }
  return lines;
}

/** Whatever `data` is, as lines: lead fields, then key/value blocks with record lists as tables. */
export function renderGatewayData(out: Output, data: unknown, nowSeconds: number): string {
  if (data === null || data === undefined) return '(no data)';
  if (isRecordList(data)) return renderRecords(out, data, nowSeconds);
  if (!isRecord(data)) return renderBlock(out, data, { nowSeconds }).join('\n');

  const lead = leadLines(out, data, nowSeconds);
  const shownFirst = new Set<string>(lead.length ? [...LEAD_KEYS, DRIVERS_KEY] : []);
  if (hasAttribution(data)) shownFirst.add('meta');
  const sections: string[][] = lead.length ? [lead] : [];
  let pending: Obj = {};
  const flush = () => {
    if (Object.keys(pending).length) sections.push(renderBlock(out, pending, { nowSeconds }));
    pending = {};
  };
  for (const [key, value] of Object.entries(data)) {
    if (shownFirst.has(key)) continue;
    if (isRecordList(value)) {
      flush();
      sections.push([out.c.bold(clean(key)), renderRecords(out, value, nowSeconds)]);
    } else {
      pending[key] = value;
    }
  }
  flush();
  return sections.map((lines) => lines.join('\n')).join('\n\n');
}

const hasAttribution = (data: Obj): boolean => isRecord(data.meta) && typeof data.meta.source === 'string';

/** The whole table output of one gateway answer; the attribution only when `data` carries one. */
export function renderGatewayResult(out: Output, envelope: unknown, fallbackNowSeconds: number): string {
  const body = isRecord(envelope) ? envelope : {};
  const generated = isRecord(body.meta) ? isoToEpoch(body.meta.generated_at) : undefined;
  const text = renderGatewayData(out, body.data, generated ?? fallbackNowSeconds);
  const data = body.data;
  if (isRecord(data) && hasAttribution(data)) return withAttribution(out, text, data.meta);
  return text;
}

// Names the seed leaves open; these are the ones services commonly use.
const LIMIT_KEYS = ['limit', 'max', 'total', 'quota'];
const REMAINING_KEYS = ['remaining', 'left', 'available'];
const USED_KEYS = ['used', 'consumed', 'count', 'requests'];
const RESET_SECONDS_KEYS = [
  'reset_s',
  'reset_in',
  'reset_in_s',
  'reset_after',
  'resets_in',
  'reset_seconds',
  'window_reset_s',
];
const RESET_AT_KEYS = ['reset_at', 'resets_at', 'reset', 'reset_t'];

function pick(obj: Obj, keys: readonly string[], taken: Set<string>): unknown {
  const key = keys.find((k) => k in obj && !taken.has(k));
  if (key === undefined) return undefined;
  taken.add(key);
  return obj[key];
}

function resetIn(obj: Obj, taken: Set<string>, nowSeconds: number): number | undefined {
  const inSeconds = num(pick(obj, RESET_SECONDS_KEYS, taken));
  if (inSeconds !== undefined) return inSeconds;
  const at = pick(obj, RESET_AT_KEYS, taken);
  // A small number is a countdown, a large one an epoch time, a string an ISO time.
  const n = num(at);
  if (n !== undefined) return n < 1_000_000_000 ? n : n - nowSeconds;
  const epoch = isoToEpoch(at);
  return epoch === undefined ? undefined : epoch - nowSeconds;
}

/** `58/60 left, resets in 42s`, from whichever fields are there; `prefer` says which count reads best. */
function describeCounter(value: unknown, prefer: 'left' | 'used', nowSeconds: number): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) return isScalar(value) ? clean(String(value)) : undefined;
  const taken = new Set<string>();
  const limit = num(pick(value, LIMIT_KEYS, taken));
  const remaining = num(pick(value, REMAINING_KEYS, taken));
  const used = num(pick(value, USED_KEYS, taken));
  const parts: string[] = [];
  const of = (n: number) => (limit === undefined ? String(n) : `${n}/${limit}`);
  if (prefer === 'left' ? remaining !== undefined : used === undefined && remaining !== undefined)
    parts.push(`${of(remaining!)} left`);
  else if (used !== undefined) parts.push(`${of(used)} used`);
  else if (limit !== undefined) parts.push(`limit ${limit}`);
  const reset = resetIn(value, taken, nowSeconds);
  if (reset !== undefined) parts.push(reset > 0 ? `resets in ${formatDuration(reset)}` : 'resets now');
  for (const [k, v] of Object.entries(value)) {
    if (!taken.has(k) && v !== null && isScalar(v)) parts.push(`${clean(k)} ${clean(String(v))}`);
  }
  return parts.length ? parts.join(', ') : undefined;
}

/**
 * `rate limit 58/60 left, resets in 42s · daily quota 12/1000 used`, or undefined when
 * `meta` says nothing about either (error envelopes carry only the request id).
 */
export function describeUsage(meta: unknown, nowSeconds: number): string | undefined {
  if (!isRecord(meta)) return undefined;
  const generated = isoToEpoch(meta.generated_at) ?? nowSeconds;
  const parts: string[] = [];
  const rate = describeCounter(meta.rate_limit, 'left', generated);
  if (rate) parts.push(`rate limit ${rate}`);
  const quota = describeCounter(meta.daily_quota, 'used', generated);
  if (quota) parts.push(`daily quota ${quota}`);
  return parts.length ? parts.join(' · ') : undefined;
}
