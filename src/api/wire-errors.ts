// What a failed exchange means, told in the user's terms: the deadline, Ctrl-C, DNS, a refused
// or reset connection, TLS trouble, a proxy that failed. Library text (undici, OpenSSL) never
// reaches the message; it stays on the error's cause for --verbose.
import { BadResponseError, ConfigError, FcastError, NetworkError } from '../core/errors.js';
import { apiErrorFrom, NOT_THE_API, proxyCredentialsHint } from './response-errors.js';
import { isLoopbackHost, ProvisionalOnly, type ProxyRoute } from './wire.js';

/** The overall deadline passed (an abort reason, never thrown to a user as is). */
export class Timeout extends Error {}

/** A connection refused or reset before any answer: safe to send again when the request is idempotent. */
export class RetryableNetworkError extends NetworkError {
  final(idempotent: boolean): NetworkError {
    if (idempotent || !this.mayHaveArrived) return this;
    return new NetworkError(this.message, {
      hint: 'the request may have reached the server; nothing was retried',
      cause: this.cause,
    });
  }
}

export { isLoopbackHost };

/** What to do when nothing listens on a loopback base URL: most often, the emulator is not running. */
export const START_MOCK_HINT =
  'nothing listens there: start the emulator with \'fcast mock\' (in the background: eval "$(fcast mock --print-env &)")';

const RETRYABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const CERTIFICATE_CODES: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'a self-signed certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'a self-signed certificate in its chain',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'a certificate that cannot be verified',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'a certificate from an unknown issuer',
  CERT_HAS_EXPIRED: 'an expired certificate',
  ERR_TLS_CERT_ALTNAME_INVALID: 'a certificate for another host name',
};

export function networkError(err: unknown, signal: AbortSignal, url: URL, route: ProxyRoute | undefined): FcastError {
  const proxy = route?.origin;
  if (signal.aborted) {
    const reason: unknown = signal.reason;
    if (reason instanceof Timeout) {
      const via = proxy ? ` through the proxy ${proxy}` : '';
      return new NetworkError(`request to ${url.host}${via} timed out: ${reason.message}`, {
        hint: 'raise --timeout, or check the network',
      });
    }
    if (reason instanceof FcastError) return reason;
  }
  if (err instanceof FcastError) return err;
  // A 1xx and then nothing (node:http took it as provisional and waited): the status table's.
  if (err instanceof ProvisionalOnly) return apiErrorFrom(err.status, undefined);
  const e = (err ?? {}) as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  const code = e.code ?? e.cause?.code ?? '';
  const text = `${e.message ?? ''} ${e.cause?.message ?? ''}`;
  const cause = err;
  const refusal = route && proxyRefusal(text, url, route, cause);
  if (refusal) return refusal;
  if (proxy && (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || /proxy/i.test(text))) {
    // The connection that failed may be the proxy's, not the service's: say which way it went.
    const why =
      code === 'ECONNREFUSED'
        ? 'it refused the connection (ECONNREFUSED)'
        : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
          ? `its host cannot be resolved (${code})`
          : `the tunnel could not be opened${code ? ` (${code})` : ''}`;
    const message = `request to ${url.host} through the proxy ${proxy} failed: ${why}`;
    const hint = 'check HTTPS_PROXY / HTTP_PROXY, or list the host in NO_PROXY to go direct';
    const opts = { hint, cause };
    // A refused proxy is a refused connection like any other: retried, as the contract asks.
    return code === 'ECONNREFUSED'
      ? new RetryableNetworkError(message, { ...opts, mayHaveArrived: false })
      : new NetworkError(message, { ...opts, mayHaveArrived: false });
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new NetworkError(`cannot resolve ${url.hostname} (${code})`, {
      hint: 'check the base URL and your DNS or proxy settings',
      mayHaveArrived: false,
      cause,
    });
  }
  if (code === 'ECONNREFUSED' && isLoopbackHost(url.hostname)) {
    // Nothing listens on this machine's port: no wait brings it up, so not retried.
    return new NetworkError(`connection to ${url.host} refused`, {
      hint: START_MOCK_HINT,
      mayHaveArrived: false,
      cause,
    });
  }
  if (code === 'ECONNREFUSED') {
    return new RetryableNetworkError(`connection to ${url.host} refused`, {
      hint: "is the service running at the base URL? ('fcast doctor' checks it)",
      mayHaveArrived: false,
      cause,
    });
  }
  if (/wrong version number|packet length too long|http request/i.test(text)) {
    const plain = new URL(url.href);
    plain.protocol = 'http:';
    return new NetworkError(`the server at ${url.host} answered plain http, not https`, {
      hint: `use ${plain.origin} as the base URL (plain http carries a key only to a loopback host)`,
      mayHaveArrived: false,
      cause,
    });
  }
  const certificate = CERTIFICATE_CODES[code];
  if (certificate) {
    return new NetworkError(`${url.host} presented ${certificate} (${code})`, {
      hint: 'check the base URL; for a private CA, point NODE_EXTRA_CA_CERTS at its certificate',
      mayHaveArrived: false,
      cause,
    });
  }
  if (code.startsWith('ERR_SSL') || code.startsWith('ERR_TLS') || code === 'EPROTO' || /SSL|TLS/.test(text)) {
    return new NetworkError(`the TLS handshake with ${url.host} failed${code ? ` (${code})` : ''}`, {
      hint: 'is the base URL right, and does the server speak https on that port?',
      mayHaveArrived: false,
      cause,
    });
  }
  if (RETRYABLE_CODES.has(code))
    return new RetryableNetworkError(`connection to ${url.host} was reset (${code})`, { cause });
  // llhttp's codes (node:http's parser and undici's): something answered, but not in HTTP,
  // or with headers past any limit; a bad response (exit 7), not a network failure.
  if (code.startsWith('HPE_')) {
    return new BadResponseError(`${url.host} did not answer in HTTP (${code})`, {
      hint: `${NOT_THE_API} and its port`,
      cause,
    });
  }
  return new NetworkError(`request to ${url.host} failed${code ? ` (${code})` : ''}`, {
    hint: 'run again with --verbose for the details',
    cause,
  });
}

