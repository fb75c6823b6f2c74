// Turns an answer that is not a usable success into an ApiError: problem+json for REST, the
// failure envelope for the gateway, or just the status when the body is neither (a front end's
// page, an empty body). This file holds the one status table, for REST and gateway alike: the
// exit class of every status (`exitClassOf`) and the hints by status, told in the terms of
// the request and of who most likely answered (the API, or a server or proxy in front of it).
import { STATUS_CODES } from 'node:http';
import { ApiError, type ApiErrorDetails, amend, boundServerText, ExitCode } from '../core/errors.js';
import { isRecord } from '../core/values.js';
import type { ProxyRoute } from './wire.js';

export const statusText = (status: number): string => STATUS_CODES[status] ?? '';

/**
 * The status table: the exit class of every status, whatever the body says (an HTML 503 exits
 * 6 like a JSON one). No status reaches exit 1. A 1xx, 2xx or 3xx gets here only when it is no
 * usable answer (a provisional answer and nothing after, a redirect with nowhere to go, a 2xx
 * body that is not JSON), hence 7; so does a status outside 100-599.
 */
export function exitClassOf(status: number): ExitCode {
  switch (status) {
    case 401:
    case 403:
    case 407:
      return ExitCode.Config;
    case 404:
    case 410:
      return ExitCode.NotFound;
    case 408: // the server gave up waiting for our request: a timeout, not retried (like ours)
      return ExitCode.Unavailable;
    case 409:
      return ExitCode.Conflict;
    case 429:
      return ExitCode.RateLimited;
  }
  if (status >= 400 && status <= 499) return ExitCode.Usage; // refused as sent
  if (status >= 500 && status <= 599) return ExitCode.Unavailable;
  return ExitCode.BadResponse;
}

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
const TRY_LATER = 'the service is having trouble; try again later';

function sentKey(key: SentKey | undefined): string {
  if (key === undefined) return 'the key';
  return key.kind === 'gateway'
    ? `the gateway key from ${key.source}`
    : `the REST key from ${key.source} (no gateway key is set)`;
}

/**
 * What to do about a proxy that wants credentials, without ever showing them: whether the
 * proxy URL carried any decides between "give them" and "check them".
 */
export function proxyCredentialsHint(route: ProxyRoute | undefined): string {
  if (route === undefined)
    return 'a proxy between fcast and the service wants credentials: give them in HTTPS_PROXY / HTTP_PROXY as http://USER:PASSWORD@HOST:PORT';
  const { variable } = route;
  switch (route.credentials) {
    case 'sent':
      return `the proxy refused the user name and password in ${variable} (not shown here): check them, percent-encoding any of @ : / % in them`;
    case 'user-only':
      return `${variable} names a user but no password, so no credentials were sent: give both, as http://USER:PASSWORD@HOST:PORT`;
    default:
      return `no credentials were sent (${variable} carries none): give them in its URL, as http://USER:PASSWORD@HOST:PORT`;
  }
}

/** The one hint table for the API's own errors: by status, told in the terms of the request that failed. */
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
    case 408:
      return 'the server gave up waiting for the request; check the network, and try again';
    case 429:
      return 'wait and try again (fcast retries by itself with --retries N, waiting up to --max-wait seconds)';
    default:
      return status >= 500 && status <= 599 ? TRY_LATER : undefined;
  }
}

/**
 * An answer whose body is not the API's (a page of nginx, PHP or a proxy, or nothing): what it
 * most likely means, and the fix. The base URL is suspect only where the path itself is
 * unknown there (404, 410); a 5xx page is the service failing, a 4xx page a refusal of the
 * request as sent, by the service or something in front of it.
 */
