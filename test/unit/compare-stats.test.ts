// journal compare's statistics on cases worked by hand; the outside implementations' checks
// are in test/oracle/compare-stats.test.ts.
import { describe, expect, it } from 'vitest';
import {
  blockLength,
  exactBootstrapVariance,
  quantileSorted,
  replicateMeans,
  summarize,
} from '../../src/evidence/compare/bootstrap.js';
import { compare, type CompareSample } from '../../src/evidence/compare/compare.js';
import { corp, recalibrated } from '../../src/evidence/compare/corp.js';
import { dieboldMariano } from '../../src/evidence/compare/diebold-mariano.js';
import { holm } from '../../src/evidence/compare/holm.js';
import { overlapLags } from '../../src/evidence/compare/lags.js';
import { murphy, murphyTheta } from '../../src/evidence/compare/murphy.js';
import { Random } from '../../src/evidence/compare/random.js';
import { brier3, climatologyOf, logLoss, rps, skill } from '../../src/evidence/compare/scores.js';
import {
  logBeta,
  logGamma,
  regularizedBeta,
  studentTCdf,
  studentTTwoSided,
} from '../../src/evidence/compare/student-t.js';

describe('scores', () => {
  it('RPS orders short < flat < long: a long call before a fall costs more than a flat one', () => {
    const long = { p_long: 1, p_short: 0, p_flat: 0 };
    const flat = { p_long: 0, p_short: 0, p_flat: 1 };
    expect(rps(long, 1)).toBe(2);
    expect(rps(flat, 1)).toBe(1);
    expect(rps({ p_long: 0, p_short: 1, p_flat: 0 }, 1)).toBe(0);
    // The 3-class Brier score cannot tell the two apart.
    expect(brier3(long, 1)).toBe(brier3(flat, 1));
  });
  it('log loss clips at 1e-15', () => {
    expect(logLoss({ p_long: 0, p_short: 1, p_flat: 0 }, 0)).toBeCloseTo(-Math.log(1e-15), 12);
  });
  it('skill is 1 − score / reference, and none against a reference of 0 or from a score that is not a number', () => {
    expect(skill(0.25, 0.5)).toBe(0.5);
    expect(skill(0.5, 0.5)).toBe(0);
    expect(skill(0, 0)).toBeNull();
    expect(skill(0.1, -0.5)).toBeNull();
    expect(skill(Number.NaN, 0.5)).toBeNull();
    expect(skill(Number.POSITIVE_INFINITY, 0.5)).toBeNull();
  });
  it("the climatology is the sample's class frequencies (long, short, flat); of no forecasts, not a number", () => {
    expect(climatologyOf([0, 0, 1, 2])).toEqual({ p_long: 0.5, p_short: 0.25, p_flat: 0.25 });
    expect(climatologyOf([])).toEqual({ p_long: Number.NaN, p_short: Number.NaN, p_flat: Number.NaN });
  });
});

