// The one HTTP layer: base URL, keys and where they may go, the one deadline per exchange,
// the size cap, same-origin redirects, retries with announced waits, the --verbose log, and
// requests prepared as values (what --dry-run prints) before any is sent.
// The retry loop is our own: undici's RetryHandler ignores the gateway's retry_after, has
// no jitter, and drops the body of a failed POST that we need to report.
import type { Clock } from '../core/context.js';
import { REST_PREFIX } from '../core/domain.js';
import {
  ApiError,
  BadResponseError,
  boundServerText,
  ConfigError,
  ExitCode,
  InterruptedError,
  NetworkError,
} from '../core/errors.js';
import { type ChosenKey, inspectKey } from '../config/key-checks.js';
import type { Settings } from '../config/settings.js';
import type { PreparedRequest } from './dry-run.js';
import { decodedBody } from './content-coding.js';
import type { ApiLog } from './log.js';
import { apiErrorFrom, statusText } from './response-errors.js';
import type { Transport, WireResponse } from './transport.js';
import { untilAborted } from './until-aborted.js';
import { isLoopbackHost, networkError, RetryableNetworkError, Timeout } from './wire-errors.js';

export type Auth = 'none' | 'rest' | 'gateway';
/**
 * `idempotent`: GETs and the read-only gateway; `rate-limit-only`: register, which must never be
 * sent twice; `never`: a raw request (`fcast api`) of a method other than GET, sent once.
 */
export type RetryPolicy = 'idempotent' | 'rate-limit-only' | 'never';

/** An HTTP method, upper case: the commands send GET and POST; `fcast api` any. */
export type HttpMethod = string;

export interface RequestSpec {
  method: HttpMethod;
  /** Relative to the base URL, e.g. `api/agent/v1/demo.php`. */
  path: string;
  query?: Record<string, string | undefined>;
  body?: unknown;
  /** A body sent as it is (`fcast api --input`), as JSON; instead of `body`. */
  rawBody?: string;
  auth: Auth;
  /**
   * The key is sent when one is set, and the request goes without one when none is (`fcast
   * api`: the path may need none); a malformed key is still exit 3.
   */
  keyIfAny?: boolean;
  retry: RetryPolicy;
  /**
   * Ctrl-C does not cut this exchange once it is on its way; the deadline still does. For
   * register, whose answer may carry a key that exists nowhere else.
   */
  finishOnInterrupt?: boolean;
}

export interface ApiResponse {
  status: number;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** The body's text as received: `--json` prints it re-indented, never re-serialised. */
  raw: string;
  body: unknown;
}

export interface ClientOptions {
  settings: Settings;
  log: ApiLog;
  clock: Clock;
  signal: AbortSignal;
  transport: Transport;
  userAgent: string;
  maxBodyBytes?: number;
}

export const MAX_BODY_BYTES = 16 * 1024 * 1024;
const MAX_REDIRECTS = 5;
const RETRY_STATUSES = new Set([429, 502, 503, 504]);

export { isLoopbackHost };

export class ApiClient {
  private readonly maxBodyBytes: number;
  constructor(private readonly opts: ClientOptions) {
    this.maxBodyBytes = opts.maxBodyBytes ?? MAX_BODY_BYTES;
  }

  /** The base URL, or exit 3 saying how to set one. */
  baseUrl(): URL {
    const url = this.opts.settings.requireBaseUrl();
    // A base URL copied with the REST path on it: the root is meant, not the path twice.
    if (url.pathname.endsWith(`/${REST_PREFIX}`)) url.pathname = url.pathname.slice(0, -REST_PREFIX.length);
    return url;
  }

  /** The key a request needs, checked before anything is sent; undefined for keyless calls. */
  keyFor(auth: Auth): string | undefined {
    return this.chosenKey(auth)?.value;
  }

  /** Which key a request sends, and from where: the gateway's own, or the REST key it falls back to. */
  chosenKey(auth: Auth): ChosenKey | undefined {
    return auth === 'none' ? undefined : this.opts.settings.requireKey(auth);
  }

