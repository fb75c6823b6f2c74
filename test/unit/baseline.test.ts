import { describe, expect, it } from 'vitest';
import { compareWithBaseline, filterMismatch } from '../../src/evidence/baseline.js';
import { evaluatePeriodGates } from '../../src/evidence/gates.js';
import { recordRows } from '../../src/evidence/rows.js';

const row = (timeframe: string, win: number, loss: number, neutral: number, extra: object = {}) => ({
  timeframe,
  n_settled: win + loss + neutral,
  outcomes: { win, loss, neutral },
  ...extra,
});
const record = (id: string, ...results: object[]) => ({ protocol: { id }, results });

describe('compareWithBaseline', () => {
  it('gives the period since the baseline per timeframe: counts, resolved rate and Wilson interval', () => {
    const c = compareWithBaseline(record('p', row('1h', 10, 10, 2)), record('p', row('1h', 16, 12, 3)));
    expect(c.comparable).toBe(true);
    if (!c.comparable) return;
    expect(c.drops).toEqual([]);
    expect(c.vanished).toEqual([]);
    const [h] = c.changes;
    expect(h).toMatchObject({ timeframe: '1h', settled: 9, wins: 6, losses: 2, neutrals: 1, appeared: false });
    expect(h!.rate).toBe(0.75);
    expect(h!.interval![0]).toBeCloseTo(0.4093, 4);
    expect(h!.interval![1]).toBeCloseTo(0.9285, 4);
    expect(h!.versus50).toBe('straddles');
  });

  it('lists every count that went down, and the timeframes that vanished', () => {
    const c = compareWithBaseline(
      record('p', row('1h', 10, 10, 2), row('4h', 1, 1, 0)),
      record('p', row('1h', 10, 8, 2), row('1d', 0, 0, 0)),
    );
    if (!c.comparable) throw new Error('expected comparable');
    expect(c.drops).toEqual([
      {
        timeframe: '1h',
        drops: [
          { count: 'n_settled', before: 22, now: 20 },
          { count: 'loss', before: 10, now: 8 },
        ],
      },
    ]);
    expect(c.vanished).toEqual(['4h']);
    expect(c.changes.find((x) => x.timeframe === '1h')).toMatchObject({ losses: -2, rate: null, interval: null });
    expect(c.changes.find((x) => x.timeframe === '1d')).toMatchObject({ appeared: true, settled: 0 });
  });

  it('reports a neutral count that went down, like the other counts', () => {
    const c = compareWithBaseline(record('p', row('1h', 5, 5, 4)), record('p', row('1h', 5, 5, 3, { n_settled: 14 })));
    if (!c.comparable) throw new Error('expected comparable');
    expect(c.drops).toEqual([{ timeframe: '1h', drops: [{ count: 'neutral', before: 4, now: 3 }] }]);
  });

  it('leaves a period count unknown (not NaN) when either side lacks it, and then gives no rate', () => {
    const without = (name: 'win' | 'loss', r: ReturnType<typeof row>) => {
      const { [name]: _, ...outcomes } = r.outcomes;
      return { ...r, outcomes };
    };
    const missingNow = compareWithBaseline(
      record('p', row('1h', 5, 4, 1)),
      record('p', without('win', row('1h', 8, 6, 2))),
    );
    const missingThen = compareWithBaseline(
      record('p', without('win', row('1h', 5, 4, 1))),
      record('p', row('1h', 8, 6, 2)),
    );
    for (const c of [missingNow, missingThen]) {
      if (!c.comparable) throw new Error('expected comparable');
      expect(c.changes).toEqual([
        {
          timeframe: '1h',
          settled: 6,
          wins: undefined,
          losses: 2,
          neutrals: 1,
          rate: null,
          interval: null,
          versus50: undefined,
          appeared: false,
        },
      ]);
    }
    const noLosses = compareWithBaseline(
      record('p', row('1h', 5, 4, 1)),
      record('p', without('loss', row('1h', 8, 6, 2))),
    );
    if (!noLosses.comparable) throw new Error('expected comparable');
    expect(noLosses.changes[0]).toMatchObject({ wins: 3, losses: undefined, rate: null, interval: null });
  });

  it('reads a timeframe listed twice from its first row, once', () => {
    const c = compareWithBaseline(
      record('p', row('1h', 10, 10, 0), row('1h', 90, 90, 0)),
      record('p', row('1h', 13, 11, 0), row('1h', 1, 1, 0)),
    );
    if (!c.comparable) throw new Error('expected comparable');
    expect(c.changes).toHaveLength(1);
    expect(c.changes[0]).toMatchObject({ timeframe: '1h', settled: 4, wins: 3, losses: 1 });
    expect(c.drops).toEqual([]);
  });

  it('compares nothing when neither body names its protocol: the same cohort is not proven', () => {
    expect(compareWithBaseline({ results: [row('1h', 1, 1, 0)] }, { results: [row('1h', 2, 2, 0)] })).toEqual({
      comparable: false,
      baselineProtocol: undefined,
      currentProtocol: undefined,
    });
  });

  it('compares nothing across protocol ids', () => {
    expect(compareWithBaseline(record('old', row('1h', 99, 99, 9)), record('new', row('1h', 1, 1, 0)))).toEqual({
      comparable: false,
      baselineProtocol: 'old',
      currentProtocol: 'new',
    });
  });

  it('feeds the period gates: equal passes, below and null fail', () => {
    const c = compareWithBaseline(record('p', row('1h', 0, 0, 0)), record('p', row('1h', 3, 1, 0)));
    if (!c.comparable) throw new Error('expected comparable');
    expect(evaluatePeriodGates(c.changes, { minNewSettled: 4, minNewWinRate: 0.75 })).toEqual([]);
    expect(evaluatePeriodGates(c.changes, { minNewSettled: 5 })).toMatchObject([
      { timeframe: '1h', gate: '--min-new-settled', figure: 4, threshold: 5 },
    ]);
    const none = compareWithBaseline(record('p', row('1h', 3, 1, 0)), record('p', row('1h', 3, 1, 0)));
    if (!none.comparable) throw new Error('expected comparable');
    expect(evaluatePeriodGates(none.changes, { minNewWinRate: 0 })).toMatchObject([{ figure: null }]);
  });
});