describe("Student's t", () => {
  it("agrees with scipy's gammaln, betaln, betainc and t.cdf where the small tests never go", () => {
    // scipy 1.x: special.gammaln(0.25), gammaln(0.1) (the reflection below 0.5); betaln(12, 15),
    // betaln(3, 20), betaln(40, 60) (the Stirling branches); betainc(2, 3, 0.4) and
    // betainc(30, 40, 0.45) (either side of the continued fraction's switch); t.cdf at 30, 100,
    // 250 degrees of freedom and below one; 2·t.sf(2.5, 40).
    expect(logGamma(0.25)).toBeCloseTo(1.2880225246980774, 12);
    expect(logGamma(0.1)).toBeCloseTo(2.252712651734206, 12);
    expect(logBeta(12, 15)).toBeCloseTo(-18.568172732389435, 11);
    expect(logBeta(3, 20)).toBeCloseTo(-8.438149984075784, 11);
    expect(logBeta(40, 60)).toBeCloseTo(-67.96861624748244, 10);
    expect(regularizedBeta(0.4, 2, 3)).toBeCloseTo(0.5248, 13);
    expect(regularizedBeta(0.45, 30, 40)).toBeCloseTo(0.6447480085585666, 12);
    expect(studentTCdf(2.0423, 30)).toBeCloseTo(0.9750014488130303, 12);
    expect(studentTCdf(1.984, 100)).toBeCloseTo(0.9750016131019164, 12);
    expect(studentTCdf(-1.5, 250)).toBeCloseTo(0.06743809535367148, 12);
    expect(studentTCdf(-3.2, 12)).toBeCloseTo(0.0038162694004053974, 13);
    expect(studentTCdf(0.3, 0.5)).toBeCloseTo(0.5775704239347546, 12);
    expect(studentTCdf(-2, 0.3)).toBeCloseTo(0.2821348494803913, 12);
    expect(studentTTwoSided(2.5, 40)).toBeCloseTo(0.01662035283097921, 13);
  });
  it('is defined at the ends: NaN stays NaN, an infinite t is certain, x outside (0, 1) is 0 or 1', () => {
    expect(studentTCdf(Number.NaN, 5)).toBeNaN();
    expect(studentTCdf(Number.POSITIVE_INFINITY, 5)).toBe(1);
    expect(studentTCdf(Number.NEGATIVE_INFINITY, 5)).toBe(0);
    expect(studentTCdf(0, 5)).toBe(0.5);
    expect(studentTTwoSided(Number.NaN, 5)).toBeNaN();
    expect(studentTTwoSided(Number.NEGATIVE_INFINITY, 5)).toBe(0);
    expect(studentTTwoSided(0, 5)).toBe(1);
    expect(regularizedBeta(Number.NaN, 2, 3)).toBe(0);
    expect(regularizedBeta(0, 2, 3)).toBe(0);
    expect(regularizedBeta(-0.5, 2, 3)).toBe(0);
    expect(regularizedBeta(1, 2, 3)).toBe(1);
    expect(regularizedBeta(0.3, 2, 3, 0)).toBe(1);
  });
  it('has the known values', () => {
    expect(logGamma(5)).toBeCloseTo(Math.log(24), 13);
    expect(logGamma(0.5)).toBeCloseTo(0.5 * Math.log(Math.PI), 13);
    expect(logBeta(3, 4)).toBeCloseTo(Math.log(1 / 60), 13);
    expect(logBeta(500000, 0.5)).toBeCloseTo(logGamma(0.5) - 0.5 * Math.log(500000) + 1 / (8 * 500000), 10);
    expect(regularizedBeta(0.5, 2, 2)).toBeCloseTo(0.5, 14);
    // df = 1 is Cauchy: P(T ≤ 1) = 3/4.
    expect(studentTCdf(1, 1)).toBeCloseTo(0.75, 13);
    expect(studentTCdf(-1, 1)).toBeCloseTo(0.25, 13);
    // df = 2: P(T ≤ t) = 1/2 + t / (2√(2 + t²)).
    expect(studentTCdf(1.5, 2)).toBeCloseTo(0.5 + 1.5 / (2 * Math.sqrt(2 + 2.25)), 13);
    expect(studentTTwoSided(0, 10)).toBe(1);
    expect(studentTTwoSided(1.959963984540054, 1e9)).toBeCloseTo(0.05, 8);
  });
});