function foreignAnswer(status: number, route: ProxyRoute | undefined): { why?: string; hint?: string } {
  // Through a proxy, the page may be the proxy's own.
  const from = route
    ? `the service, or the proxy ${route.origin} in front of it,`
    : 'the service, or a server in front of it,';
  const notTheApi = "(not the API's own answer)";
  switch (status) {
    case 404:
    case 410:
      return { why: NOT_THE_API, hint: DOCTOR };
    case 401:
      return {
        why: `${from} asks for a login ${notTheApi}`,
        hint: 'fcast sends only its API key; check the base URL, or ask who runs the service what it wants',
      };
    case 403:
      return {
        why: `${from} refused the request ${notTheApi}`,
        hint: 'an access rule in front of the service (address, network, firewall) turned it away; ask who runs it',
      };
    case 407:
      return { why: 'a proxy wants credentials', hint: proxyCredentialsHint(route) };
    case 408:
    case 429:
    case 502:
    case 503:
    case 504:
      // A front end's page for what its name says: nothing to add but what to do.
      return { hint: hintFor(status) };
    case 413:
    case 414:
    case 431:
      return {
        why: `${from} refused the request as too large`,
        hint: 'the limit is set where the service runs (e.g. nginx client_max_body_size); ask who runs it',
      };
    case 501:
      // Some simple web servers answer 501 to a method they do not serve (a POST), which the
      // API never does: the base URL may point at one of them, or the service is broken.
      return {
        why: 'the server does not implement this request',
        hint: `if the base URL is right, the service is failing: try again later (${DOCTOR})`,
      };
  }
  if (status >= 500 && status <= 599) return { why: 'the service failed', hint: TRY_LATER };
  if (status >= 400 && status <= 499)
    return { why: `${from} refused the request as sent ${notTheApi}`, hint: `--verbose shows the exchange; ${DOCTOR}` };
  if (status === 304) return { why: 'fcast asked for no cached copy, and got no answer' };
  if (status >= 300 && status <= 399) return { why: 'a redirect with no Location to follow' };
  if (status === 101) return { why: 'a switch of protocol fcast did not ask for' };
  if (status >= 100 && status <= 199) return { why: 'a provisional answer, and no final one followed' };
  return { why: 'not an HTTP status', hint: DOCTOR };
}

export interface AnswerContext {
  /** The proxy the request went through, if any: a 407 or a page may be its own. */
  proxy?: ProxyRoute;
  /** The URL that answered: a page may say it was the wrong scheme for its port. */
  url?: URL;
  /** The base URL it was built on, for a hint that gives the one to use instead. */
  base?: URL;
}

// What nginx and Apache answer plain http sent to their https port (a 400 page).
const PLAIN_TO_TLS_PORT =
  /plain HTTP request was sent to HTTPS port|speaking plain HTTP to an SSL-enabled server port/i;

/** The 400 page of a server whose port speaks https, sent plain http: the fix is the scheme. */
function plainToTlsPort(status: number, raw: string | undefined, { url, base }: AnswerContext) {
  if (status !== 400 || url?.protocol !== 'http:' || !PLAIN_TO_TLS_PORT.test(raw ?? '')) return undefined;
  // The base URL with https, path prefix and all, when that is where the request went.
  const secure = new URL(base?.origin === url.origin ? base.href : url.origin);
  secure.protocol = 'https:';
  return {
    why: `the server at ${url.host} speaks https, and was sent plain http`,
    hint: `use ${secure.href.replace(/\/$/, '')} as the base URL`,
  };
}

/** The ApiError of an answer that is not a usable success; its class comes from the status table. */
export function apiErrorFrom(status: number, body: unknown, raw?: string, context: AnswerContext = {}): ApiError {
  const details = describeErrorBody(status, body);
  if (raw !== undefined && body !== undefined) details.raw = raw;
  const exitCode = exitClassOf(status);
  if (isApiErrorBody(body) && status >= 400 && status <= 599) {
    const hint = status === 407 ? proxyCredentialsHint(context.proxy) : hintFor(status);
    return new ApiError(details, { exitCode, hint });
  }
  const { why, hint } = plainToTlsPort(status, raw, context) ?? foreignAnswer(status, context.proxy);
  const named = (title = details.title) => `HTTP ${status}${title ? ` ${title}` : ''}`;
  const told = (title?: string) => (why ? `${named(title)}: ${why}` : named(title));
  const cut = details.title === undefined ? undefined : boundServerText(details.title);
  return new ApiError(details, { exitCode, message: told(cut), wholeMessage: told(), hint });
}

/** Re-tells an API error in the terms of its request; other errors pass unchanged. */
export function withContextHint(err: unknown, context: HintContext): unknown {
  // A 407 keeps the proxy's hint: hintFor has none for it.
  if (!(err instanceof ApiError) || !isApiErrorBody(err.details.body)) return err;
  const hint = hintFor(err.status, context);
  return hint === undefined ? err : amend(err, { hint });
}

/** An `ok: false` gateway envelope under a success status: a failure all the same, and off-contract (exit 7). */
export function failureUnderSuccess(status: number, raw: string, body: unknown): ApiError | undefined {
  if (!isRecord(body) || body.ok !== false) return undefined;
  const details = { ...describeErrorBody(status, body), raw };
  const said = (shown: (text: string) => string) =>
    `the gateway answered HTTP ${status} with ok: false: ${shown(details.title ?? 'error')}${details.detail ? `: ${shown(details.detail)}` : ''}${details.requestId ? ` (request id ${shown(details.requestId)})` : ''}`;
  return new ApiError(details, {
    exitCode: ExitCode.BadResponse,
    message: said(boundServerText),
    wholeMessage: said((text) => text),
  });
}
