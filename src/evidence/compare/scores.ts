// The proper scores of a 3-class probability forecast of a move (up, down, flat), per forecast,
// so that two forecasters' losses can be set side by side:
// - RPS, the ranked probability score with the classes ordered short < flat < long:
//   (p_short − 1{down})² + (p_short + p_flat − 1{down or flat})², 0 best, 2 worst (not divided
//   by K − 1); a "long" before a fall costs more than a "flat" before it;
// - the 3-class Brier score Σ (p − o)² over long/short/flat (0 best, 2 worst), as the report's;
// - the log loss −ln p(observed class), p clipped at 1e-15, as the report's.
import { compensatedSum } from '../../core/compensated-sum.js';

/** A move as a class: 0 up, 1 down, 2 flat (the report's order: long, short, flat). */
export type MoveClass = 0 | 1 | 2;

export const LOG_LOSS_CLIP = 1e-15;

export interface ThreeClass {
  p_long: number;
  p_short: number;
  p_flat: number;
}

export function rps(f: ThreeClass, k: MoveClass): number {
  const down = k === 1 ? 1 : 0;
  const downOrFlat = k === 0 ? 0 : 1;
  return (f.p_short - down) ** 2 + (f.p_short + f.p_flat - downOrFlat) ** 2;
}

export function brier3(f: ThreeClass, k: MoveClass): number {
  return (
    (f.p_long - (k === 0 ? 1 : 0)) ** 2 + (f.p_short - (k === 1 ? 1 : 0)) ** 2 + (f.p_flat - (k === 2 ? 1 : 0)) ** 2
  );
}

export function logLoss(f: ThreeClass, k: MoveClass): number {
  return -Math.log(Math.max(k === 0 ? f.p_long : k === 1 ? f.p_short : f.p_flat, LOG_LOSS_CLIP));
}

/** The sample's class frequencies as a forecast (the climatology `bss_3class` scores against). */
export function climatologyOf(classes: ArrayLike<number>): ThreeClass {
  const counts = [0, 0, 0];
  for (let i = 0; i < classes.length; i++) counts[classes[i]!]!++;
  const n = classes.length;
  return n === 0
    ? { p_long: Number.NaN, p_short: Number.NaN, p_flat: Number.NaN }
    : { p_long: counts[0]! / n, p_short: counts[1]! / n, p_flat: counts[2]! / n };
}

/** The mean, by the compensated sum. */
export const mean = (xs: ArrayLike<number>): number => (xs.length === 0 ? Number.NaN : compensatedSum(xs) / xs.length);

/** 1 − score / reference; null when the reference is 0 (a sample of one class). */
export const skill = (score: number, reference: number): number | null =>
  reference > 0 && Number.isFinite(score) ? 1 - score / reference : null;
