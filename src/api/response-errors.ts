// Turns an error response into an ApiError: problem+json for REST, the failure envelope for
// the gateway, or just the status when the body is neither (an HTML 503 from a proxy).
import { ApiError, ExitCode, type ApiErrorDetails } from '../errors.js';
import { clean } from '../output/sanitize.js';
import { isRecord } from '../values.js';

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload Too Large',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export const statusText = (status: number): string => STATUS_TEXT[status] ?? '';

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? clean(v) : undefined);

/** What an error body says, whatever its kind; `body` is undefined when it was not JSON. */
export function describeErrorBody(status: number, body: unknown): ApiErrorDetails {
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

export function hintFor(status: number): string | undefined {
  switch (status) {
    case 401:
      return "check the key with 'fcast auth status'; get one with 'fcast register --email ADDRESS'";
    case 429:
      return 'wait and try again (fcast retries by itself with --retries N, waiting up to --max-wait seconds)';
    default:
      return status >= 500 ? 'the service is having trouble; try again later' : undefined;
  }
}

export function apiErrorFrom(status: number, body: unknown): ApiError {
  return new ApiError(describeErrorBody(status, body), { hint: hintFor(status) });
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
