// The wire's shape, apart from its implementations (transport.ts chooses one, loading it lazily),
// and the one failure a transport reports in its own words.
import type { Readable } from 'node:stream';

export interface WireRequest {
  url: URL;
  /** Upper case: GET and POST for the commands, any for `fcast api`. */
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

export interface WireResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Readable;
}

export interface Transport {
  send(req: WireRequest): Promise<WireResponse>;
  /** Destroys every connection at once: closing must never delay the exit. */
  close(): void;
  /** The proxy a request to `url` goes through (credentials removed), so errors can blame it. */
  proxyFor?(url: URL): ProxyRoute | undefined;
}

/**
 * A transport's failure after a provisional (1xx) answer and no final one: the status, so the
 * status table can class it, rather than the reset or parse error that followed.
 */
export class ProvisionalOnly extends Error {
  constructor(
    readonly status: number,
    cause: unknown,
  ) {
    super(`HTTP ${status}, and no final answer`, { cause });
  }
}

export interface ProxySettings {
  httpProxy?: string;
  httpsProxy?: string;
  noProxy?: string;
  /** The variables they came from (`HTTPS_PROXY` or `https_proxy`...), for naming in hints. */
  httpVariable?: string;
  httpsVariable?: string;
}

/** The proxy a request goes through, as an error may tell it: never its credentials. */
export interface ProxyRoute {
  /** The proxy's origin, without user name or password. */
  origin: string;
  /** The variable that names it, e.g. `HTTPS_PROXY`. */
  variable: string;
  /**
   * Whether its URL carries credentials: undici sends a user name and password (Basic), and
   * nothing at all for a user name alone.
   */
  credentials: 'sent' | 'user-only' | 'none';
}

/** localhost, ::1 and 127.x.x.x: where plain http may carry a key, and where `fcast mock` listens. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  // Names other than `localhost` itself resolve however DNS or /etc/hosts say: not trusted.
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}
