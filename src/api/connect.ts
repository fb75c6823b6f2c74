// A connection to the service: the wire (undici, or a test's), the client over it, and the
// shape-check policy. Every command gets one through Run.connect(); doctor opens its own
// with settings of its choosing.
import type { Ctx } from '../context.js';
import type { Output } from '../output/io.js';
import type { Settings } from '../settings.js';
import { ApiClient } from './client.js';
import type { Connection } from './endpoints.js';
import { proxyFromEnv, undiciTransport, type Transport } from './transport.js';

export interface ConnectionOptions {
  dryRun?: boolean;
  strict?: boolean;
  /** Tests may swap the wire; production gets undici with the context's proxy settings. */
  transport?: (ctx: Ctx) => Transport;
  /** Wraps the wire, whichever it is: register watches for the moment an answer arrives. */
  wrap?: (wire: Transport) => Transport;
}

export interface OpenConnection {
  conn: Connection;
  /** Releases the connections so the process can end at once. */
  close(): Promise<void>;
}

export function openConnection(
  ctx: Ctx,
  settings: Settings,
  out: Output,
  opts: ConnectionOptions = {},
): OpenConnection {
  const given = opts.transport?.(ctx) ?? undiciTransport(proxyFromEnv(ctx.env));
  const wire = opts.wrap ? opts.wrap(given) : given;
  const client = new ApiClient({
    settings,
    out,
    clock: ctx.clock,
    signal: ctx.signal,
    transport: wire,
    dryRun: opts.dryRun === true,
    userAgent: `fcast/${ctx.version} node/${ctx.nodeVersion}`,
  });
  return { conn: { client, out, strict: opts.strict === true }, close: () => wire.close() };
}
