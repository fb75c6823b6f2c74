import { describe, expect, it } from 'vitest';
import { parseSettledFloors } from '../../src/cmdutil/input.js';
import { describeGateFailure } from '../../src/evidence/checks.js';
import {
  evaluateGates,
  evaluatePeriodGates,
  hasGates,
  hasPeriodGates,
  maturityRank,
} from '../../src/evidence/gates.js';

const row = (timeframe: string, n_settled: number, resolved_win_rate: number | null, maturity: string) => ({
  timeframe,
  n_settled,
  outcomes: {},
  resolved_win_rate,
  resolved_win_rate_ci95: null,
  positive_outcome_rate: null,
  average_return_pct: null,
  maturity,
});

const body = {
  results: [
    row('1h', 742, 0.55, 'growing_sample'),
    row('3h', 236, 0.5095, 'early_sample'),
    row('4h', 6, 0.5, 'insufficient_sample'),
    row('1d', 0, null, 'insufficient_sample'),
  ],
};

describe('evaluateGates', () => {
  it('passes a figure equal to its threshold, for every gate', () => {
    const one = { results: [row('1h', 742, 0.55, 'growing_sample')] };
    expect(evaluateGates(one, { minSettled: 742, minWinRate: 0.55, minMaturity: 'growing_sample' })).toEqual([]);
  });

  it('fails a figure just below its threshold, naming timeframe, figure and threshold', () => {
    const one = { results: [row('1h', 742, 0.55, 'growing_sample')] };
    expect(evaluateGates(one, { minSettled: 743, minWinRate: 0.5501 })).toEqual([
      { timeframe: '1h', gate: '--min-settled', field: 'n_settled', figure: 742, threshold: 743 },
      { timeframe: '1h', gate: '--min-win-rate', field: 'resolved_win_rate', figure: 0.55, threshold: 0.5501 },
    ]);
  });

  it('needs every timeframe to pass: maturity is ranked insufficient < early < growing', () => {
    expect(evaluateGates(body, { minMaturity: 'insufficient_sample' })).toEqual([]);
    expect(evaluateGates(body, { minMaturity: 'early_sample' }).map((f) => f.timeframe)).toEqual(['4h', '1d']);
    expect(evaluateGates(body, { minMaturity: 'growing_sample' }).map((f) => f.timeframe)).toEqual(['3h', '4h', '1d']);
  });

  it('fails a null rate on a rate gate, even a gate of 0, but not on the other gates', () => {
    expect(evaluateGates(body, { minWinRate: 0 })).toEqual([
      { timeframe: '1d', gate: '--min-win-rate', field: 'resolved_win_rate', figure: null, threshold: 0 },
    ]);
    expect(evaluateGates(body, { minSettled: 0, minMaturity: 'insufficient_sample' })).toEqual([]);
  });

  it('fails a maturity the seed does not list, and a missing count', () => {
    const odd = { results: [{ timeframe: '1h', maturity: 'mature', resolved_win_rate: 0.6 }] };
    expect(evaluateGates(odd, { minMaturity: 'insufficient_sample', minSettled: 0 }).map((f) => f.gate)).toEqual([
      '--min-maturity',
      '--min-settled',
    ]);
    expect(maturityRank('mature')).toBe(-1);
  });

  it('fails every gate given when the result has no timeframes: nothing proves the threshold', () => {
    expect(evaluateGates({ results: [] }, { minSettled: 1, minWinRate: 0.5 })).toEqual([
      { timeframe: undefined, gate: '--min-settled', field: undefined, figure: undefined, threshold: 1 },
      { timeframe: undefined, gate: '--min-win-rate', field: undefined, figure: undefined, threshold: 0.5 },
    ]);
    expect(evaluateGates({}, { minMaturity: 'early_sample' })).toHaveLength(1);
    expect(evaluateGates({ results: [] }, {})).toEqual([]);
  });

  it('knows when no gate was asked for', () => {
    expect(hasGates({})).toBe(false);
    expect(hasGates({ minSettled: 0 })).toBe(true);
    expect(hasGates({ minWinRate: 0 })).toBe(true);
    expect(hasGates({ minMaturity: 'insufficient_sample' })).toBe(true);
    expect(hasPeriodGates({})).toBe(false);
    expect(hasPeriodGates({ minNewSettled: 0 })).toBe(true);
    expect(hasPeriodGates({ minNewWinRate: 0 })).toBe(true);
  });

  it('with no gate asked for, fails nothing, even a result with no timeframes', () => {
    expect(evaluateGates(body, {})).toEqual([]);
    expect(evaluatePeriodGates([], {})).toEqual([]);
  });
});

