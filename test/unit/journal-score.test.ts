// The journal's scores against published references: scikit-learn's own docstring examples for
// brier_score_loss and calibration_curve, Newcombe (1998) for the Wilson interval, and the
// decomposition of Stephenson, Coelho and Jolliffe (2008) adding up to the Brier score for any
// sample (fast-check). The sklearn run on a whole emulated session is test/e2e/journal-sklearn.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CompensatedSum, compensatedSum } from '../../src/core/compensated-sum.js';
import { wilsonInterval } from '../../src/evidence/wilson.js';
import {
  binEdge,
  binOf,
  CallAccumulator,
  callProbability,
  LOG_LOSS_CLIP,
  TimeframeAccumulator,
} from '../../src/journal/score.js';
import { brierScore, calibrationCurve } from '../helpers/calibration.js';

describe('scikit-learn docstring examples', () => {
  it('brier_score_loss([0, 1, 1, 0], [0.1, 0.9, 0.8, 0.3]) is 0.0375 (sklearn prints 0.037...)', () => {
    expect(brierScore([0, 1, 1, 0], [0.1, 0.9, 0.8, 0.3])).toBeCloseTo(0.0375, 15);
    // and with the probabilities rounded to a decision, 0.0: brier_score_loss(y_true, y_prob > 0.5)
    expect(brierScore([0, 1, 1, 0], [0, 1, 1, 0])).toBe(0);
  });

  it('calibration_curve(y_true, y_pred, n_bins=3) gives prob_true [0, 0.5, 1] and prob_pred [0.2, 0.525, 0.85]', () => {
    const yTrue = [0, 0, 0, 0, 1, 1, 1, 1, 1];
    const yPred = [0.1, 0.2, 0.3, 0.4, 0.65, 0.7, 0.8, 0.9, 1];
    const { probTrue, probPred } = calibrationCurve(yTrue, yPred, 3);
    expect(probTrue).toEqual([0, 0.5, 1]);
    expect(probPred.map((p) => Number(p.toFixed(12)))).toEqual([0.2, 0.525, 0.85]);
  });
});

describe('the Wilson interval (evidence/wilson.ts) against Newcombe (1998), Table I, method 3', () => {
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ])('%i/%i: %f to %f', (wins, n, lo, hi) => {
    const [a, b] = wilsonInterval(wins, n);
    expect(a).toBeCloseTo(lo, 4);
    expect(b).toBeCloseTo(hi, 4);
  });
});

describe('bins as calibration_curve makes them', () => {
  it('edges are numpy.linspace(0, 1, n + 1): i × (1/n), the last exactly 1', () => {
    expect(binEdge(3, 10)).toBe(0.30000000000000004);
    expect(binEdge(10, 10)).toBe(1);
    // 49 × (1/49) is 0.9999999999999999 in binary; linspace's last edge is 1 all the same.
    expect(binEdge(49, 49)).toBe(1);
    expect(binEdge(98, 98)).toBe(1);
  });

  it('right-closed (lo, hi], the first [0, hi]: an edge belongs to the bin below it', () => {
    expect(binOf(0, 10)).toBe(0);
    expect(binOf(0.1, 10)).toBe(0);
    expect(binOf(0.10000001, 10)).toBe(1);
    // 0.3 is below numpy's third edge (0.30000000000000004): bin 2, as searchsorted puts it.
    expect(binOf(0.3, 10)).toBe(2);
    expect(binOf(1, 10)).toBe(9);
    expect(binOf(0.5, 1)).toBe(0);
  });

  it('a probability outside [0, 1] (a hand-edited or damaged journal) falls in the edge bin, never outside the bins', () => {
    expect(binOf(1.5, 10)).toBe(9);
    expect(binOf(-0.5, 10)).toBe(0);
    const acc = new CallAccumulator(10);
    acc.add(1.5, true);
    expect(acc.result().bins.map((b) => b.n)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
  });

  it('agrees with a plain count of the inner edges below p, for any p and any bin count', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 1, max: 50 }), (p, n) => {
        let below = 0;
        for (let i = 1; i < n; i++) if (binEdge(i, n) < p) below++;
        expect(binOf(p, n)).toBe(below);
      }),
    );
  });
});

/** Forecast probabilities with 4 decimals, as ia3 sends them, or any double in [0, 1]. */
const probability = fc.oneof(
  fc.integer({ min: 0, max: 10_000 }).map((k) => k / 10_000),
  fc.double({ min: 0, max: 1, noNaN: true }),
);

