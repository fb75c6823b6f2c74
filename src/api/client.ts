// The one HTTP layer: base URL, keys and where they may go, the overall deadline, the size
// cap, same-origin redirects, retries with announced waits, --verbose and --dry-run.
// The retry loop is our own: undici's RetryHandler ignores the gateway's retry_after, has
// no jitter, and drops the body of a failed POST that we need to report.
import type { Clock } from '../context.js';
import {
  ApiError,
  BadResponseError,
  ConfigError,
  ExitCode,
  FcastError,
  InterruptedError,
  NetworkError,
} from '../errors.js';
import { maskKey } from '../keys.js';
import type { Output } from '../output/io.js';
import type { ChosenKey, Settings } from '../settings.js';
import { apiErrorFrom, statusText } from './response-errors.js';
import type { Transport, WireResponse } from './transport.js';
import { DryRunDone } from './dry-run.js';

export type Auth = 'none' | 'rest' | 'gateway';
/** `idempotent`: GETs and the read-only gateway; `rate-limit-only`: register, which must never be sent twice. */
export type RetryPolicy = 'idempotent' | 'rate-limit-only';

export interface RequestSpec {
  method: 'GET' | 'POST';
  /** Relative to the base URL, e.g. `api/agent/v1/demo.php`. */
  path: string;
  query?: Record<string, string | undefined>;
  body?: unknown;
  auth: Auth;
  retry: RetryPolicy;
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
  out: Output;
  clock: Clock;
  signal: AbortSignal;
  transport: Transport;
  dryRun?: boolean;
  userAgent: string;
  maxBodyBytes?: number;
}

const MAX_BODY_BYTES = 16 * 1024 * 1024;
const MAX_REDIRECTS = 5;
const RETRY_STATUSES = new Set([429, 502, 503, 504]);
const RETRYABLE_NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

class Timeout extends Error {}

export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  // Names other than `localhost` itself resolve however DNS or /etc/hosts say: not trusted.
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

export class ApiClient {
  private readonly maxBodyBytes: number;
  constructor(private readonly opts: ClientOptions) {
    this.maxBodyBytes = opts.maxBodyBytes ?? MAX_BODY_BYTES;
  }

  /** The base URL, or exit 3 saying how to set one. */
  baseUrl(): URL {
    return this.opts.settings.requireBaseUrl();
  }

  /** The key a request needs, checked before anything is sent; undefined for keyless calls. */
  keyFor(auth: Auth): string | undefined {
    return this.chosenKey(auth)?.value;
  }

  /** Which key a request sends, and from where: the gateway's own, or the REST key it falls back to. */
  chosenKey(auth: Auth): ChosenKey | undefined {
    return auth === 'none' ? undefined : this.opts.settings.requireKey(auth);
  }

  buildUrl(spec: RequestSpec): URL {
    const url = new URL(spec.path, this.baseUrl());
    for (const [name, value] of Object.entries(spec.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, value);
    }
    return url;
  }

