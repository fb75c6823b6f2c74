// The emulator's HTTP server: records every request, applies injected faults, then routes to the
// REST surface or the gateway. An admin surface under /__mock/ (admin.ts) lets a script change
// faults and read the recorded requests; it is neither recorded nor subject to faults, so a fault
// can always be lifted. How each fault answers is faults.ts; reading and writing bodies, replies.ts;
// the listener, listen.ts.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { GATEWAY_PATH } from '../core/domain.js';
import { answerAdmin } from './admin.js';
import { applyFault, FaultList, parseFault, type Fault } from './faults.js';
import { gatewayFailure, handleGateway } from './gateway.js';
import { listen, urlHost } from './listen.js';
import { HttpProblem } from './problems.js';
import {
  firstValues,
  MAX_REQUEST_BODY,
  parsedForRecord,
  readBody,
  type RecordedRequest,
  ReplyMemo,
  sendJson,
  sendProblem,
  sendText,
} from './replies.js';
import { handleRest, REST_BASE } from './rest.js';
import { createState, type GatewayLimits } from './state.js';
import { readKept, restoreKept, saveKept } from './kept.js';
import { emulatedClock, resumeClock, type ClockSettings, type EmulatedClock, type SavedClock } from './clock.js';

export { parseFault, type Fault, type RecordedRequest };

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
  /** The saved clock the emulated one resumed from (it starts at its `at`), when it did. */
  resumedClock?: SavedClock;
  setFaults(f: Fault[]): void;
  close(): Promise<void>;
}

export const DEFAULT_SEED = 'fcast-mock';
const DEFAULT_REQUEST_LOG = 1000;
const GATEWAY = `/${GATEWAY_PATH}`;
const REST_ROOT = REST_BASE.replace(/\/$/, '');

export async function startMock(opts: MockOptions = {}): Promise<MockServer> {
  const { stateFile } = opts;
  const real = opts.now ?? Date.now;
  // The clock is kept with the keys: a restart resumes it rather than going back to now.
  const { settings, resumed } = resumeClock(
    opts.clock ?? {},
    stateFile === undefined ? undefined : readKept(stateFile).clock,
  );
  const clock = emulatedClock(settings, real);
  const state = createState(opts.seed ?? DEFAULT_SEED, clock.now, opts.gatewayLimits);
  const write = opts.log ?? ((line: string) => process.stderr.write(line));
  const keptKeys = stateFile === undefined ? 0 : restoreKept(state, stateFile);
  const keep = (what: string) => {
    if (stateFile === undefined) return;
    try {
      saveKept(state, stateFile, { at: clock.now(), savedAt: real(), speed: clock.speed });
    } catch (err) {
      // The emulator serves on; only the survival of its keys or its clock is lost.
      write(`mock: cannot keep ${what} in ${stateFile}: ${(err as Error).message}\n`);
    }
  };
  if (stateFile !== undefined) state.issued = () => keep('the issued keys');
  // Saved at once (a kill -9 then loses at most a minute), each minute, when moved, and at the end.
  keep('the clock');
  const keeper = stateFile === undefined ? undefined : setInterval(() => keep('the clock'), 60_000);
  keeper?.unref();
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

  const served = {
    state,
    requests,
    logLimit,
    faults,
    clock,
    sleep,
    closing: () => closing,
    clockMoved: () => keep('the clock'),
  };

  function log(req: IncomingMessage, res: ServerResponse, started: number): void {
    if (quiet) return;
    const status = res.headersSent ? String(res.statusCode) : 'reset';
    write(`mock ${req.method} ${req.url} -> ${status} ${Date.now() - started}ms\n`);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = Date.now();
    res.on('close', () => log(req, res, started));
    const rawUrl = req.url ?? '/';
    const url = new URL(rawUrl, 'http://emulator.invalid');
    const pathname = url.pathname;
    const body = await readBody(req);
    if (pathname.startsWith('/__mock/')) return answerAdmin(served, req, res, pathname, body);

    record({
      method: req.method ?? 'GET',
      path: pathname,
      query: firstValues(url.searchParams),
      headers: { ...req.headers },
      body: parsedForRecord(body),
    });
    const isGateway = pathname === GATEWAY;
    const fault = faults.take(rawUrl);
    if (fault && (await applyFault(fault, served, req, res, isGateway))) return;

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
  const port = await listen(httpServer, host, opts.port ?? 0);

  const server: MockServer = {
    url: `http://${urlHost(host)}:${port}`,
    port,
    testKey: state.testKey,
    limitedGatewayKey: state.limitedGatewayKey,
    requests,
    clock,
    keptKeys,
    ...(resumed ? { resumedClock: resumed } : {}),
    setFaults(f: Fault[]) {
      faults.set(f);
    },
    close() {
      if (!closing) {
        clearInterval(keeper);
        keep('the clock');
      }
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
