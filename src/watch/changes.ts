// What a watch derives from its bodies without asking the server again: what changed since the
// previous refresh (marked for one refresh), and a body as it stands some seconds after it
// arrived, so that countdowns and ages tick between refreshes.
import type { ForecastEnvelope } from '../schema/bodies.js';
import { asRecord, finiteNumber, isRecord } from '../core/values.js';
import type { ForecastMarks } from '../output/forecast-table.js';
import { formatAge, formatDuration } from '../output/format.js';

/**
 * Since `before`: timeframes whose forecast is new (absent before, or another `ts`) or whose
 * ia3 direction flipped, and which way the last price moved. Undefined for a first body: with
 * nothing to compare, nothing is marked.
 */
export function changesBetween(
  before: ForecastEnvelope | undefined,
  after: ForecastEnvelope,
): ForecastMarks | undefined {
  if (before === undefined) return undefined;
  const tfs = new Map<string, 'new' | 'flipped'>();
  const was = asRecord(before.predictions);
  for (const [tf, value] of Object.entries(asRecord(after.predictions))) {
    const now = asRecord(value);
    const then = was[tf];
    if (!isRecord(then)) {
      tfs.set(tf, 'new');
      continue;
    }
    const direction = (f: Record<string, unknown>) => asRecord(f.ia3).direction;
    if (direction(then) !== direction(now)) tfs.set(tf, 'flipped');
    else if (then.ts !== now.ts) tfs.set(tf, 'new');
  }
  const from = finiteNumber(asRecord(before.price).last);
  const to = finiteNumber(asRecord(after.price).last);
  const price = from === undefined || to === undefined || from === to ? undefined : to > from ? 'up' : 'down';
  return { tfs, price };
}

/**
 * The body as it stands `elapsedS` seconds after it arrived: the server's clock (`meta.server_t`,
 * which every age and countdown of the table is measured against) and each forecast's `age_s`
 * moved on by that much. Measured from the server's clock, not ours, so that the board stays
 * right against an emulator whose clock is set days away from the real one. A copy: the body
 * as received is what --json and the journal see.
 */
export function bodyAt<T extends ForecastEnvelope>(body: T, elapsedS: number): T {
  if (elapsedS <= 0) return body;
  const meta = asRecord(body.meta);
  const serverT = finiteNumber(meta.server_t);
  const predictions: Record<string, unknown> = {};
  for (const [tf, value] of Object.entries(asRecord(body.predictions))) {
    const age = isRecord(value) ? finiteNumber(value.age_s) : undefined;
    predictions[tf] = age === undefined ? value : { ...(value as object), age_s: age + elapsedS };
  }
  return {
    ...body,
    predictions,
    ...(serverT !== undefined && { meta: { ...meta, server_t: serverT + elapsedS } }),
  } as T;
}

/**
 * Every time the table of `body` shows as a duration, `elapsedS` seconds after it arrived
 * (`fallbackNowS` when it carries no server clock): how far the price and each target time are
 * from now, and each forecast's age, as the table words them ("in 3h 20m", "45s"). The table
 * changes from one second to the next only when one of these does, so a board re-renders only
 * then: most ticks redraw the status line alone.
 */
export function shownTimes(body: ForecastEnvelope, elapsedS: number, fallbackNowS: number): string {
  const serverT = finiteNumber(asRecord(body.meta).server_t);
  const now = serverT === undefined ? fallbackNowS : serverT + elapsedS;
  let key = formatAge(asRecord(body.price).t, now);
  for (const value of Object.values(asRecord(body.predictions))) {
    const f = asRecord(value);
    const age = finiteNumber(f.age_s);
    key += `|${formatAge(f.target_t, now)}/${age === undefined ? '' : formatDuration(age + elapsedS)}`;
  }
  return key;
}
