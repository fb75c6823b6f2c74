// The emulator's admin surface under /__mock/: a script reads and clears the recorded requests,
// sets and lifts faults, and reads or moves the emulated clock. Neither recorded nor subject to
// faults, so a fault can always be lifted.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isEmulatable, parseInstant, type EmulatedClock } from './clock.js';
import type { FaultList } from './faults.js';
import { type ReadBody, type RecordedRequest, sendJson } from './replies.js';

/** What the admin routes read and change of a running emulator. */
export interface AdminState {
  requests: RecordedRequest[];
  logLimit: number;
  faults: FaultList;
  clock: EmulatedClock;
  /** Called after POST /__mock/clock moved the clock: where the emulator keeps its state, it writes it then. */
  clockMoved?: () => void;
}

export async function answerAdmin(
  served: AdminState,
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  body: ReadBody,
): Promise<void> {
  const { requests, logLimit, faults, clock } = served;
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
        served.clockMoved?.();
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