  async request(spec: RequestSpec): Promise<ApiResponse> {
    const url = this.buildUrl(spec);
    const key = this.keyFor(spec.auth);
    // Plain http is safe only when the bytes never leave the machine: a loopback host, reached
    // directly (a proxy would see the key inside its tunnel).
    const proxy = this.opts.transport.proxyFor?.(url);
    if (key !== undefined && url.protocol !== 'https:' && (!isLoopbackHost(url.hostname) || proxy !== undefined)) {
      throw new ConfigError(
        `refusing to send a key over plain http to ${url.host}${proxy ? ` through the proxy ${proxy}` : ''}`,
        {
          hint: proxy
            ? 'list the host in NO_PROXY to reach it directly, or use an https:// base URL'
            : 'use an https:// base URL (plain http is allowed only to a loopback host)',
        },
      );
    }
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': this.opts.userAgent };
    if (key !== undefined) headers.authorization = `Bearer ${key}`;
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    if (body !== undefined) headers['content-type'] = 'application/json';

    if (this.opts.dryRun) {
      const shown = { ...headers };
      if (key !== undefined) shown.authorization = `Bearer ${maskKey(key)}`;
      throw new DryRunDone({ method: spec.method, url: url.href, headers: shown, body: spec.body ?? null });
    }

    const { retries, maxWait } = this.opts.settings;
    for (let attempt = 0; ; attempt++) {
      const canRetry = attempt < retries.value;
      let res: ApiResponse;
      try {
        res = await this.send(spec.method, url, headers, body);
      } catch (err) {
        if (err instanceof RetryableNetworkError && spec.retry === 'idempotent' && canRetry) {
          await this.wait(
            Math.min(backoffSeconds(attempt, this.opts.clock), maxWait.value),
            err.message,
            attempt,
            retries.value,
          );
          continue;
        }
        throw err instanceof RetryableNetworkError ? err.final(spec.retry) : err;
      }
      if (res.status < 400) return res;

      const error = this.errorOf(res);
      const retryable = RETRY_STATUSES.has(res.status) && (spec.retry === 'idempotent' || res.status === 429);
      if (!retryable) throw error;
      const asked = error.details.retryAfter;
      if (asked !== undefined && asked > maxWait.value) {
        throw new ApiError(error.details, {
          exitCode: res.status === 429 ? ExitCode.RateLimited : ExitCode.Unavailable,
          message: `${error.message}; the server asks to wait ${asked}s, longer than --max-wait ${maxWait.value}s`,
          hint: `try again in ${asked}s, or raise --max-wait`,
        });
      }
      if (!canRetry) throw error;
      const seconds = asked ?? Math.min(backoffSeconds(attempt, this.opts.clock), maxWait.value);
      await this.wait(
        seconds,
        `HTTP ${res.status}${error.details.title ? ` ${error.details.title}` : ''}`,
        attempt,
        retries.value,
      );
    }
  }

  private errorOf(res: ApiResponse): ApiError {
    const error = apiErrorFrom(res.status, res.body);
    if (res.body !== undefined) error.details.raw = res.raw;
    const asked = header(res.headers, 'retry-after');
    const seconds = asked === undefined ? undefined : parseRetryAfter(asked, this.opts.clock.now());
    // The header, when present, is the HTTP-level answer; the gateway's retry_after is the fallback.
    if (seconds !== undefined) error.details.retryAfter = seconds;
    return error;
  }

  private async wait(seconds: number, why: string, attempt: number, retries: number): Promise<void> {
    const shown = seconds < 10 ? Number(seconds.toFixed(1)) : Math.round(seconds);
    this.opts.out.note(`fcast: ${why}; retrying in ${shown}s (retry ${attempt + 1} of ${retries})`);
    try {
      await this.opts.clock.sleep(seconds * 1000, this.opts.signal);
    } catch {
      throw new InterruptedError();
    }
  }

