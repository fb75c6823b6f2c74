// The one exit-code table, and the errors that carry a code to it. Commands throw; only
// main() turns an error into a number, and only bin/fcast.js exits (through the launcher's exit).
import { redactText } from './sinks.js';

export const ExitCode = {
  Ok: 0,
  Internal: 1,
  Usage: 2,
  Config: 3,
  NotFound: 4,
  RateLimited: 5,
  Unavailable: 6,
  BadResponse: 7,
  CheckFailed: 8,
  Conflict: 9,
  Interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export const EXIT_CODE_HELP: ReadonlyArray<readonly [number, string]> = [
  [0, 'success'],
  [1, 'unexpected internal error'],
  [2, 'usage: bad command, flag or argument, or the server answered 400 (or a 4xx not named here)'],
  [
    3,
    "auth or config: no base URL or key, malformed key, 401, 403, 407, a proxy's refusal, insecure transport, config file, the journal's directory, output that cannot be written (a full disk)",
  ],
  [4, 'not found (404, 410)'],
  [5, 'rate limited: 429 after the retries, or a wait longer than --max-wait'],
  [6, 'unavailable: connection or DNS failure, timeout, 408, 5xx'],
  [7, 'bad response: 2xx/3xx without a JSON body, not JSON, over the size cap, off-shape under --strict'],
  [8, 'check failed: a gate, --audit or a --baseline that shrank'],
  [9, 'conflict (409)'],
  [130, 'interrupted'],
];

export interface ErrorOptions {
  hint?: string;
  cause?: unknown;
}

export class FcastError extends Error {
  readonly exitCode: ExitCode;
  readonly hint: string | undefined;
  /** The message with a server's long text whole, where `message` cuts it: what --verbose shows. */
  readonly wholeMessage: string | undefined;
  constructor(message: string, exitCode: ExitCode, opts: ErrorOptions & { wholeMessage?: string } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.exitCode = exitCode;
    this.hint = opts.hint;
    this.wholeMessage = opts.wholeMessage !== message ? opts.wholeMessage : undefined;
  }
}

/** How much of a server's `title`, `detail` or `message` an error line shows, unless --verbose. */
export const SERVER_TEXT_LIMIT = 1000;

/**
 * A server's text cut to SERVER_TEXT_LIMIT characters, with a note of how much more there was
 * (`… (14,998,000 more characters; --verbose shows all)`); shorter text as it is. A 15 MB
 * `detail` would otherwise be one line of 15 MB on stderr.
 */
export function boundServerText(text: string, limit = SERVER_TEXT_LIMIT): string {
  if (text.length <= limit) return text;
  // Redacted whole, then cut: a key's spelling cut in two (its base64 ending at the cut) is no
  // spelling the redactor would know once it reaches the stream.
  const whole = redactText(text);
  if (whole.length <= limit) return whole;
  // Never half of a surrogate pair.
  const cut = /[\ud800-\udbff]/.test(whole[limit - 1]!) ? limit - 1 : limit;
  const more = (whole.length - cut).toLocaleString('en-US');
  return `${whole.slice(0, cut)}… (${more} more characters; --verbose shows all)`;
}

export class UsageError extends FcastError {
  constructor(message: string, opts?: ErrorOptions) {
    super(message, ExitCode.Usage, opts);
  }
}

export class ConfigError extends FcastError {
  constructor(message: string, opts?: ErrorOptions) {
    super(message, ExitCode.Config, opts);
  }
}

export class NetworkError extends FcastError {
  /** False only when the request certainly never reached the server (refused, unresolved). */
  readonly mayHaveArrived: boolean;
  constructor(message: string, opts: ErrorOptions & { mayHaveArrived?: boolean } = {}) {
    super(message, ExitCode.Unavailable, opts);
    this.mayHaveArrived = opts.mayHaveArrived ?? true;
  }
}

export class BadResponseError extends FcastError {
  constructor(message: string, opts?: ErrorOptions) {
    super(message, ExitCode.BadResponse, opts);
  }
}

export interface Amendment {
  /** Put before the message, e.g. the symbol among several: `BTC/USD: HTTP 404 ...`. */
  prefix?: string;
  /** Added after the message, e.g. `; nothing was retried`. */
  suffix?: string;
  /** Replaces the hint; undefined keeps the one the error has. */
  hint?: string;
}

/**
 * The one way to add context to an error: a copy of the same class, exit code and details,
 * with the prefix, suffix or hint changed and the original kept as its cause.
 */
export function amend<E extends FcastError>(err: E, change: Amendment): E {
  const copy = Object.create(Object.getPrototypeOf(err) as object) as E;
  Object.defineProperties(copy, Object.getOwnPropertyDescriptors(err));
  const told = (text: string) => `${change.prefix ? `${change.prefix}: ` : ''}${text}${change.suffix ?? ''}`;
  Object.defineProperty(copy, 'message', { value: told(err.message), writable: true, configurable: true });
  const whole = err.wholeMessage === undefined ? undefined : told(err.wholeMessage);
  Object.defineProperty(copy, 'wholeMessage', { value: whole, writable: false, configurable: true });
  Object.defineProperty(copy, 'hint', { value: change.hint ?? err.hint, writable: false, configurable: true });
  Object.defineProperty(copy, 'cause', { value: err, writable: true, configurable: true });
  return copy;
}

/** A gate or an audit said no. The details were already written to stderr. */
export class CheckFailedError extends FcastError {
  constructor(message: string) {
    super(message, ExitCode.CheckFailed);
  }
}

export interface ApiErrorDetails {
  status: number;
  /** The parsed JSON body, when the server sent one. */
  body?: unknown;
  /** Its text as received: `--json` prints it to stdout. */
  raw?: string;
  /** problem+json `title`, or the gateway's `error.code`. */
  title?: string;
  /** problem+json `detail`, or the gateway's `error.message`. */
  detail?: string;
  requestId?: string;
  /** Seconds the server asked us to wait, if it said. */
  retryAfter?: number;
}

/**
 * The server answered with a status that is not a usable answer. Its exit code comes from the
 * one status table (api/response-errors.ts `exitClassOf`), never decided here.
 */
export class ApiError extends FcastError {
  readonly details: ApiErrorDetails;
  /** `message` and `wholeMessage` given are the same text, cut and whole; by default both come from the details. */
  constructor(
    details: ApiErrorDetails,
    opts: ErrorOptions & { exitCode: ExitCode; message?: string; wholeMessage?: string },
  ) {
    super(opts.message ?? describeApiError(details, boundServerText), opts.exitCode, {
      ...opts,
      wholeMessage: opts.wholeMessage ?? (opts.message === undefined ? describeApiError(details) : undefined),
    });
    this.details = details;
  }
  get status(): number {
    return this.details.status;
  }
}

/** `HTTP 503 Service Unavailable: detail (request id ...)`; `shown` cuts the server's title and detail. */
function describeApiError(d: ApiErrorDetails, shown: (text: string) => string = (text) => text): string {
  const parts = [`HTTP ${d.status}`];
  if (d.title) parts.push(shown(d.title));
  let line = parts.join(' ');
  if (d.detail && d.detail !== d.title) line += `: ${shown(d.detail)}`;
  if (d.requestId) line += ` (request id ${shown(d.requestId)})`;
  return line;
}

/** Ctrl-C: not a failure of ours, and not worth a message. */
export class InterruptedError extends FcastError {
  constructor() {
    super('interrupted', ExitCode.Interrupted);
  }
}

/** A failed file operation said plainly, `permission denied (EACCES)`; Node's words for a code not listed. */
export function failureReason(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  const said = systemReason(e.code);
  if (said) return `${said} (${e.code})`;
  // Node's message begins with the code (`EBUSY: resource busy`): said once.
  return `${e.code ? `${e.code} ` : ''}${String(e.message ?? err).replace(/^\w+: /, '')}`;
}

/** A failed file operation's reason, said plainly (`no such file`); undefined for a code not listed. */
export function systemReason(code: string | undefined): string | undefined {
  return code === undefined ? undefined : SYSTEM_REASONS.get(code);
}

// A Map, not an object: a code is looked up, and `toString` is no key of an object's own.
// The launcher says a failed write to stdout with it too (src/launch/stdio.ts): the codes a
// write meets (a full disk, a closed descriptor) are here.
const SYSTEM_REASONS = new Map([
  ['ENOENT', 'no such file'],
  ['EACCES', 'permission denied'],
  ['EPERM', 'operation not permitted'],
  ['EISDIR', 'it is a directory'],
  ['ENOTDIR', 'a part of the path is not a directory'],
  ['ELOOP', 'too many symbolic links'],
  ['EROFS', 'a read-only file system'],
  ['ENOSPC', 'no space left on the device'],
  ['EDQUOT', 'the disk quota is exceeded'],
  ['EFBIG', 'the file is too large'],
  ['EBADF', 'it is closed'],
  ['EIO', 'an I/O error'],
]);