describe('Diebold–Mariano', () => {
  it('says "no difference" when every d is equal, never NaN', () => {
    expect(dieboldMariano([0, 0, 0, 0], 2)).toEqual({ statistic: 0, p_value: 1, lags: 2, variance: 'zero' });
  });
  it('matches the formula with h = 1', () => {
    const d = [0.1, -0.2, 0.3, 0.05, -0.1, 0.2];
    const n = d.length;
    const m = d.reduce((a, b) => a + b) / n;
    const g0 = d.reduce((s, x) => s + (x - m) ** 2, 0) / n;
    const dm = dieboldMariano(d, 0);
    expect(dm.variance).toBe('rectangular');
    expect(dm.statistic).toBeCloseTo((m / Math.sqrt(g0 / n)) * Math.sqrt((n - 1) / n), 13);
  });
  it("falls back to Bartlett's weights where the rectangular estimate is not positive", () => {
    const d = Array.from({ length: 40 }, (_, t) => (t % 2 === 0 ? 1 : -1) + 0.01 * Math.sin(t * 7));
    expect(dieboldMariano(d, 1).variance).toBe('bartlett');
  });
  it('takes no more lags than the series has', () => {
    expect(dieboldMariano([1, 2, 4], 10).lags).toBe(2);
  });
  it('says "no difference" for equal d whose mean rounds away from them, where the centred values would not be 0', () => {
    // Three 0.1s sum to 0.30000000000000004: their mean is 0.10000000000000002, and the
    // differences from it a variance near 1e-34, which would make a statistic near 1e16.
    expect(dieboldMariano([0.1, 0.1, 0.1], 0)).toEqual({ statistic: 0, p_value: 1, lags: 0, variance: 'zero' });
    expect(dieboldMariano(Array(6).fill(0.7), 1)).toEqual({ statistic: 0, p_value: 1, lags: 1, variance: 'zero' });
  });
  it('has no statistic of no forecasts, or where the correction has no positive radicand', () => {
    expect(dieboldMariano([], 3)).toEqual({ statistic: null, p_value: null, lags: 0, variance: 'zero' });
    // n = 3, h = 3: (n + 1 − 2h + h(h − 1)/n) / n = 0.
    expect(dieboldMariano([1, 2, 4], 10)).toMatchObject({ statistic: null, p_value: null });
    expect(dieboldMariano([0.1, 0.3], 0).statistic).toBeCloseTo(2, 13);
  });
});