  /** One exchange, following redirects; a request that carries a key follows them only within its origin. */
  private async send(
    method: 'GET' | 'POST',
    url: URL,
    headers: Record<string, string>,
    body: string | undefined,
  ): Promise<ApiResponse> {
    let current = url;
    let currentMethod = method;
    let currentBody = body;
    for (let hop = 0; ; hop++) {
      const res = await this.exchange(currentMethod, current, headers, currentBody);
      if (!('location' in res)) return res;
      const next = new URL(res.location, current);
      if (next.origin !== url.origin && headers.authorization !== undefined) {
        throw new BadResponseError(
          `the server redirected to another origin (${next.origin}); not followed, so the key stays with ${url.origin}`,
          {
            hint: `if the service has moved, set the base URL to ${next.origin}`,
          },
        );
      }
      if (hop >= MAX_REDIRECTS) throw new BadResponseError(`too many redirects (more than ${MAX_REDIRECTS})`);
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && currentMethod === 'POST')) {
        currentMethod = 'GET';
        currentBody = undefined;
      }
      current = next;
    }
  }

  private async exchange(
    method: 'GET' | 'POST',
    url: URL,
    headers: Record<string, string>,
    body: string | undefined,
  ): Promise<ApiResponse | { status: number; location: string }> {
    const { out, settings, signal: outer } = this.opts;
    const started = this.opts.clock.now();
    out.debug(`> ${method} ${url.href}`);
    if (headers.authorization) out.debug('> Authorization: Bearer <redacted>');

    const controller = new AbortController();
    const timeout = new Timeout(`no complete answer within ${settings.timeout.value}s`);
    const timer = setTimeout(() => controller.abort(timeout), settings.timeout.value * 1000);
    const onOuterAbort = () => controller.abort(new InterruptedError());
    if (outer.aborted) onOuterAbort();
    outer.addEventListener('abort', onOuterAbort, { once: true });
    try {
      let wire: WireResponse;
      try {
        wire = await this.opts.transport.send({ url, method, headers, body, signal: controller.signal });
      } catch (err) {
        throw networkError(err, controller.signal, url, this.opts.transport.proxyFor?.(url));
      }
      const location = header(wire.headers, 'location');
      if (wire.status >= 300 && wire.status < 400 && location) {
        wire.body.resume();
        out.debug(`< ${wire.status} ${statusText(wire.status)} -> ${location}`);
        return { status: wire.status, location };
      }
      const raw = await this.readBody(wire, controller.signal, url);
      out.debug(
        `< ${wire.status} ${statusText(wire.status)} (${this.opts.clock.now() - started} ms, ${raw.length} bytes)`,
      );
      return { status: wire.status, url: url.href, headers: wire.headers, raw, body: parseJson(raw) };
    } finally {
      clearTimeout(timer);
      outer.removeEventListener('abort', onOuterAbort);
    }
  }

  private async readBody(wire: WireResponse, signal: AbortSignal, url: URL): Promise<string> {
    const declared = Number(header(wire.headers, 'content-length'));
    if (Number.isFinite(declared) && declared > this.maxBodyBytes) {
      wire.body.destroy();
      throw tooLarge(this.maxBodyBytes);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of wire.body) {
        size += (chunk as Buffer).length;
        if (size > this.maxBodyBytes) {
          wire.body.destroy();
          throw tooLarge(this.maxBodyBytes);
        }
        chunks.push(chunk as Buffer);
      }
    } catch (err) {
      if (err instanceof FcastError) throw err;
      const mapped = networkError(err, signal, url, this.opts.transport.proxyFor?.(url));
      // The answer had begun: whatever broke, it is not a reset "before a response".
      throw mapped instanceof RetryableNetworkError
        ? new NetworkError(`the connection to ${url.host} broke while the answer was being read`)
        : mapped;
    }
    return Buffer.concat(chunks).toString('utf8');
  }
}

/** A connection refused or reset before any answer: safe to send again when the request is idempotent. */
class RetryableNetworkError extends NetworkError {
  final(policy: RetryPolicy): NetworkError {
    if (policy === 'idempotent' || !this.mayHaveArrived) return this;
    return new NetworkError(this.message, { hint: 'the request may have reached the server; nothing was retried' });
  }
}

function networkError(err: unknown, signal: AbortSignal, url: URL, proxy: string | undefined): FcastError {
  const reason = signal.reason;
  if (signal.aborted && reason instanceof InterruptedError) return reason;
  if (signal.aborted && reason instanceof Timeout) {
    return new NetworkError(`request to ${url.host} timed out: ${reason.message}`, {
      hint: 'raise --timeout, or check the network',
    });
  }
  const e = err as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  const code = e.code ?? e.cause?.code ?? '';
  if (
    proxy &&
    (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || /proxy/i.test(e.message ?? ''))
  ) {
    // The connection that failed may be the proxy's, not the service's: say which way it went.
    const message = `request to ${url.host} through the proxy ${proxy} failed: ${e.message || code}`;
    const opts = {
      hint: 'check HTTPS_PROXY / HTTP_PROXY, or list the host in NO_PROXY to go direct',
      mayHaveArrived: false,
    };
    // A refused proxy is a refused connection like any other: retried, as the contract asks.
    return code === 'ECONNREFUSED' ? new RetryableNetworkError(message, opts) : new NetworkError(message, opts);
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new NetworkError(`cannot resolve ${url.hostname} (${code})`, {
      hint: 'check the base URL and your DNS or proxy settings',
      mayHaveArrived: false,
    });
  }
  if (code === 'ECONNREFUSED') {
    return new RetryableNetworkError(`connection to ${url.host} refused`, {
      hint: 'is the service running at the base URL?',
      mayHaveArrived: false,
    });
  }
  if (RETRYABLE_NETWORK_CODES.has(code))
    return new RetryableNetworkError(`connection to ${url.host} was reset (${code})`);
  return new NetworkError(`request to ${url.host} failed: ${e.message || String(err)}${code ? ` (${code})` : ''}`);
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
