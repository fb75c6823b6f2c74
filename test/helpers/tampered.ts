// A tiny server of the test's own on loopback, for bodies the emulator would never send: a
// track record with a wrong interval, a verify body with a contradicting outcome. The test
// builds each body (usually from the emulator's real one) and this serves it as JSON.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

export interface Served {
  status?: number;
  body: unknown;
  /** The text to send instead of JSON.stringify(body): numbers written as JSON.stringify would not (1.50). */
  raw?: string;
}

export interface TamperedServer {
  url: string;
  /** Path and query of every request received, e.g. `/api/agent/v1/accuracy.php?tf=1h`. */
  requests: string[];
  close(): Promise<void>;
}

export async function serveTampered(respond: (url: URL) => Served | Promise<Served>): Promise<TamperedServer> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(url.pathname + url.search);
    Promise.resolve(respond(url)).then(
      ({ status = 200, body, raw }) => {
        res.writeHead(status, { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json' });
        res.end(raw ?? JSON.stringify(body));
      },
      (err: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(err));
      },
    );
  });
  return listening(server, requests);
}

/** The emulator's body for a path, parsed. */
export async function fetchBody<T = Record<string, unknown>>(baseUrl: string, path: string): Promise<T> {
  const res = await fetch(`${baseUrl}/${path.replace(/^\//, '')}`);
  return (await res.json()) as T;
}

export interface TamperedFixture {
  /** Starts a server for this test (closed after it) and returns its base URL. */
  serve(respond: (url: URL) => Served | Promise<Served>): Promise<string>;
  /** The server the running test started last. */
  readonly server: TamperedServer;
}

/** One tampered server per test at most, closed after each test. */
export function useTamperedServer(): TamperedFixture {
  let current: TamperedServer | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return {
    async serve(respond) {
      await current?.close();
      current = await serveTampered(respond);
      return current.url;
    },
    get server() {
      if (!current) throw new Error('no tampered server in this test');
      return current;
    },
  };
}

/** Every string of a body, rewritten by `edit` (given the key it sits under); numbers, nulls and keys as they were. */
export function rewriteStrings(value: unknown, edit: (text: string, key: string) => string, key = ''): unknown {
  if (typeof value === 'string') return edit(value, key);
  if (Array.isArray(value)) return value.map((item) => rewriteStrings(item, edit, key));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewriteStrings(v, edit, k)]));
  return value;
}

/**
 * A server that forwards each request (method, headers, body) to `target`, the emulator, and
 * answers with its status and its JSON body rewritten by `rewrite` (a body that is not JSON
 * goes back as it came).
 */
export async function serveForwarding(
  target: string,
  rewrite: (body: unknown, url: URL) => unknown,
): Promise<TamperedServer> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(url.pathname + url.search);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === 'string' && !['host', 'connection', 'content-length', 'accept-encoding'].includes(k))
          headers[k] = v;
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      fetch(`${target}${url.pathname}${url.search}`, { method: req.method, headers, body })
        .then(async (answer) => {
          const text = await answer.text();
          let out = text;
          try {
            out = JSON.stringify(rewrite(JSON.parse(text), url));
          } catch {
            // not JSON: as it came
          }
          res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
          res.end(out);
        })
        .catch((err: unknown) => {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(String(err));
        });
    });
  });
  return listening(server, requests);
}

/** The server listening on a free loopback port: its URL, the requests it saw, and how to stop it. */
async function listening(server: Server, requests: string[]): Promise<TamperedServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
