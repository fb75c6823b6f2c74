// The wire, on undici. Its index loads every dispatcher, interceptor, cache store and mock
// it has (~85 ms on the dev machines); the three modules used here load in ~30 ms. undici
// has no "exports" map, so these paths are files of the exact version package.json pins; the types
// come from the package's own declarations.
import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import type { Agent as AgentType, Dispatcher, EnvHttpProxyAgent as EnvAgentType } from 'undici';
import type { Env } from '../context.js';
import { ConfigError } from '../errors.js';

const require = createRequire(import.meta.url);

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

/** Which of the two spellings is in effect: the lower-case one wins, as in curl and undici. */
export function proxyVariable(env: Env, lower: string): string | undefined {
  const upper = lower.toUpperCase();
  return env[lower] ? lower : env[upper] ? upper : undefined;
}

/** The proxies of the environment; a value that is not an http(s) URL is a config error (exit 3). */
export function proxyFromEnv(env: Env): ProxySettings {
  const url = (lower: string) => {
    const name = proxyVariable(env, lower);
    return name === undefined ? undefined : proxyUrl(name, env[name]!);
  };
  const noProxy = proxyVariable(env, 'no_proxy');
  return { httpProxy: url('http_proxy'), httpsProxy: url('https_proxy'), noProxy: noProxy && env[noProxy] };
}

/** `proxy.example:3128` means http://proxy.example:3128, as in curl. The value is never echoed: it may hold a password. */
function proxyUrl(name: string, raw: string): string {
  const text = raw.includes('://') ? raw : `http://${raw}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`${name} is not a URL`, {
      hint: 'set it to a URL such as http://proxy.example:3128, or unset it',
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${name} must be an http:// or https:// proxy, not ${url.protocol}`, {
      hint: 'set it to a URL such as http://proxy.example:3128, or unset it',
    });
  }
  return text;
}

/** A proxy URL with its user name and password masked, for showing. */
export function maskedProxy(raw: string): string {
  const url = new URL(raw.includes('://') ? raw : `http://${raw}`);
  if (url.username) url.username = '***';
  if (url.password) url.password = '***';
  return url.href.replace(/\/$/, '');
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
  const api = require('undici/lib/api/index.js') as {
    request: (this: Dispatcher, opts: object) => Promise<Dispatcher.ResponseData>;
  };
  // What undici's index does on load, and its ProxyAgent relies on (it calls client.connect()).
  const DispatcherClass = require('undici/lib/dispatcher/dispatcher.js') as { prototype: object };
  Object.assign(DispatcherClass.prototype, api);
  const { request } = api;
  // The overall deadline is ours (client.ts); undici's per-phase timeouts would cut a
  // slow-but-alive body or let a trickling one run past --timeout.
  const timeouts = { headersTimeout: 0, bodyTimeout: 0, connectTimeout: 0 };
  let dispatcher: Dispatcher;
  if (proxy.httpProxy || proxy.httpsProxy) {
    const EnvHttpProxyAgent = require('undici/lib/dispatcher/env-http-proxy-agent.js') as typeof EnvAgentType;
    // Given explicitly so that the context's environment, not process.env, decides.
    dispatcher = new EnvHttpProxyAgent({
      ...timeouts,
      httpProxy: proxy.httpProxy ?? '',
      httpsProxy: proxy.httpsProxy ?? '',
      noProxy: proxy.noProxy ?? '',
    });
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
