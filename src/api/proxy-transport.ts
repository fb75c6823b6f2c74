// Requests through an HTTP(S) proxy, on undici's public EnvHttpProxyAgent: CONNECT tunnels
// for both schemes, as curl does with HTTPS_PROXY. Loaded only when a proxy applies.
import type { Readable } from 'node:stream';
import { EnvHttpProxyAgent, request } from 'undici';
import type { ProxySettings, Transport } from './wire.js';

export function proxyTransport(proxy: ProxySettings): Transport {
  // Given explicitly so that the context's environment, not process.env, decides. The
  // deadline is the client's: undici's own per-phase timeouts would cut a slow-but-alive
  // body, or let a trickling one run past --timeout.
  const dispatcher = new EnvHttpProxyAgent({
    headersTimeout: 0,
    bodyTimeout: 0,
    httpProxy: proxy.httpProxy ?? '',
    httpsProxy: proxy.httpsProxy ?? '',
    noProxy: proxy.noProxy ?? '',
  });
  return {
    async send(req) {
      const res = await request(req.url, {
        method: req.method,
        headers: req.headers,
        body: req.body,
        signal: req.signal,
        dispatcher,
      });
      return { status: res.statusCode, headers: res.headers, body: res.body as unknown as Readable };
    },
    close() {
      // destroy(), not close(): a tunnel that never opened must not hold the exit.
      dispatcher.destroy().catch(() => undefined);
    },
  };
}
