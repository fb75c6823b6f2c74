import { describe, expect, it } from 'vitest';
import { auditTrackRecord } from '../../src/evidence/audit.js';
import { describeDisagreement } from '../../src/evidence/checks.js';
import { outcomeCounts } from '../../src/evidence/results.js';
import { resolvedRate, versus50, wilsonInterval } from '../../src/evidence/wilson.js';

const close = (got: readonly number[], want: readonly number[]) => {
  for (const [i, v] of got.entries()) expect(v).toBeCloseTo(want[i]!, 4);
};

describe('wilsonInterval', () => {
  it('matches published reference values at z = 1.96', () => {
    close(wilsonInterval(5, 10), [0.2366, 0.7634]);
    close(wilsonInterval(308, 617), [0.4599, 0.5385]);
    close(wilsonInterval(3, 6), [0.1876, 0.8124]);
  });

  it('stays within 0..1 at the edges', () => {
    const [low, high] = wilsonInterval(1, 1);
    expect(high).toBe(1);
    expect(low).toBeCloseTo(0.2065, 4);
    expect(wilsonInterval(0, 5)[0]).toBe(0);
  });

  it('refuses an empty sample rather than returning NaN', () => {
    expect(() => wilsonInterval(0, 0)).toThrow(new RangeError('the Wilson interval needs at least one trial'));
  });
});

describe('resolvedRate', () => {
  it('is null for no resolved forecasts and for a negative count on either side', () => {
    expect(resolvedRate(0, 0)).toBeNull();
    expect(resolvedRate(-1, 3)).toBeNull();
    expect(resolvedRate(3, -1)).toBeNull();
    expect(resolvedRate(3, 1)).toEqual({ rate: 0.75, interval: wilsonInterval(3, 4) });
  });
});

describe('outcomeCounts', () => {
  it("reads the seed's names: win, loss, neutral", () => {
    expect(outcomeCounts({ win: 3, loss: 2, neutral: 1 })).toEqual({ wins: 3, losses: 2, neutrals: 1 });
    expect(outcomeCounts({ win: 3, loss: 2 })).toEqual({ wins: 3, losses: 2 });
  });

  it('guesses no other spelling, and takes only whole non-negative counts', () => {
    expect(outcomeCounts({ wins: 3, losses: 2, neutrals: 1 })).toEqual({});
    expect(outcomeCounts({ won: 3, lost: 2, push: 1, Win: 4 })).toEqual({});
    expect(outcomeCounts({ win: '3', loss: -1, neutral: 1.5 })).toEqual({});
    expect(outcomeCounts(null)).toEqual({});
    expect(outcomeCounts([1, 2])).toEqual({});
  });
});

describe('versus50', () => {
  it('says whether an interval is wholly above 50%, wholly below, or across it', () => {
    expect(versus50([0.5001, 0.6])).toBe('above');
    expect(versus50([0.4, 0.4999])).toBe('below');
    expect(versus50([0.45, 0.55])).toBe('straddles');
    expect(versus50([0.5, 0.6])).toBe('straddles');
    expect(versus50([0.4, 0.5])).toBe('straddles');
    expect(versus50(null)).toBeUndefined();
  });
});

const row = (timeframe: string, win: number, loss: number, rate: number | null, ci: unknown) => ({
  timeframe,
  n_settled: win + loss,
  outcomes: { win, loss, neutral: 0 },
  resolved_win_rate: rate,
  resolved_win_rate_ci95: ci,
  maturity: 'growing_sample',
});

describe('auditTrackRecord', () => {
  it('finds no disagreement in correct figures rounded to four decimals', () => {
    const report = auditTrackRecord({
      results: [row('1h', 308, 309, 0.4992, [0.4599, 0.5385]), row('4h', 3, 3, 0.5, [0.1876, 0.8124])],
    });
    expect(report).toEqual({ audited: 2, disagreements: [], notAuditable: [] });
  });

  it('flags a bound moved by 0.01, with the published and the recomputed figure', () => {
    const report = auditTrackRecord({ results: [row('1h', 308, 309, 0.4992, [0.4699, 0.5385])] });
    expect(report.disagreements).toHaveLength(1);
    const d = report.disagreements[0]!;
    expect(d).toMatchObject({ timeframe: '1h', field: 'resolved_win_rate_ci95[0]', published: 0.4699 });
    expect(d.recomputed as number).toBeCloseTo(0.45988, 4);
    expect(describeDisagreement(d)).toBe(
      'audit: 1h: resolved_win_rate_ci95[0] published 0.4699, recomputed 0.4599 (off by 0.0100, tolerance 0.001)',
    );
  });

  it('accepts a difference of exactly 0.001 and flags anything above it', () => {
    // 1 win of 2: rate 0.5, so 0.501 is off by exactly the tolerance.
    const exact = auditTrackRecord({ results: [row('1h', 1, 1, 0.501, wilsonInterval(1, 1 + 1))] });
    expect(exact.disagreements).toEqual([]);
    const above = auditTrackRecord({ results: [row('1h', 1, 1, 0.5011, wilsonInterval(1, 2))] });
    expect(above.disagreements.map((d) => d.field)).toEqual(['resolved_win_rate']);
  });

  it('agrees with null figures when nothing was resolved, and only then', () => {
    expect(auditTrackRecord({ results: [row('1d', 0, 0, null, null)] }).disagreements).toEqual([]);
    const nullButResolved = auditTrackRecord({ results: [row('1h', 3, 3, null, null)] });
    expect(nullButResolved.disagreements.map((d) => [d.field, d.published])).toEqual([
      ['resolved_win_rate', null],
      ['resolved_win_rate_ci95', null],
    ]);
    expect(describeDisagreement(nullButResolved.disagreements[1]!)).toBe(
      'audit: 1h: resolved_win_rate_ci95 published null, recomputed [0.1876, 0.8124]',
    );
    const figureButEmpty = auditTrackRecord({ results: [row('1d', 0, 0, 0.5, [0.1, 0.9])] });
    expect(figureButEmpty.disagreements.map((d) => [d.field, d.recomputed])).toEqual([
      ['resolved_win_rate', null],
      ['resolved_win_rate_ci95', null],
    ]);
  });

  it('reports a timeframe whose counts it cannot read as not auditable instead of guessing', () => {
    const report = auditTrackRecord({
      results: [
        { timeframe: '1h', outcomes: { up: 3, down: 2 }, resolved_win_rate: 0.6, resolved_win_rate_ci95: [0.2, 0.9] },
      ],
    });
    expect(report.audited).toBe(0);
    expect(report.disagreements).toEqual([]);
    expect(report.notAuditable).toEqual([
      { timeframe: '1h', reason: expect.stringMatching(/no win and loss count \(keys: up, down\)/) },
    ]);
  });

  it("does not audit counts under other spellings: they are not the seed's", () => {
    const report = auditTrackRecord({
      results: [
        {
          timeframe: '1h',
          outcomes: { wins: 308, losses: 309, neutrals: 74 },
          resolved_win_rate: 0.4992,
          resolved_win_rate_ci95: [0.4599, 0.5485],
        },
      ],
    });
    expect(report.disagreements).toEqual([]);
    expect(report.notAuditable.map((n) => n.reason)).toEqual([
      'its outcomes carry no win and loss count (keys: wins, losses, neutrals)',
    ]);
  });

  it('flags a malformed interval', () => {
    const report = auditTrackRecord({ results: [row('1h', 3, 3, 0.5, [0.1876])] });
    expect(report.disagreements.map((d) => d.field)).toEqual(['resolved_win_rate_ci95']);
  });
});