  /** The key of `auth` when one is set (malformed: exit 3), else undefined. */
  keyIfAny(auth: Auth): string | undefined {
    if (auth === 'none') return undefined;
    const { key, problem } = inspectKey(this.opts.settings, auth);
    if (key === undefined) return undefined;
    if (problem) throw new ConfigError(problem.message, { hint: problem.hint });
    return key.value;
  }

  buildUrl(spec: RequestSpec): URL {
    const url = new URL(spec.path, this.baseUrl());
    for (const [name, value] of Object.entries(spec.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, value);
    }
    return url;
  }

  /**
   * The request as it would go out, checked (base URL, key, where the key may travel) but not
   * sent: --dry-run prints it, request() sends it.
   */
  prepare(spec: RequestSpec): PreparedRequest {
    const url = this.buildUrl(spec);
    const key = spec.keyIfAny ? this.keyIfAny(spec.auth) : this.keyFor(spec.auth);
    // Plain http is safe only when the bytes never leave the machine: a loopback host, reached
    // directly (a proxy would see the key inside its tunnel).
    const proxy = this.opts.transport.proxyFor?.(url);
    if (key !== undefined && url.protocol !== 'https:' && (!isLoopbackHost(url.hostname) || proxy !== undefined)) {
      throw new ConfigError(
        `refusing to send a key over plain http to ${url.host}${proxy ? ` through the proxy ${proxy.origin}` : ''}`,
        {
          hint: proxy
            ? 'list the host in NO_PROXY to reach it directly, or use an https:// base URL'
            : 'use an https:// base URL (plain http is allowed only to a loopback host)',
        },
      );
    }
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': this.opts.userAgent };
    if (key !== undefined) headers.authorization = `Bearer ${key}`;
    const body = spec.rawBody ?? (spec.body === undefined ? undefined : JSON.stringify(spec.body));
    if (body !== undefined) headers['content-type'] = 'application/json';
    return {
      method: spec.method,
      url,
      headers,
      body,
      value: spec.rawBody ?? spec.body,
      idempotent: spec.retry === 'idempotent',
      once: spec.retry === 'never',
      finishOnInterrupt: spec.finishOnInterrupt === true,
    };
  }

  async request(spec: RequestSpec): Promise<ApiResponse> {
    return this.sendPrepared(this.prepare(spec));
  }

  /**
   * Sends a prepared request, retrying what the policy allows. `anyStatus` (`fcast api`): the
   * last answer of any status is returned, not thrown, so that its body and headers can be shown.
   */
  async sendPrepared(prepared: PreparedRequest, opts: { anyStatus?: boolean } = {}): Promise<ApiResponse> {
    const { method, url, headers, body, idempotent, finishOnInterrupt, once } = prepared;
    const { retries, maxWait } = this.opts.settings;
    for (let attempt = 0; ; attempt++) {
      const canRetry = !once && attempt < retries.value;
      let res: ApiResponse;
      try {
        // Ctrl-C before the request goes out still stops it: nothing was sent yet.
        if (this.opts.signal.aborted) throw new InterruptedError();
        res = await this.send(method, url, headers, body, finishOnInterrupt);
      } catch (err) {
        if (err instanceof RetryableNetworkError && idempotent && canRetry) {
          await this.wait(
            Math.min(backoffSeconds(attempt, this.opts.clock), maxWait.value),
            err.message,
            attempt,
            retries.value,
          );
          continue;
        }
        throw err instanceof RetryableNetworkError ? err.final(idempotent) : err;
      }
      // 2xx only: a 1xx or a 3xx that was not followed is no answer at all (exit 7 by the table).
      if (res.status >= 200 && res.status <= 299) return res;

      const error = this.errorOf(res);
      const retryable = !once && RETRY_STATUSES.has(res.status) && (idempotent || res.status === 429);
      if (!retryable) {
        if (opts.anyStatus) return res;
        throw error;
      }
      const asked = error.details.retryAfter;
      if (asked !== undefined && asked > maxWait.value) {
        throw new ApiError(error.details, {
          exitCode: res.status === 429 ? ExitCode.RateLimited : ExitCode.Unavailable,
          message: `${error.message}; the server asks to wait ${asked}s, longer than --max-wait ${maxWait.value}s`,
          wholeMessage: `${error.wholeMessage ?? error.message}; the server asks to wait ${asked}s, longer than --max-wait ${maxWait.value}s`,
          hint: `try again in ${asked}s, or raise --max-wait`,
          cause: error,
        });
      }
      if (!canRetry) {
        if (opts.anyStatus) return res;
        throw error;
      }
      const seconds = asked ?? Math.min(backoffSeconds(attempt, this.opts.clock), maxWait.value);
      await this.wait(
        seconds,
        `HTTP ${res.status}${error.details.title ? ` ${boundServerText(error.details.title)}` : ''}`,
        attempt,
        retries.value,
      );
    }
  }

