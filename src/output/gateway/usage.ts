// The gateway's usage counters (meta.rate_limit, meta.daily_quota), told on stderr after any
// result, --json included: apart from the views, so that a run that renders no table does not
// load them (eight views and their schemas, ~10 ms).
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

/**
 * `rate limit: limit 60, remaining 58, reset_s 42` and `daily quota: limit 1000, used 2` (a line
 * each, so that both fit a narrow terminal), or
 * undefined when `meta` says nothing about either (error envelopes carry only the request id).
 */
export function describeUsage(meta: unknown): string | undefined {
  if (!isRecord(meta)) return undefined;
  const parts: string[] = [];
  const rate = describeCounter(meta.rate_limit);
  if (rate) parts.push(`rate limit: ${rate}`);
  const quota = describeCounter(meta.daily_quota);
  if (quota) parts.push(`daily quota: ${quota}`);
  return parts.length ? parts.join('\n') : undefined;
}