describe('bootstrap', () => {
  it('the block is at least h and at most n, ⌈n^(1/3)⌉ unless asked', () => {
    expect(blockLength(1000, 1)).toBe(10);
    expect(blockLength(1000, 25)).toBe(25);
    expect(blockLength(1000, 3, 2)).toBe(3);
    expect(blockLength(5, 9)).toBe(5);
  });
  it('is the same for a seed, and its SE estimates the exact block-bootstrap variance', () => {
    const r = new Random(7);
    const d = Float64Array.from({ length: 400 }, () => r.next() - 0.45);
    const a = replicateMeans([d], 8, 3000, 42)[0]!;
    const b = replicateMeans([d], 8, 3000, 42)[0]!;
    expect(a).toEqual(b);
    const mean = d.reduce((s, x) => s + x) / d.length;
    const s = summarize(a, mean, 8);
    const exact = Math.sqrt(exactBootstrapVariance(d, 8));
    // 3000 replicates: the SE of an SE is about 1.3%.
    expect(Math.abs(s.se! / exact - 1)).toBeLessThan(0.05);
    expect(s.ci95![0]).toBeLessThan(mean);
    expect(s.ci95![1]).toBeGreaterThan(mean);
    expect(s.p_value).toBeLessThan(0.01);
  });
  it("draws Random.below's starts, a replicate's full blocks then its last, the same for every series", () => {
    // Blocks of one: a replicate's mean is the mean of the values at its n starts, drawn here
    // the slow way (the stream a kept list of starts held before the draws were written out).
    const n = 37;
    const d = Float64Array.from({ length: n }, (_, i) => i * 1.5 - 7);
    const e = Float64Array.from(d, (x) => x * x);
    // 51: replicates two at a time, and the last alone.
    const [a, b, c] = replicateMeans([d, e, d], 1, 51, 2026);
    const random = new Random(2026);
    for (let r = 0; r < 51; r++) {
      let sd = 0;
      let se = 0;
      for (let k = 0; k < n; k++) {
        const s = random.below(n);
        sd += d[s]!;
        se += e[s]!;
      }
      expect(a![r]).toBeCloseTo(sd / n, 12);
      expect(b![r]).toBeCloseTo(se / n, 12);
      expect(c![r]).toBe(a![r]);
    }
  });
  it('quantiles are type 7', () => {
    expect(quantileSorted([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantileSorted([1, 2, 3, 4, 5], 0.025)).toBeCloseTo(1.1, 14);
  });
});

describe('Holm', () => {
  it("is R's p.adjust", () => {
    // p.adjust(c(0.01, 0.04, 0.03, 0.2), "holm") = 0.04 0.09 0.09 0.20
    const adj = holm([0.01, 0.04, 0.03, 0.2, null]);
    expect(adj.slice(0, 4).map((x) => Number(x!.toFixed(12)))).toEqual([0.04, 0.09, 0.09, 0.2]);
    expect(adj[4]).toBeNull();
  });
  it('leaves a p that is not a number out of the family, as a null', () => {
    // p.adjust(c(0.01, 0.04), "holm") = 0.02 0.04: the NaN is no third test.
    expect(holm([0.01, Number.NaN, 0.04, null])).toEqual([0.02, null, 0.04, null]);
  });
});

describe('CORP', () => {
  it('pools ties, fits PAV, and MCB − DSC + UNC is the Brier score', () => {
    const x = [0.1, 0.1, 0.4, 0.4, 0.3, 0.8, 0.9];
    const y = [0, 1, 0, 0, 1, 1, 1];
    const c = corp(x, y);
    // Ties at 0.1 → 1/2; 0.3 → 1 and 0.4 → 0 violate, pooled → 1/3; then 1/2 > 1/3 violates: {0.1..0.4} → 2/5; equal means stay apart.
    expect(c.blocks.map((b) => [b.lo, b.hi, b.n, b.value])).toEqual([
      [0.1, 0.4, 5, 0.4],
      [0.8, 0.8, 1, 1],
      [0.9, 0.9, 1, 1],
    ]);
    const bs = x.reduce((s, p, i) => s + (p - y[i]!) ** 2, 0) / x.length;
    expect(c.score).toBeCloseTo(bs, 14);
    expect(c.mcb - c.dsc + c.unc).toBeCloseTo(bs, 14);
    expect(c.mcb).toBeGreaterThanOrEqual(0);
    expect(c.dsc).toBeGreaterThanOrEqual(0);
    expect(recalibrated(c.blocks, 0.35)).toBe(0.4);
    expect(recalibrated(c.blocks, 0.85)).toBe(1);
  });
});

describe('Murphy', () => {
  it("integrates to the Brier score over θ's midpoints", () => {
    const r = new Random(3);
    const x = Array.from({ length: 300 }, () => Math.round(r.next() * 1000) / 1000);
    const y = x.map((p) => (r.next() < p ? 1 : 0));
    const m = murphy(x, y);
    const integral = m.reduce((s, v) => s + v, 0) / m.length;
    const bs = x.reduce((s, p, i) => s + (p - y[i]!) ** 2, 0) / x.length;
    // The midpoint rule on a step function: within 1/200 of the integral.
    expect(Math.abs(integral - bs)).toBeLessThan(0.006);
    // Brute force at each θ.
    const theta = murphyTheta();
    theta.forEach((t, k) => {
      const brute = x.reduce(
        (s, p, i) => s + (y[i] === 0 && p > t ? 2 * t : y[i] === 1 && p <= t ? 2 * (1 - t) : 0),
        0,
      );
      expect(m[k]).toBeCloseTo(brute / x.length, 13);
    });
  });
});

describe('loss differences', () => {
  it("compare's written-out losses are scores.ts's, to the last bit", () => {
    const random = new Random(11);
    const n = 500;
    const probs = () => {
      const p_long = Float64Array.from({ length: n }, () => random.next() * 0.9);
      const p_flat = Float64Array.from(p_long, (x) => (1 - x) * random.next());
      const p_short = Float64Array.from(p_long, (x, i) => Math.max(0, 1 - x - p_flat[i]!));
      // A few forecasts of 0 for a class, for the log loss's clip.
      for (let i = 0; i < n; i += 50) p_short[i] = 0;
      return { p_long, p_short, p_flat };
    };
    const sample: CompareSample = {
      tf: '1h',
      ts: Float64Array.from({ length: n }, (_, i) => i * 3600),
      target: Float64Array.from({ length: n }, (_, i) => i * 3600 + 3600),
      symbol: new Int32Array(n),
      classes: Uint8Array.from({ length: n }, () => Math.floor(random.next() * 3)),
      ia3: probs(),
      ia2: probs(),
    };
    const { doc } = compare([sample], { flatBandPct: 0.1, alpha: 0.05, replicates: 10, seed: 1 });
    const t = doc.timeframes[0]!;
    const direct = (p: CompareSample['ia3'], loss: typeof rps) => {
      let s = 0;
      let c = 0;
      for (let i = 0; i < n; i++) {
        const x = loss(
          { p_long: p.p_long[i]!, p_short: p.p_short[i]!, p_flat: p.p_flat[i]! },
          sample.classes[i] as 0 | 1 | 2,
        );
        const u = s + x;
        c += Math.abs(s) >= Math.abs(x) ? s - u + x : x - u + s;
        s = u;
      }
      return (s + c) / n;
    };
    for (const f of ['ia3', 'ia2'] as const) {
      expect(t.forecasters[f].rps).toBe(direct(sample[f], rps));
      expect(t.forecasters[f].brier_3class).toBe(direct(sample[f], brier3));
      expect(t.forecasters[f].log_loss).toBe(direct(sample[f], logLoss));
    }
  });
});

describe('overlapping horizons', () => {
  it('counts the later forecasts made before a target time', () => {
    // Every 15 min, 1 h ahead: the three after each overlap it (the one at target_t does not).
    const ts = [0, 900, 1800, 2700, 3600, 4500];
    expect(
      overlapLags(
        ts,
        ts.map((t) => t + 3600),
      ),
    ).toBe(3);
    expect(overlapLags([0, 3600], [3600, 7200])).toBe(0);
  });
  it('is the count a direct scan makes, whatever the targets do (rising, falling, ragged)', () => {
    const random = new Random(40);
    for (let round = 0; round < 200; round++) {
      const n = 1 + Math.floor(random.next() * 60);
      const ts: number[] = [];
      let t = 0;
      for (let i = 0; i < n; i++) {
        t += 1 + Math.floor(random.next() * 5);
        ts.push(t);
      }
      const spread = random.next() * 40;
      const target = ts.map((t) => t + Math.floor(random.next() * spread) - (round % 4 === 0 ? 10 : 0));
      let most = 0;
      for (let i = 0; i < n; i++) {
        let k = 0;
        for (let j = i + 1; j < n; j++) if (ts[j]! < target[i]!) k++;
        most = Math.max(most, k);
      }
      expect(overlapLags(ts, target), `round ${round}`).toBe(most);
    }
  });
});

describe('compare', () => {
  it('scores, pairs and Holm over a small sample', () => {
    const n = 60;
    const r = new Random(11);
    const classes = Uint8Array.from({ length: n }, () => Math.floor(r.next() * 3));
    const probs = () => {
      const p_long = new Float64Array(n);
      const p_short = new Float64Array(n);
      const p_flat = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        const a = r.next() + (classes[i] === 0 ? 0.5 : 0);
        const b = r.next() + (classes[i] === 1 ? 0.5 : 0);
        const c = r.next();
        p_long[i] = a / (a + b + c);
        p_short[i] = b / (a + b + c);
        p_flat[i] = 1 - p_long[i]! - p_short[i]!;
      }
      return { p_long, p_short, p_flat };
    };
    const sample: CompareSample = {
      tf: '1h',
      ts: Float64Array.from({ length: n }, (_, i) => 1_700_000_000 + 900 * i),
      target: Float64Array.from({ length: n }, (_, i) => 1_700_003_600 + 900 * i),
      symbol: new Int32Array(n),
      classes,
      ia3: probs(),
      ia2: probs(),
    };
    const { doc } = compare([sample], { flatBandPct: 0.1, alpha: 0.05, replicates: 200, seed: 1 });
    const t = doc.timeframes[0]!;
    expect(t.lags).toBe(3);
    expect(t.pairs.map((p) => `${p.a}-${p.b}`)).toEqual(['ia3-ia2', 'ia3-climatology', 'ia2-climatology']);
    expect(t.pairs[0]!.scores.rps.mean_diff).toBeCloseTo(t.forecasters.ia3.rps - t.forecasters.ia2.rps, 13);
    expect(t.pairs[0]!.scores.rps.bootstrap.block).toBe(4);
    expect(t.forecasters.climatology.rps_skill).toBe(0);
    for (const f of ['ia2', 'ia3', 'climatology'] as const)
      for (const e of ['up', 'down', 'flat'] as const) {
        const c = t.forecasters[f].corp[e];
        expect(c.mcb - c.dsc + c.unc).toBeCloseTo(c.score, 13);
      }
    const ps = t.pairs.map((p) => p.scores.rps.dm.p_value!);
    expect(t.pairs.map((p) => p.p_holm)).toEqual(holm(ps));
    expect(t.murphy.theta).toHaveLength(200);
  });
});
