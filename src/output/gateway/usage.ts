// The gateway's usage counters (meta.rate_limit, meta.daily_quota), told on stderr after any
// result, --json included: apart from the views, so that a run that renders no table does not
// load them (eight views and their schemas: docs/decisions/2026-11-23-startup-figures.md).
import { clean } from '../sanitize.js';
import { isRecord, isScalar } from '../../core/values.js';

/** `limit 60, remaining 58, reset_s 42`: the fields as the gateway names them (the seed does not). */
function describeCounter(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) return isScalar(value) ? clean(String(value)) : undefined;
  const parts = Object.entries(value)
    .filter(([, v]) => v !== null && isScalar(v))
    .map(([k, v]) => `${clean(k)} ${clean(String(v))}`);
  return parts.length ? parts.join(', ') : undefined;
}

/** A counter is low when what is left is at most a tenth of its limit, or at most 5 requests. */
export const LOW_SHARE = 0.1;
export const LOW_COUNT = 5;

/**
 * Whether a counter is running out: `remaining` (or `limit` minus `used`) at most a tenth of
 * `limit` or at most LOW_COUNT. A counter in other terms (names the seed does not give) is
 * never judged low: it is shown with --verbose only.
 */
export function isLow(value: unknown): boolean {
  if (!isRecord(value)) return false;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  const limit = num(value.limit);
  const used = num(value.used);
  const left = num(value.remaining) ?? (limit !== undefined && used !== undefined ? limit - used : undefined);
  if (left === undefined) return false;
  return left <= LOW_COUNT || (limit !== undefined && left <= limit * LOW_SHARE);
}

/**
 * `rate limit: limit 60, remaining 58, reset_s 42` and `daily quota: limit 1000, used 2` (a line
 * each, so that both fit a narrow terminal), or
 * undefined when `meta` says nothing about either (error envelopes carry only the request id).
 * Quiet by default: without `all` (--verbose), only a counter that is running out is told.
 */
export function describeUsage(meta: unknown, opts: { all?: boolean } = { all: true }): string | undefined {
  if (!isRecord(meta)) return undefined;
  const parts: string[] = [];
  const shown = (value: unknown) => opts.all === true || isLow(value);
  const rate = describeCounter(meta.rate_limit);
  if (rate && shown(meta.rate_limit)) parts.push(`rate limit: ${rate}`);
  const quota = describeCounter(meta.daily_quota);
  if (quota && shown(meta.daily_quota)) parts.push(`daily quota: ${quota}`);
  return parts.length ? parts.join('\n') : undefined;
}
