// scikit-learn's brier_score_loss and calibration_curve, computed by the journal's own
// accumulator (src/journal/score.ts): what the tests hold against sklearn's docstring examples.
// fcast itself has no use for them, so they live here.
import { CallAccumulator } from '../../src/journal/score.js';

/** scikit-learn's brier_score_loss(y_true, y_prob): the mean of (p − o)². */
export function brierScore(yTrue: readonly number[], yProb: readonly number[]): number {
  const acc = new CallAccumulator(1);
  for (const [i, y] of yTrue.entries()) acc.add(yProb[i]!, y === 1);
  return acc.result().brier ?? Number.NaN;
}

/** scikit-learn's calibration_curve(y_true, y_prob, n_bins): the non-empty bins' observed frequency and mean forecast. */
export function calibrationCurve(
  yTrue: readonly number[],
  yProb: readonly number[],
  nBins: number,
): { probTrue: number[]; probPred: number[] } {
  const acc = new CallAccumulator(nBins);
  for (const [i, y] of yTrue.entries()) acc.add(yProb[i]!, y === 1);
  const bins = acc.result().bins.filter((b) => b.n > 0);
  return { probTrue: bins.map((b) => b.freq!), probPred: bins.map((b) => b.mean_p!) };
}
