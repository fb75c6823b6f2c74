// The wire's shape, apart from its implementations (transport.ts chooses one, loading it lazily).
import type { Readable } from 'node:stream';

export interface WireRequest {
  url: URL;
  method: 'GET' | 'POST';
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
  proxyFor?(url: URL): string | undefined;
}

export interface ProxySettings {
  httpProxy?: string;
  httpsProxy?: string;
  noProxy?: string;
}
