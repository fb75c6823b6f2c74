// Requests through an HTTP(S) proxy, on undici's public EnvHttpProxyAgent, as curl does: a
// CONNECT tunnel for an https URL, and an http URL forwarded (`GET http://host/path`), since a
// proxy commonly allows CONNECT only to port 443 (squid's default). Only keyless requests go to
// an http URL through a proxy: the client refuses to send a key that way. Loaded only when a
// proxy applies.
import type { Readable } from 'node:stream';
import { type Dispatcher, EnvHttpProxyAgent, Pool, request } from 'undici';
import type { ProxySettings, Transport } from './wire.js';

export function proxyTransport(proxy: ProxySettings): Transport {
  // Given explicitly so that the context's environment, not process.env, decides. The
  // deadline is the client's: undici's own per-phase timeouts would cut a slow-but-alive
  // body, or let a trickling one run past --timeout.
  const dispatcher = new EnvHttpProxyAgent({
    headersTimeout: 0,
    bodyTimeout: 0,
    proxyTunnel: false,
    clientFactory: tunnelPool,
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

/**
 * The pool undici opens CONNECT tunnels with, its failures renamed. A proxy that closes the
 * connection instead of answering CONNECT fails it with undici's UND_ERR_SOCKET, which undici
 * takes as recoverable and answers by connecting again, at once and for ever (thousands of
 * CONNECTs a second until --timeout): under another code the request fails, once.
 */
function tunnelPool(origin: URL, options: Pool.Options): Dispatcher {
  const pool = new Pool(origin, options);
  // ProxyAgent calls the promise form only; the callback form passes through unchanged.
  const original = pool.connect.bind(pool) as (...args: unknown[]) => Promise<Dispatcher.ConnectData> | undefined;
  pool.connect = ((...args: unknown[]) => {
    const pending = original(...args);
    return pending?.catch((err: NodeJS.ErrnoException) => {
      if (err?.code !== 'UND_ERR_SOCKET') throw err;
      throw Object.assign(new Error('the proxy closed the connection before answering CONNECT', { cause: err }), {
        code: 'ECONNRESET',
      });
    });
  }) as typeof pool.connect;
  return pool;
}
