// When the next refresh may start, and which failures a watch outlives. Pure: the loop gives
// the clock's readings and its random numbers.
import { ExitCode } from '../core/errors.js';

/** The longest wait after failures, unless the interval itself is longer (or the server asks for more). */
export const MAX_BACKOFF_S = 300;

/**
 * A failure the watch outlives, keeping its last good board: rate limited (5) and unavailable
 * (6: refused, timeout, 5xx). A bad response (7) ends it only under --strict: without it, a
 * page that is not JSON (a proxy's, a maintenance page) is as passing as a 503. Every other
 * code (usage or a 400, auth, not found, an internal error) ends the watch with that code.
 */
export function isTransient(exitCode: number, strict: boolean): boolean {
  return (
    exitCode === ExitCode.RateLimited ||
    exitCode === ExitCode.Unavailable ||
    (exitCode === ExitCode.BadResponse && !strict)
  );
}

/**
 * Seconds from the start of one refresh to the start of the next: the interval after a success;
 * after `failures` failed refreshes in a row, the server's Retry-After when it gave one, else
 * `interval * 2^failures` with equal jitter (half fixed, half random, so that many watchers
 * spread out) capped at MAX_BACKOFF_S; never less than the interval, whatever happens.
 */
export function secondsToNextRefresh(
  intervalS: number,
  failures: number,
  retryAfterS: number | undefined,
  random: number,
): number {
  if (failures <= 0) return intervalS;
  if (retryAfterS !== undefined && Number.isFinite(retryAfterS)) return Math.max(intervalS, retryAfterS);
  const ceiling = Math.min(MAX_BACKOFF_S, intervalS * 2 ** Math.min(failures, 30));
  return Math.max(intervalS, ceiling / 2 + (random * ceiling) / 2);
}