describe('the decomposition (Stephenson, Coelho and Jolliffe 2008)', () => {
  it('REL − RES + UNC + WBV − WBC = BS to 1e-12, for any sample and bin count', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(probability, fc.boolean()), { minLength: 1, maxLength: 300 }),
        fc.integer({ min: 1, max: 30 }),
        (pairs, bins) => {
          const acc = new CallAccumulator(bins);
          for (const [p, won] of pairs) acc.add(p, won);
          const r = acc.result();
          const sum =
            r.reliability! - r.resolution! + r.uncertainty! + r.within_bin_variance! - r.within_bin_covariance!;
          expect(Math.abs(sum - r.brier!)).toBeLessThanOrEqual(1e-12);
          // The Brier score itself is the plain mean of (p − o)².
          const plain = pairs.reduce((s, [p, won]) => s + (p - (won ? 1 : 0)) ** 2, 0) / pairs.length;
          expect(Math.abs(r.brier! - plain)).toBeLessThanOrEqual(1e-12);
          expect(r.bins.reduce((s, b) => s + b.n, 0)).toBe(pairs.length);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('holds over a million forecasts too (compensated sums)', () => {
    const acc = new CallAccumulator(10);
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    for (let i = 0; i < 1_000_000; i++) {
      const p = Math.round(next() * 10_000) / 10_000;
      acc.add(p, next() < p);
    }
    const r = acc.result();
    const sum = r.reliability! - r.resolution! + r.uncertainty! + r.within_bin_variance! - r.within_bin_covariance!;
    expect(Math.abs(sum - r.brier!)).toBeLessThanOrEqual(1e-12);
  });

  it('a perfectly calibrated, certain forecaster scores 0 with no reliability term', () => {
    const acc = new CallAccumulator(10);
    for (const won of [true, false, true]) acc.add(won ? 1 : 0, won);
    const r = acc.result();
    expect(r.brier).toBe(0);
    expect(r.reliability).toBe(0);
  });
});

describe('the three-class scores', () => {
  const f = (direction: string, p: [number, number, number], anchor: number, close: number) => ({
    direction,
    p_long: p[0],
    p_short: p[1],
    p_flat: p[2],
    anchor_price: anchor,
    settle_price: close,
  });

  it('by hand: two forecasts, one up, one flat', () => {
    const acc = new TimeframeAccumulator(10, 0.01);
    acc.add(f('long', [0.6, 0.3, 0.1], 100, 101)); // up: win
    acc.add(f('short', [0.2, 0.5, 0.3], 100, 100.005)); // +0.005%: flat, neutral
    const r = acc.result();
    expect([r.wins, r.losses, r.neutrals, r.n_settled]).toEqual([1, 0, 1, 2]);
    // (0.4² + 0.3² + 0.1²) and (0.2² + 0.5² + 0.7²), averaged
    expect(r.brier_3class).toBeCloseTo((0.26 + 0.78) / 2, 15);
    // climatology: half up, half flat: 1 − (0.25 + 0.25) = 0.5
    expect(r.bss_3class).toBeCloseTo(1 - 0.52 / 0.5, 12);
    expect(r.log_loss).toBeCloseTo((-Math.log(0.6) - Math.log(0.3)) / 2, 15);
    expect(r.hit_rate).toBe(1);
    expect(r.hit_rate_ci95).toEqual(wilsonInterval(1, 1));
    // the call: p_long 0.6 won; p_short 0.5 did not (a neutral is not a win)
    expect(r.call.brier).toBeCloseTo((0.16 + 0.25) / 2, 15);
  });

  it('clips a zero probability of what happened to 1e-15 in the log loss, so it stays a number', () => {
    const acc = new TimeframeAccumulator(10, 0.01);
    acc.add(f('long', [1, 0, 0], 100, 99)); // down, and p_short was 0
    expect(acc.result().log_loss).toBeCloseTo(-Math.log(LOG_LOSS_CLIP), 12);
  });

  it('a sample of one class has no skill score (null), and none settled gives nulls', () => {
    const acc = new TimeframeAccumulator(10, 0.01);
    acc.add(f('long', [0.6, 0.3, 0.1], 100, 101));
    expect(acc.result().bss_3class).toBeNull();
    const none = new TimeframeAccumulator(10, 0.01).result();
    expect([none.brier_3class, none.log_loss, none.hit_rate, none.call.brier]).toEqual([null, null, null, null]);
    expect(none.call.bins).toHaveLength(10);
  });

  it('Neumaier sums keep what a plain sum drops, whichever of the terms is the larger', () => {
    for (const terms of [
      [1e16, 1, -1e16],
      [1, 1e16, -1e16],
    ]) {
      const s = new CompensatedSum();
      for (const x of terms) s.add(x);
      expect(s.value).toBe(1);
      expect(compensatedSum(terms)).toBe(1);
    }
  });

  it('a call other than long or short counts in the three-class scores, not in the call’s', () => {
    expect(callProbability({ direction: 'long', p_long: 0.6, p_short: 0.3 })).toBe(0.6);
    expect(callProbability({ direction: 'short', p_long: 0.6, p_short: 0.3 })).toBe(0.3);
    expect(callProbability({ direction: 'flat', p_long: 0.6, p_short: 0.3 })).toBeUndefined();
    const acc = new TimeframeAccumulator(10, 0.01);
    acc.add(f('flat', [0.2, 0.2, 0.6], 100, 100));
    const r = acc.result();
    expect([r.n_settled, r.neutrals]).toEqual([1, 1]);
    expect(r.brier_3class).toBeCloseTo(0.04 + 0.04 + 0.16, 15);
    expect(r.call.brier).toBeNull();
    expect(r.call.bins.reduce((n, b) => n + b.n, 0)).toBe(0);
  });
});
