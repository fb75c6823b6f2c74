// A connection to the service: the wire (direct or proxied, or a test's), the client over it,
// and the shape-check policy. Every command gets one through Run.connect(); doctor opens its
// own with settings of its choosing.
import type { Ctx } from '../core/context.js';
import type { Settings } from '../config/settings.js';
import { ApiClient } from './client.js';
import type { Connection } from './endpoints.js';
import type { ApiLog } from './log.js';
import { defaultTransport, proxyFromEnv, type Transport } from './transport.js';

export interface ConnectionOptions {
  strict?: boolean;
  /** Tests may swap the wire; production gets node:http(s), or undici through a proxy. */
  transport?: (ctx: Ctx) => Transport;
  /** Wraps the wire, whichever it is: register watches for the moment an answer arrives. */
  wrap?: (wire: Transport) => Transport;
}

export interface OpenConnection {
  conn: Connection;
  /** Destroys the connections so the process can end at once (resolved at once, never waited on). */
  close(): Promise<void>;
}

export function openConnection(
  ctx: Ctx,
  settings: Settings,
  log: ApiLog,
  opts: ConnectionOptions = {},
): OpenConnection {
  const given = opts.transport?.(ctx) ?? defaultTransport(proxyFromEnv(ctx.env));
  const wire = opts.wrap ? opts.wrap(given) : given;
  const client = new ApiClient({
    settings,
    log,
    clock: ctx.clock,
    signal: ctx.signal,
    transport: wire,
    userAgent: `fcast/${ctx.version} node/${ctx.nodeVersion}`,
  });
  return { conn: { client, log, strict: opts.strict === true }, close: async () => wire.close() };
}
