// The emulated clock: starts at a chosen instant and runs a chosen number of times as fast as
// real time, as Stripe's test clocks let a script see a month pass in a minute. Every body the
// emulator serves is a pure function of the seed and this clock, so forecasts, candles, prices,
// settlements and the track record move together and agree with one another.
// Scripts (and the suite) can also move it: POST /__mock/clock {"advance": 3600} jumps an
// emulated hour at once, without a real second of waiting.

export interface ClockSettings {
  /** Milliseconds since the epoch at which the emulated clock starts; default the real now. */
  start?: number;
  /** Emulated seconds per real second: 1 is real time, 60 an emulated minute a second, 0 a stopped clock. */
  speed?: number;
}

export interface EmulatedClock {
  /** Emulated milliseconds since the epoch. */
  now(): number;
  readonly speed: number;
  /** Moves the emulated clock by `ms` (forward or back); the speed stays. */
  advance(ms: number): void;
  /** Sets the emulated time (and the speed, when given) from this real instant on. */
  set(settings: ClockSettings): void;
}

/** A day of emulated time per real second, at most: beyond that a second's answers lose meaning. */
export const MAX_SPEED = 86_400;

/** The last instant of year 9999: every body carries ISO dates, which a later time cannot have. */
const LAST_MS = Date.UTC(9999, 11, 31, 23, 59, 59);

/** Whether the emulator can stand at this instant: 1970 to the end of 9999. */
export const isEmulatable = (ms: number): boolean => Number.isFinite(ms) && ms >= 0 && ms <= LAST_MS;

function checkInstant(ms: number): void {
  if (!isEmulatable(ms)) throw new RangeError('the emulated time must stay between 1970 and the end of 9999');
}

/** The emulated clock; `real` is the wall clock it runs against (tests may pass their own). */
export function emulatedClock(settings: ClockSettings = {}, real: () => number = Date.now): EmulatedClock {
  let origin = real();
  let start = settings.start ?? origin;
  let speed = settings.speed ?? 1;
  checkSpeed(speed);
  checkInstant(start);
  return {
    // Whole milliseconds: bodies carry epoch seconds, and a fraction would only make two
    // answers in the same emulated second differ.
    now: () => Math.floor(start + (real() - origin) * speed),
    get speed() {
      return speed;
    },
    advance(ms) {
      if (!Number.isFinite(ms)) throw new RangeError('advance needs a finite number of milliseconds');
      checkInstant(start + (real() - origin) * speed + ms);
      start += ms;
    },
    set(next) {
      const current = start + (real() - origin) * speed;
      if (next.speed !== undefined) checkSpeed(next.speed);
      if (next.start !== undefined) checkInstant(next.start);
      origin = real();
      start = next.start ?? current;
      speed = next.speed ?? speed;
    },
  };
}

/** The clock as a state file keeps it (kept.ts): its time and the wall-clock instant of saving, in ms, and its speed. */
export interface SavedClock {
  at: number;
  savedAt: number;
  speed: number;
}

/**
 * Where a restarted emulator's clock starts: `--clock` sets it; else a saved clock resumes where
 * it stood when it was saved (it stands still while no emulator runs: the candles a journal
 * recorded are still there to settle), at its speed unless `--speed` says otherwise. A clock
 * that was plain real time (speed 1, never moved) was saved as nothing to resume: real time
 * again. `resumed` is the saved clock when it was resumed, for the banner.
 */
export function resumeClock(
  asked: ClockSettings,
  saved: SavedClock | undefined,
): { settings: ClockSettings; resumed?: SavedClock } {
  const usable =
    saved !== undefined &&
    isEmulatable(saved.at) &&
    Number.isFinite(saved.speed) &&
    saved.speed >= 0 &&
    saved.speed <= MAX_SPEED;
  if (!usable) return { settings: asked };
  if (asked.start !== undefined) return { settings: { start: asked.start, speed: asked.speed ?? saved.speed } };
  const realTime = saved.speed === 1 && Math.abs(saved.at - saved.savedAt) < 1000;
  if (realTime) return { settings: asked };
  return { settings: { start: saved.at, speed: asked.speed ?? saved.speed }, resumed: saved };
}

function checkSpeed(speed: number): void {
  if (!Number.isFinite(speed) || speed < 0 || speed > MAX_SPEED)
    throw new RangeError(`the speed must be a number from 0 to ${MAX_SPEED}, got ${speed}`);
}

// Shared with the journal's --since/--until/--before: one reading of a typed instant.
export { parseInstant } from '../core/instant.js';