describe('evaluatePeriodGates with a floor per timeframe', () => {
  const change = (timeframe: string, settled: number) => ({
    timeframe,
    settled,
    rate: 0.5,
    interval: null,
    appeared: false,
  });
  const week = [change('15min', 3700), change('1h', 929), change('6h', 155), change('4h', 0), change('1d', 0)];

  it('holds each timeframe to its own floor, else the one for every timeframe, else none', () => {
    const floors = { every: 20, timeframes: { '4h': 0, '1d': 0 } };
    expect(evaluatePeriodGates(week, { minNewSettled: floors })).toEqual([]);
    // The one floor for every timeframe fails the two that settle nothing.
    expect(evaluatePeriodGates(week, { minNewSettled: 20 }).map((f) => f.timeframe)).toEqual(['4h', '1d']);
    // Named alone: only those are gated; its failure shows the floor as typed.
    expect(evaluatePeriodGates(week, { minNewSettled: { timeframes: { '1h': 1000, '6h': 50 } } })).toEqual([
      { timeframe: '1h', gate: '--min-new-settled', field: 'new settlements', figure: 929, threshold: '1h=1000' },
    ]);
    // A floor equal to the figure passes.
    expect(evaluatePeriodGates(week, { minNewSettled: { timeframes: { '6h': 155 } } })).toEqual([]);
  });

  it('fails a named timeframe the result lacks, unless its floor is 0', () => {
    const only1h = [change('1h', 929)];
    const failures = evaluatePeriodGates(only1h, { minNewSettled: { every: 20, timeframes: { '6h': 5, '1d': 0 } } });
    expect(failures).toEqual([
      { timeframe: '6h', gate: '--min-new-settled', field: 'new settlements', figure: undefined, threshold: '6h=5' },
    ]);
    expect(describeGateFailure(failures[0]!)).toBe(
      'gate failed: 6h: not in the result, so nothing proves --min-new-settled 6h=5',
    );
    // No timeframes at all: the floor for every timeframe fails once, a named one by its name.
    expect(
      evaluatePeriodGates([], { minNewSettled: { every: 1, timeframes: { '6h': 5 } } }).map((f) => f.timeframe),
    ).toEqual([undefined, '6h']);
  });
});

describe('parseSettledFloors', () => {
  it('reads a number, TF=N pairs or both; a timeframe in any spelling the API allows', () => {
    expect(parseSettledFloors('20', '--min-new-settled')).toEqual({ every: 20, timeframes: {} });
    expect(parseSettledFloors('20,4h=0,1D=0', '--min-new-settled')).toEqual({
      every: 20,
      timeframes: { '4h': 0, '1d': 0 },
    });
    expect(parseSettledFloors('60min=500', '--min-new-settled')).toEqual({ timeframes: { '1h': 500 } });
  });

  it('refuses (exit 2) an unknown timeframe, a count that is not a whole number, a repeat', () => {
    const refused = (raw: string) => {
      try {
        parseSettledFloors(raw, '--min-new-settled');
      } catch (err) {
        return [(err as { exitCode: number }).exitCode, (err as Error).message];
      }
      return undefined;
    };
    expect(refused('20,7h=1')).toEqual([2, expect.stringMatching(/7h.*1min, 5min/)]);
    expect(refused('1h=ten')).toEqual([2, "--min-new-settled 1h=N: N must be a whole number, got 'ten'"]);
    expect(refused('1h=1,60min=2')).toEqual([2, "--min-new-settled: 1h is given twice in '1h=1,60min=2'"]);
    expect(refused('20,30')).toEqual([2, "--min-new-settled: one number for every timeframe, got two in '20,30'"]);
    expect(refused('-1')).toEqual([2, expect.stringMatching(/whole number/)]);
  });
});

describe('describeGateFailure', () => {
  it('is one line with the timeframe, the figure and the threshold', () => {
    expect(
      describeGateFailure({ timeframe: '4h', gate: '--min-settled', field: 'n_settled', figure: 6, threshold: 30 }),
    ).toBe('gate failed: 4h: n_settled 6 is below --min-settled 30');
    expect(
      describeGateFailure({
        timeframe: '1d',
        gate: '--min-win-rate',
        field: 'resolved_win_rate',
        figure: null,
        threshold: 0.55,
      }),
    ).toBe(
      'gate failed: 1d: resolved_win_rate null is below --min-win-rate 0.55 (no resolved forecasts: a null rate fails)',
    );
    expect(
      describeGateFailure({
        timeframe: undefined,
        gate: '--min-maturity',
        field: undefined,
        figure: undefined,
        threshold: 'growing_sample',
      }),
    ).toMatch(/no timeframes, so nothing proves the threshold/);
  });
});