  /** The error an answer that is no success stands for (the status table, the body's words, Retry-After). */
  errorOf(res: ApiResponse): ApiError {
    const url = new URL(res.url);
    const proxy = this.opts.transport.proxyFor?.(url);
    const error = apiErrorFrom(res.status, res.body, res.raw, { proxy, url, base: this.baseUrl() });
    const asked = header(res.headers, 'retry-after');
    const seconds = asked === undefined ? undefined : parseRetryAfter(asked, this.opts.clock.now());
    // The header, when present, is the HTTP-level answer; the gateway's retry_after is the fallback.
    if (seconds !== undefined) error.details.retryAfter = seconds;
    return error;
  }

  private async wait(seconds: number, why: string, attempt: number, retries: number): Promise<void> {
    const shown = seconds < 10 ? Number(seconds.toFixed(1)) : Math.round(seconds);
    this.opts.log.note(`fcast: ${why}; retrying in ${shown}s (retry ${attempt + 1} of ${retries})`);
    try {
      await this.opts.clock.sleep(seconds * 1000, this.opts.signal);
    } catch {
      throw new InterruptedError();
    }
  }

  /**
   * One exchange, following redirects; a request that carries a key follows them only within
   * its origin. One deadline for all of it (DNS, connect, TLS, proxy tunnel, headers, body, and
   * every redirect hop), and Ctrl-C, both raced against every phase: a phase the transport
   * cannot cancel is left behind, and its connection destroyed when the command ends.
   */
  private async send(
    method: HttpMethod,
    url: URL,
    headers: Record<string, string>,
    body: string | undefined,
    finishOnInterrupt: boolean,
  ): Promise<ApiResponse> {
    const { settings } = this.opts;
    const outer = finishOnInterrupt ? undefined : this.opts.signal;
    const controller = new AbortController();
    const timeout = new Timeout(`no complete answer within ${settings.timeout.value}s`);
    const timer = setTimeout(() => controller.abort(timeout), settings.timeout.value * 1000);
    const onOuterAbort = () => controller.abort(new InterruptedError());
    if (outer?.aborted) onOuterAbort();
    outer?.addEventListener('abort', onOuterAbort, { once: true });
    try {
      return await this.follow(method, url, headers, body, controller.signal);
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuterAbort);
    }
  }

  private async follow(
    method: HttpMethod,
    url: URL,
    headers: Record<string, string>,
    body: string | undefined,
    signal: AbortSignal,
  ): Promise<ApiResponse> {
    let current = url;
    let currentMethod = method;
    let currentBody = body;
    for (let hop = 0; ; hop++) {
      const res = await this.exchange(currentMethod, current, headers, currentBody, signal);
      if (!('location' in res)) return res;
      const next = URL.canParse(res.location, current.href) ? new URL(res.location, current) : undefined;
      if (next === undefined || (next.protocol !== 'http:' && next.protocol !== 'https:')) {
        throw new BadResponseError(
          `the server answered HTTP ${res.status} with a Location that is not an http(s) URL; not followed`,
        );
      }
      if (next.origin !== url.origin && headers.authorization !== undefined) {
        throw new BadResponseError(
          `the server redirected to another origin (${next.origin}); not followed, so that the key is not sent to it`,
          { hint: movedHint(url, next) },
        );
      }
      if (hop >= MAX_REDIRECTS) throw new BadResponseError(`too many redirects (more than ${MAX_REDIRECTS})`);
      // Only 303 asks for a GET. A 301 or 302 to a POST (nginx's `rewrite ... permanent`, an
      // http-to-https move) is sent again as the POST it was, as RFC 9110 allows: browsers turn
      // it into a GET, which the gateway refuses and which would lose a registration's body.
      if (res.status === 303) {
        currentMethod = 'GET';
        currentBody = undefined;
      }
      current = next;
    }
  }

  private async exchange(
    method: HttpMethod,
    url: URL,
    headers: Record<string, string>,
    body: string | undefined,
    signal: AbortSignal,
  ): Promise<ApiResponse | { status: number; location: string }> {
    const { log } = this.opts;
    const started = this.opts.clock.now();
    log.debug(`> ${method} ${url.href}`);
    if (headers.authorization) log.debug('> Authorization: Bearer <redacted>');

    const proxy = this.opts.transport.proxyFor?.(url);
    let wire: WireResponse;
    try {
      wire = await untilAborted(this.opts.transport.send({ url, method, headers, body, signal }), signal);
    } catch (err) {
      throw networkError(err, signal, url, proxy);
    }
    const location = header(wire.headers, 'location');
    if (wire.status >= 300 && wire.status < 400 && location) {
      wire.body.resume();
      log.debug(`< ${wire.status} ${statusText(wire.status)} -> ${location}`);
      return { status: wire.status, location };
    }
    let raw: string;
    try {
      // A leading byte order mark (PHP files saved with one print it) is no part of the JSON:
      // dropped here, as WHATWG fetch's json() does, so that parsing and --json never see it.
      raw = withoutBom(await untilAborted(this.readBody(wire), signal));
    } catch (err) {
      wire.body.destroy();
      const mapped = networkError(err, signal, url, proxy);
      // The answer had begun: whatever broke, it is not a reset "before a response".
      throw mapped instanceof RetryableNetworkError
        ? new NetworkError(`the connection to ${url.host} broke while the answer was being read`, { cause: err })
        : mapped;
    }
    log.debug(
      `< ${wire.status} ${statusText(wire.status)} (${this.opts.clock.now() - started} ms, ${raw.length} bytes)`,
    );
    return { status: wire.status, url: url.href, headers: wire.headers, raw, body: parseJson(raw) };
  }

  private async readBody(wire: WireResponse): Promise<string> {
    const declared = Number(header(wire.headers, 'content-length'));
    if (Number.isFinite(declared) && declared > this.maxBodyBytes) throw tooLarge(this.maxBodyBytes);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of await decodedBody(wire.body, header(wire.headers, 'content-encoding'))) {
      size += (chunk as Buffer).length;
      if (size > this.maxBodyBytes) throw tooLarge(this.maxBodyBytes);
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks).toString('utf8');
  }
}

