// Injected failures, so that a client's retries, timeouts and size cap can be tested against
// something that misbehaves on demand and otherwise answers deterministically. `shrink` is a
// failure of the record, not of the wire: the track record of 1h loses its recent losses, as a
// record rewritten to flatter itself would, so that `--baseline` has something to catch.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gatewayFailure } from './gateway.js';
import { HttpProblem } from './problems.js';
import { sendJson, sendProblem } from './replies.js';
import type { MockState } from './state.js';

export const FAULT_KINDS = ['429', '503', 'slow', 'html', 'reset', 'truncate', 'huge', 'shrink'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface Fault {
  kind: FaultKind;
  /** How many matching requests get it; default unlimited. */
  times?: number;
  /** Substring of the request path (query included) it applies to; default all. */
  path?: string;
  /** Seconds, for 429/503; default 1. */
  retryAfter?: number;
  /** For slow; default 2000. */
  delayMs?: number;
}

export const DEFAULT_RETRY_AFTER_S = 1;
export const DEFAULT_DELAY_MS = 2000;
/** Just over the client's 16 MiB cap. */
const HUGE_BODY_BYTES = 17 * 1024 * 1024;

const KEY_ALIASES: Record<string, 'times' | 'path' | 'retryAfter' | 'delayMs'> = {
  times: 'times',
  path: 'path',
  'retry-after': 'retryAfter',
  retry_after: 'retryAfter',
  retryafter: 'retryAfter',
  delay: 'delayMs',
  'delay-ms': 'delayMs',
  delayms: 'delayMs',
};

const SYNTAX = 'KIND[,times=N][,path=SUBSTRING][,retry-after=SECONDS][,delay=MS]';

function nonNegativeInt(spec: string, name: string, value: unknown): number {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) {
    throw new Error(
      `bad fault ${JSON.stringify(spec)}: ${name} must be a non-negative integer, got ${JSON.stringify(value)}`,
    );
  }
  return n;
}

/** Checks a fault given as an object (admin API, options) and returns a clean copy. */
function normalizeFault(input: unknown, spec = JSON.stringify(input)): Fault {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw new Error(`bad fault ${spec}: expected an object or a spec string`);
  const o = input as Record<string, unknown>;
  if (!(FAULT_KINDS as readonly unknown[]).includes(o.kind)) {
    throw new Error(`bad fault ${spec}: kind must be one of ${FAULT_KINDS.join(', ')}`);
  }
  const fault: Fault = { kind: o.kind as FaultKind };
  for (const [k, v] of Object.entries(o)) {
    if (k === 'kind' || v === undefined) continue;
    if (k === 'path') {
      if (typeof v !== 'string' || v === '') throw new Error(`bad fault ${spec}: path must be a non-empty string`);
      fault.path = v;
    } else if (k === 'times' || k === 'retryAfter' || k === 'delayMs') {
      fault[k] = nonNegativeInt(spec, k, v);
    } else {
      throw new Error(`bad fault ${spec}: unknown property ${k} (known: kind, times, path, retryAfter, delayMs)`);
    }
  }
  return fault;
}

/** Parses the command-line syntax: "429", "429,times=2,retry-after=3", "slow,delay=1500", "reset,path=demo.php". */
export function parseFault(spec: string): Fault {
  const [kind = '', ...options] = spec.trim().split(',');
  if (!(FAULT_KINDS as readonly string[]).includes(kind.trim())) {
    throw new Error(
      `bad fault ${JSON.stringify(spec)}: kind must be one of ${FAULT_KINDS.join(', ')} (syntax: ${SYNTAX})`,
    );
  }
  const fault: Record<string, unknown> = { kind: kind.trim() };
  for (const option of options) {
    const eq = option.indexOf('=');
    const name = (eq < 0 ? option : option.slice(0, eq)).trim();
    const value = eq < 0 ? '' : option.slice(eq + 1).trim();
    const key = KEY_ALIASES[name.toLowerCase()];
    if (!key)
      throw new Error(`bad fault ${JSON.stringify(spec)}: unknown option ${JSON.stringify(name)} (syntax: ${SYNTAX})`);
    if (eq < 0 || value === '') throw new Error(`bad fault ${JSON.stringify(spec)}: option ${name} needs a value`);
    if (key in fault) throw new Error(`bad fault ${JSON.stringify(spec)}: option ${name} given twice`);
    fault[key] = key === 'path' ? value : nonNegativeInt(spec, name, value);
  }
  return normalizeFault(fault, JSON.stringify(spec));
}

/** The faults in force, each with what remains of its `times`. */
export class FaultList {
  private faults: Fault[] = [];

  set(faults: readonly unknown[]): void {
    this.faults = faults.map((f) => (typeof f === 'string' ? parseFault(f) : normalizeFault(f)));
  }

  list(): Fault[] {
    return this.faults.map((f) => ({ ...f }));
  }

  /** The first fault that matches `url` and has uses left; using it counts down its `times`. */
  take(url: string): Fault | undefined {
    const fault = this.faults.find(
      (f) => (f.times === undefined || f.times > 0) && (f.path === undefined || url.includes(f.path)),
    );
    if (fault && fault.times !== undefined) fault.times -= 1;
    return fault ? { ...fault } : undefined;
  }
}

const HTML_BODY =
  '<!DOCTYPE html>\n<html><head><title>Just a moment...</title></head>' +
  '<body><h1>Checking your browser before accessing the site.</h1></body></html>\n';

/** Answers with a body that is not JSON, as a captive portal or a CDN challenge page would. */
export function sendHtml(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(HTML_BODY) });
  res.end(HTML_BODY);
}

/** Drops the connection without a byte of response. */
export function sendReset(req: IncomingMessage): void {
  req.socket.destroy();
}

/** Promises more bytes than it sends, then drops the connection mid-body. */
export function sendTruncated(res: ServerResponse): void {
  const partial = '{"ok":true,"symbol":"BTC/USD","predictions":{"1min":{"tf":"1min","ts":17';
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(partial.length + 4096) });
  res.write(partial, () => res.socket?.destroy());
}

/**
 * Streams a valid JSON document larger than the client's cap, chunked (no Content-Length), so
 * a client must enforce the cap while reading rather than trusting a header.
 */
export async function sendHuge(res: ServerResponse): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/json' });
  const head = '{"ok":true,"padding":"';
  const tail = '"}';
  const chunk = 'x'.repeat(64 * 1024);
  let remaining = HUGE_BODY_BYTES - head.length - tail.length;
  if (!res.write(head)) await drained(res);
  while (remaining > 0 && !res.destroyed) {
    const piece = remaining >= chunk.length ? chunk : chunk.slice(0, remaining);
    remaining -= piece.length;
    if (!res.write(piece)) await drained(res);
  }
  if (!res.destroyed) res.end(tail);
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** Returns true when the fault answered (or dropped) the request itself. */
export async function applyFault(
  fault: Fault,
  served: { state: MockState; sleep(ms: number): Promise<void>; closing(): boolean },
  req: IncomingMessage,
  res: ServerResponse,
  isGateway: boolean,
): Promise<boolean> {
  const { state } = served;
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
      await served.sleep(fault.delayMs ?? DEFAULT_DELAY_MS);
      return served.closing() || res.destroyed;
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
