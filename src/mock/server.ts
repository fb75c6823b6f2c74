// The emulator's HTTP server: records every request, applies injected faults, then routes to the
// REST surface or the gateway. An admin surface under /__mock/ lets a script change faults and read
// the recorded requests; it is neither recorded nor subject to faults, so a fault can always be lifted.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GATEWAY_PATH } from '../core/domain.js';
import { UsageError } from '../core/errors.js';
import {
  FaultList,
  parseFault,
  DEFAULT_DELAY_MS,
  DEFAULT_RETRY_AFTER_S,
  sendHtml,
  sendHuge,
  sendReset,
  sendTruncated,
  type Fault,
} from './faults.js';
import { gatewayFailure, handleGateway } from './gateway.js';
import { meta } from './meta.js';
import { HttpProblem } from './problems.js';
import { handleRest, REST_BASE, tierOf } from './rest.js';
import { createState, serverT, type GatewayLimits, type MockState } from './state.js';
import { restoreKept, saveKept } from './kept.js';
import { emulatedClock, isEmulatable, parseInstant, type ClockSettings, type EmulatedClock } from './clock.js';

export { parseFault, type Fault };

export interface MockOptions {
  port?: number;
  host?: string;
  seed?: string;
  /** The wall clock the emulated one runs against, in milliseconds since the epoch; default Date.now. */
  now?: () => number;
  /** Where the emulated clock starts and how fast it runs (default: now, real time). */
  clock?: ClockSettings;
  faults?: Fault[];
  /** No request log on stderr. Defaults to true, so test runs stay silent; `fcast mock` passes false. */
  quiet?: boolean;
  /**
   * Where the request log goes: `fcast mock` hands it its redacted stderr (the output boundary,
   * core/sinks.ts); alone (tests, the bench), process.stderr.
   */
  log?: (line: string) => void;
  /** The gateway's rate limit and daily quota per key (default 60 a minute, 1000 a day). */
  gatewayLimits?: GatewayLimits;
  /** How many of the latest requests the log keeps (default 1000): the emulator may run for days. */
  requestLog?: number;
  /**
   * A file that keeps the keys it issues across restarts (read at start, written after each
   * registration); none by default, so tests keep nothing.
   */
  stateFile?: string;
}

export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, or the raw text when it is not JSON, or undefined when there was no body. */
  body: unknown;
}

export interface MockServer {
  /** http://HOST:PORT, no trailing slash. */
  url: string;
  port: number;
  /** A REST key the server accepts from the start, derived from the seed; it has every gateway scope. */
  testKey: string;
  /** A gateway key with only the market.read scope; REST endpoints refuse it. */
  limitedGatewayKey: string;
  /** The latest requests, oldest first: at most `requestLog` of them. */
  requests: RecordedRequest[];
  /** The emulated clock every body follows; a test may advance it. */
  clock: EmulatedClock;
  /** How many issued keys the state file brought back from earlier runs. */
  keptKeys: number;
  setFaults(f: Fault[]): void;
  close(): Promise<void>;
}

export const DEFAULT_SEED = 'fcast-mock';
const DEFAULT_REQUEST_LOG = 1000;
const MAX_REQUEST_BODY = 1024 * 1024;
const GATEWAY = `/${GATEWAY_PATH}`;
const REST_ROOT = REST_BASE.replace(/\/$/, '');

interface ReadBody {
  text: string | undefined;
  tooLarge: boolean;
  size: number;
}

async function readBody(req: IncomingMessage): Promise<ReadBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    // Keep reading past the cap so the client gets an answer rather than a reset.
    if (size <= MAX_REQUEST_BODY) chunks.push(chunk);
  }
  if (size === 0) return { text: undefined, tooLarge: false, size };
  return { text: Buffer.concat(chunks).toString('utf8'), tooLarge: size > MAX_REQUEST_BODY, size };
}

function parsedForRecord(body: ReadBody): unknown {
  if (body.tooLarge) return `<${body.size} bytes, over the ${MAX_REQUEST_BODY}-byte limit>`;
  if (body.text === undefined) return undefined;
  try {
    return JSON.parse(body.text);
  } catch {
    return body.text;
  }
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  type = 'application/json',
): void {
  sendText(res, status, `${JSON.stringify(body)}\n`, headers, type);
}

