// The wire, on undici. Its index loads every dispatcher, interceptor, cache store and mock
// it has (~85 ms on the dev machines); the three modules used here load in ~30 ms. undici
// has no "exports" map, so these paths are public files of the pinned version; the types
// come from the package's own declarations.
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import type { Readable } from 'node:stream';
import type { Agent as AgentType, Dispatcher, EnvHttpProxyAgent as EnvAgentType } from 'undici';
import type { Env } from '../context.js';

const require = createRequire(import.meta.url);

// undici parses HTTP with llhttp compiled to WebAssembly. V8 compiles it twice: a quick
// baseline (Liftoff), then an optimised tier in background threads that the process must
// join before it exits, ~80 ms of a ~250 ms `fcast demo --json` (npm run bench). One short
// response never needs the optimised parser. Set before undici first compiles the module.
setFlagsFromString('--liftoff-only');

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
  close(): Promise<void>;
  /** The proxy a request to `url` goes through (credentials removed), so errors can blame it. */
  proxyFor?(url: URL): string | undefined;
}

export interface ProxySettings {
  httpProxy?: string;
  httpsProxy?: string;
  noProxy?: string;
}

export function proxyFromEnv(env: Env): ProxySettings {
  const first = (...names: string[]) => names.map((n) => env[n]).find((v) => v !== undefined && v !== '');
  return {
    httpProxy: first('http_proxy', 'HTTP_PROXY'),
    httpsProxy: first('https_proxy', 'HTTPS_PROXY'),
    noProxy: first('no_proxy', 'NO_PROXY'),
  };
}

/** The proxy undici's EnvHttpProxyAgent would pick for `url`, shown without credentials. */
export function proxyFor(proxy: ProxySettings, url: URL): string | undefined {
  const chosen = url.protocol === 'https:' ? (proxy.httpsProxy ?? proxy.httpProxy) : proxy.httpProxy;
  if (!chosen || bypassesProxy(proxy.noProxy, url)) return undefined;
  try {
    return new URL(chosen).origin;
  } catch {
    return 'the configured proxy';
  }
}

function bypassesProxy(noProxy: string | undefined, url: URL): boolean {
  const entries = (noProxy ?? '').split(/[,\s]+/).filter(Boolean);
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return entries.some((entry) => {
    if (entry === '*') return true;
    const m = /^(.*?)(?::(\d+))?$/.exec(entry.toLowerCase().replace(/^\*?\./, ''))!;
    if (m[2] && m[2] !== port) return false;
    return host === m[1] || host.endsWith(`.${m[1]}`);
  });
}

export function undiciTransport(proxy: ProxySettings): Transport {
  const api = require('undici/lib/api/index.js') as { request: (this: Dispatcher, opts: object) => Promise<Dispatcher.ResponseData> };
  // What undici's index does on load, and its ProxyAgent relies on (it calls client.connect()).
  const DispatcherClass = require('undici/lib/dispatcher/dispatcher.js') as { prototype: object };
  Object.assign(DispatcherClass.prototype, api);
  const { request } = api;
  // The overall deadline is ours (client.ts); undici's per-phase timeouts would cut a
  // slow-but-alive body or let a trickling one run past --timeout.
  const timeouts = { headersTimeout: 0, bodyTimeout: 0 };
  let dispatcher: Dispatcher;
  if (proxy.httpProxy || proxy.httpsProxy) {
    const EnvHttpProxyAgent = require('undici/lib/dispatcher/env-http-proxy-agent.js') as typeof EnvAgentType;
    // Given explicitly so that the context's environment, not process.env, decides.
    dispatcher = new EnvHttpProxyAgent({ ...timeouts, httpProxy: proxy.httpProxy ?? '', httpsProxy: proxy.httpsProxy ?? '', noProxy: proxy.noProxy ?? '' });
  } else {
    const Agent = require('undici/lib/dispatcher/agent.js') as typeof AgentType;
    dispatcher = new Agent(timeouts);
  }
  return {
    async send(req) {
      const res = await request.call(dispatcher, {
        origin: req.url.origin,
        path: req.url.pathname + req.url.search,
        method: req.method,
        headers: req.headers,
        body: req.body,
        signal: req.signal,
      });
      return { status: res.statusCode, headers: res.headers, body: res.body as unknown as Readable };
    },
    close: () => dispatcher.close(),
    proxyFor: (url) => proxyFor(proxy, url),
  };
}
