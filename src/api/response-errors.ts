// Turns an error response into an ApiError: problem+json for REST, the failure envelope for
// the gateway, or just the status when the body is neither. This file also holds the one
// table of hints by status, for REST and gateway alike.
import { STATUS_CODES } from 'node:http';
import { ApiError, type ApiErrorDetails, amend, ExitCode } from '../core/errors.js';
import { isRecord } from '../core/values.js';

export const statusText = (status: number): string => STATUS_CODES[status] ?? '';

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** Whether a body is one the API writes: problem+json, or the gateway's envelope. */
function isApiErrorBody(body: unknown): boolean {
  if (!isRecord(body)) return false;
  if (typeof body.ok === 'boolean' || isRecord(body.error)) return true;
  return typeof body.title === 'string' || typeof body.type === 'string' || typeof body.detail === 'string';
}

/** What an error body says, whatever its kind; `body` is undefined when it was not JSON. */
function describeErrorBody(status: number, body: unknown): ApiErrorDetails {
  const details: ApiErrorDetails = { status };
  if (body !== undefined) details.body = body;
  if (isRecord(body)) {
    if (isRecord(body.error)) {
      // The gateway's envelope: error.code / message / retry_after, meta.request_id.
      details.title = str(body.error.code);
      details.detail = str(body.error.message);
      if (typeof body.error.retry_after === 'number' && body.error.retry_after > 0)
        details.retryAfter = body.error.retry_after;
    } else {
      details.title = str(body.title);
      details.detail = str(body.detail);
    }
    if (isRecord(body.meta)) details.requestId = str(body.meta.request_id);
  }
  details.title ??= statusText(status) || undefined;
  return details;
}

/** Where the key that was sent came from: the gateway key's source, or the REST key's. */
export interface SentKey {
  kind: 'gateway' | 'rest';
  source: string;
}

/** What the request was, so that a hint can name the real mistake. */
export interface HintContext {
  gateway?: { command: string; scope: string; key?: SentKey };
  /** A REST call about one symbol: a 404 then means the symbol is unknown. */
  symbol?: boolean;
}

const GATEWAY_KEY_SETTINGS = "FCAST_GATEWAY_KEY or 'fcast auth login --gateway'";
export const NOT_THE_API = 'this does not look like the Market Forecast Agent API; check the base URL';
const DOCTOR = "'fcast doctor' checks the base URL and the key";

function sentKey(key: SentKey | undefined): string {
  if (key === undefined) return 'the key';
  return key.kind === 'gateway'
    ? `the gateway key from ${key.source}`
    : `the REST key from ${key.source} (no gateway key is set)`;
}

/** The one hint table: by status, told in the terms of the request that failed. */
function hintFor(status: number, context: HintContext = {}): string | undefined {
  const { gateway } = context;
  switch (status) {
    case 400:
      return gateway ? `see 'fcast cmd ${gateway.command} --help' for its arguments` : undefined;
    case 401:
      return gateway
        ? `the gateway refused ${sentKey(gateway.key)}; set a valid gateway key with ${GATEWAY_KEY_SETTINGS}`
        : "check the key with 'fcast auth status'; get one with 'fcast register --email ADDRESS'";
    case 403:
      return gateway
        ? `'${gateway.command}' needs a key with the scope ${gateway.scope} (${sentKey(gateway.key)} lacks it, or its plan does not include it); set one with ${GATEWAY_KEY_SETTINGS}`
        : undefined;
    case 404:
      return context.symbol ? `'fcast symbols' lists the symbols your key can use` : undefined;
    case 409:
      return undefined;
    case 429:
      return 'wait and try again (fcast retries by itself with --retries N, waiting up to --max-wait seconds)';
    default:
      return status >= 500 ? 'the service is having trouble; try again later' : undefined;
  }
}

/** Statuses a proxy or load balancer in front of the real API answers with its own page. */
const INFRASTRUCTURE_STATUSES = new Set([408, 429, 502, 503, 504]);

export function apiErrorFrom(status: number, body: unknown, raw?: string): ApiError {
  const details = describeErrorBody(status, body);
  if (raw !== undefined && body !== undefined) details.raw = raw;
  // Some other web server (an HTML 404, a 501): the status still decides the exit code, but
  // the hint must not blame the symbol or the service.
  if (!isApiErrorBody(body) && !INFRASTRUCTURE_STATUSES.has(status)) {
    return new ApiError(details, {
      message: `HTTP ${status}${details.title ? ` ${details.title}` : ''}: ${NOT_THE_API}`,
      hint: DOCTOR,
    });
  }
  return new ApiError(details, { hint: hintFor(status) });
}

/** Re-tells an API error in the terms of its request; other errors pass unchanged. */
export function withContextHint(err: unknown, context: HintContext): unknown {
  if (!(err instanceof ApiError) || !isApiErrorBody(err.details.body)) return err;
  const hint = hintFor(err.status, context);
  return hint === undefined ? err : amend(err, { hint });
}

/** An `ok: false` gateway envelope under a success status: a failure all the same, and off-contract (exit 7). */
export function failureUnderSuccess(status: number, raw: string, body: unknown): ApiError | undefined {
  if (!isRecord(body) || body.ok !== false) return undefined;
  const details = { ...describeErrorBody(status, body), raw };
  const said = `${details.title ?? 'error'}${details.detail ? `: ${details.detail}` : ''}${details.requestId ? ` (request id ${details.requestId})` : ''}`;
  return new ApiError(details, {
    exitCode: ExitCode.BadResponse,
    message: `the gateway answered HTTP ${status} with ok: false: ${said}`,
  });
}