function sendText(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
  type = 'application/json',
): void {
  res.writeHead(status, {
    'content-type': type,
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(text);
}

function sendProblem(state: MockState, res: ServerResponse, req: IncomingMessage, problem: HttpProblem): void {
  const tier = tierOf(state, { headers: req.headers });
  sendJson(res, problem.status, problem.body(meta(tier, serverT(state))), problem.headers, 'application/problem+json');
}

/**
 * The text of REST GET answers within the current second. A GET answer is a pure function of
 * the URL, the key, the origin, the server's second and the keys registered so far (the set
 * only grows, so its size stands for it): under load the same demo body is built once a second,
 * not once a request. Forgotten when the second changes, and bounded within one.
 */
class ReplyMemo {
  private second = Number.NaN;
  private keys = -1;
  private readonly texts = new Map<string, string>();
  constructor(private readonly state: MockState) {}

  keyFor(url: string, authorization: string | undefined, origin: string): string {
    const second = serverT(this.state);
    const keys = this.state.restKeyHashes.size;
    if (second !== this.second || keys !== this.keys) {
      this.texts.clear();
      this.second = second;
      this.keys = keys;
    }
    return `${url}\n${authorization ?? ''}\n${origin}`;
  }

  get(key: string): string | undefined {
    return this.texts.get(key);
  }

  set(key: string, text: string): void {
    if (this.texts.size >= 256) this.texts.clear();
    this.texts.set(key, text);
  }
}

function firstValues(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of params) if (!(k in out)) out[k] = v;
  return out;
}

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

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

export async function startMock(opts: MockOptions = {}): Promise<MockServer> {
  const clock = emulatedClock(opts.clock, opts.now ?? Date.now);
  const state = createState(opts.seed ?? DEFAULT_SEED, clock.now, opts.gatewayLimits);
  const write = opts.log ?? ((line: string) => process.stderr.write(line));
  const { stateFile } = opts;
  const keptKeys = stateFile === undefined ? 0 : restoreKept(state, stateFile);
  if (stateFile !== undefined) {
    state.issued = () => {
      try {
        saveKept(state, stateFile);
      } catch (err) {
        // The key still works until the emulator stops; only its survival is lost.
        write(`mock: cannot keep the issued keys in ${stateFile}: ${(err as Error).message}\n`);
      }
    };
  }
  const faults = new FaultList();
  faults.set(opts.faults ?? []);
  const requests: RecordedRequest[] = [];
  const logLimit = Math.max(0, opts.requestLog ?? DEFAULT_REQUEST_LOG);
  const replies = new ReplyMemo(state);
  // A ring of the last `logLimit`: the oldest goes as a new one comes (a shift of at most a
  // thousand pointers, cheaper than the request it records).
  const record = (entry: RecordedRequest) => {
    requests.push(entry);
    while (requests.length > logLimit) requests.shift();
  };
  const quiet = opts.quiet ?? true;
  // Pending `slow` waits, woken by close() so that no timer outlives the server.
  const waits = new Set<() => void>();
  let closing = false;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        waits.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      waits.add(done);
    });

  function log(req: IncomingMessage, res: ServerResponse, started: number): void {
    if (quiet) return;
    const status = res.headersSent ? String(res.statusCode) : 'reset';
    write(`mock ${req.method} ${req.url} -> ${status} ${Date.now() - started}ms\n`);
  }

  async function admin(req: IncomingMessage, res: ServerResponse, pathname: string, body: ReadBody): Promise<void> {
    const method = req.method ?? 'GET';
    if (pathname === '/__mock/requests') {
      if (method === 'GET') return sendJson(res, 200, { ok: true, count: requests.length, limit: logLimit, requests });
      if (method === 'DELETE') {
        const cleared = requests.length;
        requests.length = 0;
        return sendJson(res, 200, { ok: true, cleared });
      }
      return sendJson(res, 405, { ok: false, error: 'use GET or DELETE' }, { allow: 'GET, DELETE' });
    }
    if (pathname === '/__mock/faults') {
      if (method === 'GET') return sendJson(res, 200, { ok: true, faults: faults.list() });
      if (method === 'DELETE') {
        faults.set([]);
        return sendJson(res, 200, { ok: true, faults: [] });
      }
      if (method === 'POST' || method === 'PUT') {
        try {
          const list: unknown = JSON.parse(body.text ?? '');
          if (!Array.isArray(list))
            throw new Error('expected a JSON array of faults, e.g. [{"kind":"429","times":2}] or ["503,times=1"]');
          faults.set(list);
        } catch (err) {
          return sendJson(res, 400, { ok: false, error: (err as Error).message });
        }
        return sendJson(res, 200, { ok: true, faults: faults.list() });
      }
      return sendJson(res, 405, { ok: false, error: 'use GET, POST or DELETE' }, { allow: 'GET, POST, DELETE' });
    }
    if (pathname === '/__mock/clock') {
      if (method === 'POST' || method === 'PUT') {
        try {
          moveClock(clock, body.text);
        } catch (err) {
          return sendJson(res, 400, { ok: false, error: (err as Error).message });
        }
      } else if (method !== 'GET') {
        return sendJson(res, 405, { ok: false, error: 'use GET or POST' }, { allow: 'GET, POST' });
      }
      return sendJson(res, 200, clockBody(clock));
    }
    return sendJson(res, 404, {
      ok: false,
      error: 'admin routes: GET|POST|DELETE /__mock/faults, GET|DELETE /__mock/requests, GET|POST /__mock/clock',
    });
  }

  /** Returns true when the fault answered (or dropped) the request itself. */
  async function applyFault(
    fault: Fault,
    req: IncomingMessage,
    res: ServerResponse,
    isGateway: boolean,
  ): Promise<boolean> {
    const retryAfter = fault.retryAfter ?? DEFAULT_RETRY_AFTER_S;
    switch (fault.kind) {
      case '429':
      case '503': {
        const status = Number(fault.kind);
        if (isGateway) {
          // Only the envelope's retry_after, no header: clients must read the body to know the wait.
          const reply =
            status === 429
              ? gatewayFailure(state, 429, 'rate_limited', `rate limit exceeded; retry in ${retryAfter}s`, retryAfter)
              : gatewayFailure(
                  state,
                  503,
                  'unavailable',
                  `gateway temporarily unavailable; retry in ${retryAfter}s`,
                  retryAfter,
                );
          sendJson(res, reply.status, reply.body);
        } else {
          const problem =
            status === 429
              ? new HttpProblem('rate-limited', `rate limit exceeded; retry in ${retryAfter} seconds`, {
                  'retry-after': String(retryAfter),
                })
              : new HttpProblem('unavailable', `temporarily unavailable; retry in ${retryAfter} seconds`, {
                  'retry-after': String(retryAfter),
                });
          sendProblem(state, res, req, problem);
        }
        return true;
      }
      case 'slow':
        await sleep(fault.delayMs ?? DEFAULT_DELAY_MS);
        return closing || res.destroyed;
      case 'html':
        sendHtml(res);
        return true;
      case 'reset':
        sendReset(req);
        return true;
      case 'truncate':
        sendTruncated(res);
        return true;
      case 'huge':
        await sendHuge(res);
        return true;
      case 'shrink':
        return false; // not an answer of its own: the track record is rewritten (see handleRest)
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = Date.now();
    res.on('close', () => log(req, res, started));
    const rawUrl = req.url ?? '/';
    const url = new URL(rawUrl, 'http://emulator.invalid');
    const pathname = url.pathname;
    const body = await readBody(req);
    if (pathname.startsWith('/__mock/')) return admin(req, res, pathname, body);

    record({
      method: req.method ?? 'GET',
      path: pathname,
      query: firstValues(url.searchParams),
      headers: { ...req.headers },
      body: parsedForRecord(body),
    });
    const isGateway = pathname === GATEWAY;
    const fault = faults.take(rawUrl);
    if (fault && (await applyFault(fault, req, res, isGateway))) return;

    if (isGateway) {
      if (body.tooLarge) {
        const reply = gatewayFailure(state, 413, 'invalid_body', `the body is larger than ${MAX_REQUEST_BODY} bytes`);
        return sendJson(res, reply.status, reply.body);
      }
      const reply = handleGateway(state, req.method ?? 'GET', req.headers, body.text);
      return sendJson(res, reply.status, reply.body, reply.headers);
    }
    try {
      if (pathname !== REST_ROOT && !pathname.startsWith(REST_BASE)) {
        throw new HttpProblem('not-found', `no such endpoint: ${pathname}; the API lives under ${REST_BASE}`);
      }
      if (body.tooLarge)
        throw new HttpProblem('payload-too-large', `the body is larger than ${MAX_REQUEST_BODY} bytes`);
      const origin = req.headers.host ? `http://${req.headers.host}` : server.url;
      // The shrink fault rewrites the track record: its answers are memoised apart.
      const shrink = fault?.kind === 'shrink';
      const memoUrl = shrink ? `${rawUrl}\nshrink` : rawUrl;
      const memoKey = req.method === 'GET' ? replies.keyFor(memoUrl, req.headers.authorization, origin) : undefined;
      const memo = memoKey === undefined ? undefined : replies.get(memoKey);
      if (memo !== undefined) return sendText(res, 200, memo);
      const reply = handleRest(state, {
        method: req.method ?? 'GET',
        route: pathname === REST_ROOT ? '' : pathname.slice(REST_BASE.length),
        query: firstValues(url.searchParams),
        headers: req.headers,
        rawBody: body.text,
        origin,
        shrink,
      });
      const text = `${JSON.stringify(reply.body)}\n`;
      if (memoKey !== undefined && reply.status === 200) replies.set(memoKey, text);
      sendText(res, reply.status, text);
    } catch (err) {
      if (err instanceof HttpProblem) return sendProblem(state, res, req, err);
      throw err;
    }
  }

  const httpServer = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!quiet) write(`mock: internal error: ${(err as Error).stack ?? String(err)}\n`);
      if (res.headersSent || res.destroyed) {
        res.destroy();
        return;
      }
      sendProblem(
        state,
        res,
        req,
        new HttpProblem('internal-error', 'the emulator failed to answer; this is a bug in the emulator'),
      );
    });
  });

  // Idle connections stay open 75 s, as nginx's default keeps them: a watch refreshing every
  // minute (the default) reuses its one connection, where Node's 5 s would close it between
  // any two refreshes.
  httpServer.keepAliveTimeout = 75_000;

  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', (err) => reject(listenError(err, host, opts.port ?? 0)));
    httpServer.listen(opts.port ?? 0, host, () => {
      httpServer.removeAllListeners('error');
      resolve();
    });
  });
  const port = (httpServer.address() as AddressInfo).port;

  const server: MockServer = {
    url: `http://${urlHost(host)}:${port}`,
    port,
    testKey: state.testKey,
    limitedGatewayKey: state.limitedGatewayKey,
    requests,
    clock,
    keptKeys,
    setFaults(f: Fault[]) {
      faults.set(f);
    },
    close() {
      closing = true;
      for (const wake of [...waits]) wake();
      return new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        // Keep-alive sockets would otherwise hold close() open for seconds.
        httpServer.closeAllConnections();
      });
    },
  };
  return server;
}

