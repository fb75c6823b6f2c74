// The Wilson score interval: the one used by `--audit`, by the change since a baseline, and
// by the emulator when it publishes its figures, so that all three agree to the last digit.
import type { Versus50 } from '../core/domain.js';

/** z for a 95% interval, as the contract fixes it. */
export const WILSON_Z = 1.96;

/** The Wilson score interval of `wins` successes in `n` trials, clamped to 0..1. */
export function wilsonInterval(wins: number, n: number, z = WILSON_Z): [number, number] {
  if (n <= 0) throw new RangeError('the Wilson interval needs at least one trial');
  const p = wins / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const halfWidth = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  return [Math.max(0, centre - halfWidth), Math.min(1, centre + halfWidth)];
}

export function versus50(interval: readonly [number, number] | null | undefined): Versus50 | undefined {
  if (!interval) return undefined;
  if (interval[0] > 0.5) return 'above';
  if (interval[1] < 0.5) return 'below';
  return 'straddles';
}

/** The resolved win rate (wins over wins and losses; neutrals left out) and its interval; null when none resolved. */
export function resolvedRate(wins: number, losses: number): { rate: number; interval: [number, number] } | null {
  const resolved = wins + losses;
  if (resolved <= 0 || wins < 0 || losses < 0) return null;
  return { rate: wins / resolved, interval: wilsonInterval(wins, resolved) };
}