/**
 * The proxy answered, and said no: to CONNECT (undici: "Proxy response (403) !== 200 when HTTP
 * Tunneling"), or 407 to a forwarded request ("Proxy Authentication Required (407)"). A 4xx is
 * the proxy's settings or rules (exit 3: nothing is down); a 5xx, the proxy failing to reach
 * the service (exit 6, retried like a refused connection: the request never reached it).
 */
function proxyRefusal(text: string, url: URL, route: ProxyRoute, cause: unknown): FcastError | undefined {
  const forwarded = /Proxy Authentication Required \(407\)/.test(text);
  const status = forwarded ? 407 : Number(/proxy response \((\d{3})\)/i.exec(text)?.[1]);
  if (!status) return undefined;
  const proxy = `the proxy ${route.origin} (${route.variable})`;
  // The destination as CONNECT names it, port and all: the port is what proxies filter on.
  const destination = url.port ? url.host : `${url.host}:${url.protocol === 'https:' ? 443 : 80}`;
  const to = forwarded ? '(HTTP 407)' : `to open a tunnel to ${destination} (HTTP ${status} to CONNECT)`;
  if (status === 407)
    return new ConfigError(`${proxy} wants credentials ${to}`, { hint: proxyCredentialsHint(route), cause });
  if (status >= 500 && status <= 599) {
    return new RetryableNetworkError(`${proxy} could not reach ${destination} (HTTP ${status} to CONNECT)`, {
      hint: 'the proxy is up but cannot reach the service: try again later, and check the base URL',
      mayHaveArrived: false,
      cause,
    });
  }
  return new ConfigError(`${proxy} refused ${to}`, {
    hint:
      status === 403
        ? `its rules do not allow ${destination} (a host or port outside its list): ask who runs it, or list ${url.hostname} in NO_PROXY to go direct`
        : `check ${route.variable}, or list ${url.hostname} in NO_PROXY to go direct`,
    cause,
  });
}