/** What GET /__mock/clock answers: the emulated time, as ISO and epoch seconds, and its speed. */
function clockBody(clock: EmulatedClock): { ok: true; now: string; t: number; speed: number } {
  const ms = clock.now();
  return { ok: true, now: new Date(ms).toISOString(), t: Math.floor(ms / 1000), speed: clock.speed };
}

/**
 * POST /__mock/clock: `{"advance": seconds}` moves the clock, `{"set": "2026-11-24T19:00Z"}`
 * (or epoch seconds) puts it at an instant, `{"speed": N}` changes its pace; they combine.
 */
function moveClock(clock: EmulatedClock, text: string | undefined): void {
  const usage = 'expected a JSON object like {"advance": 3600}, {"set": "2026-11-24T19:00Z"} or {"speed": 60}';
  let change: unknown;
  try {
    change = JSON.parse(text ?? '');
  } catch {
    throw new Error(usage);
  }
  if (change === null || typeof change !== 'object' || Array.isArray(change)) throw new Error(usage);
  const { advance, set, speed, ...rest } = change as Record<string, unknown>;
  if (Object.keys(rest).length > 0 || (advance === undefined && set === undefined && speed === undefined))
    throw new Error(usage);
  if (advance !== undefined && (typeof advance !== 'number' || !Number.isFinite(advance)))
    throw new Error('advance must be a number of seconds');
  if (speed !== undefined && typeof speed !== 'number') throw new Error('speed must be a number');
  let start: number | undefined;
  if (set !== undefined) {
    start = typeof set === 'number' ? set * 1000 : typeof set === 'string' ? parseInstant(set) : undefined;
    if (start === undefined || !Number.isFinite(start))
      throw new Error('set must be an ISO 8601 time or epoch seconds');
  }
  // One change: anything out of range refuses the whole request, leaving the clock as it was.
  if (typeof advance === 'number' && !isEmulatable((start ?? clock.now()) + advance * 1000))
    throw new Error('advance would take the emulated time outside 1970 to 9999');
  if (start !== undefined || speed !== undefined) clock.set({ start, speed: speed as number | undefined });
  if (typeof advance === 'number') clock.advance(advance * 1000);
}
