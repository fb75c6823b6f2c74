// The emulator's listener: where it listens, the URL it gives, and why it could not listen.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UsageError } from '../core/errors.js';

/** Why the emulator could not listen, as a usage error naming the flag to change (exit 2). */
function listenError(err: NodeJS.ErrnoException, host: string, port: number): unknown {
  switch (err.code) {
    case 'EADDRINUSE':
      return new UsageError(`port ${port} on ${host} is already in use`, {
        hint: 'try --port 0 (picks a free port), or stop what is using it',
        cause: err,
      });
    case 'EACCES':
      return new UsageError(`not allowed to listen on port ${port}`, {
        hint: 'ports below 1024 need privileges: try --port 0 (picks a free port)',
        cause: err,
      });
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new UsageError(`cannot listen on ${host}: it is not an address of this machine`, {
        hint: 'use --host 127.0.0.1 (the default), or an address this machine has',
        cause: err,
      });
    default:
      return err;
  }
}

export function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/** Listens on `host`:`port` (0: a free one) and gives the port; a failure is listenError's. */
export async function listen(httpServer: Server, host: string, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', (err) => reject(listenError(err, host, port)));
    httpServer.listen(port, host, () => {
      httpServer.removeAllListeners('error');
      resolve();
    });
  });
  return (httpServer.address() as AddressInfo).port;
}