describe('filterMismatch', () => {
  it('accepts the same symbol in any case and the same timeframe', () => {
    expect(filterMismatch({ symbol: 'BTC/USD', results: [row('1h', 1, 1, 1)] }, { symbol: 'btc/usd', tf: '1h' })).toBe(
      undefined,
    );
  });
  it('names another symbol, a missing filter and another timeframe', () => {
    expect(filterMismatch({ symbol: 'BTC/USD', results: [] }, {})).toMatch(/BTC\/USD.*all symbols/);
    expect(filterMismatch({ results: [] }, { symbol: 'ETH/USD' })).toMatch(/all symbols.*ETH\/USD/);
    expect(filterMismatch({ results: [row('4h', 1, 1, 1)] }, { tf: '1h' })).toMatch(/timeframe 4h/);
  });
});

describe('recordRows', () => {
  it('computes the Total row from the counts, with its rate, interval and place against 50%', () => {
    const { rows, total } = recordRows({
      results: [
        row('1h', 300, 200, 20, { resolved_win_rate: 0.6, resolved_win_rate_ci95: [0.556, 0.642] }),
        row('4h', 20, 30, 0),
      ],
    });
    expect(rows.map((r) => r.versus50)).toEqual(['above', undefined]);
    expect(total).toMatchObject({ timeframe: 'Total', settled: 570, wins: 320, losses: 230, neutrals: 20 });
    expect(total!.rate).toBeCloseTo(320 / 550, 10);
    expect(total!.interval![0]).toBeCloseTo(0.5402, 4);
    expect(total!.versus50).toBe('above');
  });

  it('leaves a Total count unknown when a row lacks it, rather than adding a guess', () => {
    const { total } = recordRows({ results: [row('1h', 3, 2, 1), { timeframe: '4h', outcomes: { wins: 3 } }] });
    expect(total).toMatchObject({ wins: undefined, settled: undefined });
    expect(total!.rate).toBeUndefined();
  });
});
