// The wire: one interface, two implementations. Direct connections use node:http(s), which
// a CLI's one or few requests need and which loads in a fraction of undici's time; a proxy
// (CONNECT tunnels, NO_PROXY) goes through undici's public EnvHttpProxyAgent, loaded only
// when the environment names a proxy that applies. Neither enforces a deadline: the client
// owns the one deadline and races every phase against it, so a transport that ignores an
// abort can delay nothing.
import type { Env } from '../core/context.js';
import { ConfigError } from '../core/errors.js';
import type { ProxyRoute, ProxySettings, Transport } from './wire.js';

export type { ProxyRoute, ProxySettings, Transport, WireRequest, WireResponse } from './wire.js';

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
  return {
    httpProxy: url('http_proxy'),
    httpsProxy: url('https_proxy'),
    noProxy: noProxy && env[noProxy],
    httpVariable: proxyVariable(env, 'http_proxy'),
    httpsVariable: proxyVariable(env, 'https_proxy'),
  };
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
  // undici decodes them for the Basic credentials: a bare % (a password as typed) would fail
  // there, deep in the request, as a network error that says nothing.
  try {
    decodeURIComponent(url.username);
    decodeURIComponent(url.password);
  } catch {
    throw new ConfigError(`${name} has a user name or password that is not percent-encoded`, {
      hint: 'write % as %25 in them (and @ : / as %40 %3A %2F)',
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
  return proxyRoute(proxy, url)?.origin;
}

/** The proxy undici's EnvHttpProxyAgent would pick for `url`: where it is, its variable, whether it sends credentials. */
export function proxyRoute(proxy: ProxySettings, url: URL): ProxyRoute | undefined {
  const https = url.protocol === 'https:' && proxy.httpsProxy;
  const chosen = https ? proxy.httpsProxy : proxy.httpProxy;
  if (!chosen || bypassesProxy(proxy.noProxy, url)) return undefined;
  const variable = (https ? proxy.httpsVariable : proxy.httpVariable) ?? (https ? 'HTTPS_PROXY' : 'HTTP_PROXY');
  try {
    const parsed = new URL(chosen);
    const credentials = parsed.username && parsed.password ? 'sent' : parsed.username ? 'user-only' : 'none';
    return { origin: parsed.origin, variable, credentials };
  } catch {
    return { origin: 'the configured proxy', variable, credentials: 'none' };
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

/** The production wire: direct over node:http(s), or through the proxy the environment names. */
export function defaultTransport(proxy: ProxySettings): Transport {
  let direct: Promise<Transport> | undefined;
  let proxied: Promise<Transport> | undefined;
  return {
    async send(req) {
      if (proxyFor(proxy, req.url) === undefined) {
        direct ??= import('./node-transport.js').then((m) => m.nodeTransport());
        return (await direct).send(req);
      }
      proxied ??= import('./proxy-transport.js').then((m) => m.proxyTransport(proxy));
      return (await proxied).send(req);
    },
    close() {
      for (const wire of [direct, proxied]) void wire?.then((w) => w.close());
    },
    proxyFor: (url) => proxyRoute(proxy, url),
  };
}