const withoutBom = (text: string): string => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/**
 * Where to point the base URL after a redirect to another origin: only ever to https, or to
 * plain http on a loopback host as the base URL was. A downgrade from https is exactly what a
 * hostile redirect would ask for.
 */
function movedHint(from: URL, to: URL): string {
  const sameScheme = to.protocol === from.protocol;
  const safe = to.protocol === 'https:' || (sameScheme && isLoopbackHost(to.hostname));
  if (safe) return `if the service has moved, set the base URL to ${to.origin} (check with whoever runs it)`;
  return `it leads to plain http${from.protocol === 'https:' ? ' from https' : ''}, where the key would travel unencrypted: keep the base URL, and ask whoever runs the service for its https address`;
}

function tooLarge(cap: number): BadResponseError {
  return new BadResponseError(`the response is larger than the ${Math.round(cap / 1024 / 1024)} MiB cap; not read`);
}

function parseJson(raw: string): unknown {
  if (raw.trim() === '') return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Retry-After as seconds: a number, or an HTTP date measured against our clock. */
export function parseRetryAfter(value: string, nowMs: number): number | undefined {
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - nowMs) / 1000));
}

/** 1 s, 2 s, 4 s ... with "equal jitter": half fixed, half random, so clients spread out. */
export function backoffSeconds(attempt: number, clock: Clock): number {
  const ceiling = Math.min(30, 2 ** attempt);
  return ceiling / 2 + (clock.random() * ceiling) / 2;
}
