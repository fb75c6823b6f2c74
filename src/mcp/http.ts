// `fcast mcp --http`: the same server over Streamable HTTP, on loopback only. One endpoint,
// `/mcp`: a POST of one JSON-RPC message gets its answer as one JSON body (no event stream:
// progress is for stdio), a notification or a response 202 with none. GET and DELETE are 405
// (no stream to listen to, no session to end). The spec's guard against DNS rebinding: a
// request whose Host is not this loopback address, or whose Origin is not a loopback origin, is
// 403 before anything is read. A client that goes away abandons its request (as a cancellation).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RpcCode, SUPPORTED_VERSIONS } from './protocol.js';
import type { McpHost, ServeOptions } from './server.js';
import { Server } from './server.js';

/** The largest request body read; a longer one is 413. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export interface HttpListen {
  port: number;
  /** Told once listening: the endpoint's URL. */
  listening(url: string): void;
}

/** Serves until the context's signal aborts (Ctrl-C, SIGTERM), then closes. */
export async function serveHttp(host: McpHost, opts: ServeOptions, listen: HttpListen): Promise<void> {
  const server = new Server(host, opts);
  const http = createServer((req, res) => {
    handle(server, req, res).catch(() => {
      if (!res.headersSent) reply(res, 500, rpcError(null, RpcCode.InternalError, 'Internal error'));
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(listen.port, '127.0.0.1', () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  listen.listening(`http://127.0.0.1:${port}/mcp`);
  await new Promise<void>((resolve) => {
    if (host.ctx.signal.aborted) return resolve();
    host.ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  http.closeAllConnections();
  await new Promise<void>((resolve) => http.close(() => resolve()));
  await server.drain();
}

const rpcError = (id: unknown, code: number, message: string) => ({ jsonrpc: '2.0', id, error: { code, message } });

function reply(res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void {
  if (body === undefined) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Whether `value` (a Host header, or an Origin's host) names this machine's loopback. */
function loopbackHost(value: string): boolean {
  try {
    return LOOPBACK.has(new URL(`http://${value}`).hostname);
  } catch {
    return false;
  }
}

async function handle(server: Server, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = (req.url ?? '/').split('?')[0];
  if (!loopbackHost(req.headers.host ?? ''))
    return reply(res, 403, rpcError(null, RpcCode.InvalidRequest, 'Forbidden: Host is not loopback'));
  const origin = req.headers.origin;
  if (origin !== undefined) {
    let ok = false;
    try {
      const url = new URL(origin);
      ok = (url.protocol === 'http:' || url.protocol === 'https:') && loopbackHost(url.host);
    } catch {
      ok = false;
    }
    if (!ok)
      return reply(res, 403, rpcError(null, RpcCode.InvalidRequest, 'Forbidden: Origin is not a loopback origin'));
  }
  if (path !== '/mcp')
    return reply(res, 404, rpcError(null, RpcCode.InvalidRequest, 'Not Found: the endpoint is /mcp'));
  if (req.method !== 'POST') return reply(res, 405, undefined, { allow: 'POST' });
  const version = req.headers['mcp-protocol-version'];
  if (typeof version === 'string' && !SUPPORTED_VERSIONS.includes(version))
    return reply(
      res,
      400,
      rpcError(null, RpcCode.InvalidRequest, `Bad Request: unsupported MCP-Protocol-Version ${version.slice(0, 40)}`),
    );
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? ''))
    return reply(res, 415, rpcError(null, RpcCode.InvalidRequest, 'Unsupported Media Type: send application/json'));

  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return reply(res, 413, rpcError(null, RpcCode.InvalidRequest, 'Payload Too Large'));
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trimStart().startsWith('['))
    return reply(res, 400, rpcError(null, RpcCode.InvalidRequest, 'Invalid Request: batches are not supported'));

  let answered = false;
  const answer = new Promise<unknown>((resolve) => {
    const id = server.receive(text, (message) => {
      // Progress has no stream to go to here: only the answer is sent.
      if ((message as { method?: unknown }).method !== undefined || answered) return;
      answered = true;
      resolve(message);
    });
    if (id === undefined && !answered) {
      answered = true;
      resolve(undefined);
    } else if (id !== undefined) {
      res.on('close', () => {
        if (!answered) server.abandon(id);
      });
    }
  });
  const message = await answer;
  if (message === undefined) return reply(res, 202);
  reply(res, 200, message);
}
