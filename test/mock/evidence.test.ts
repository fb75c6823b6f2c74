import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LooseDocumentSchema, ProblemSchema, TrackRecordSchema } from '../../src/schema/bodies.js';
import { ACCURACY_TIMEFRAMES, FORECAST_TIMEFRAMES } from '../../src/core/domain.js';
import { startMock, type MockServer } from '../../src/mock/index.js';
import { call, fixedNow, NOW_S, REST, tfSeconds, wilson } from './helpers.js';

let server: MockServer;
let api: string;
beforeAll(async () => {
  server = await startMock({ now: fixedNow, seed: 'evidence-tests' });
  api = server.url + REST;
});
afterAll(() => server.close());

const r4 = (x: number) => Math.round(x * 10_000) / 10_000;

/** Every figure of a result must follow from its outcome counts. */
function checkResult(r: any): void {
  const { win, loss, neutral } = r.outcomes;
  expect(win + loss + neutral).toBe(r.n_settled);
  const resolved = win + loss;
  if (resolved === 0) {
    expect(r.resolved_win_rate).toBeNull();
    expect(r.resolved_win_rate_ci95).toBeNull();
  } else {
    expect(r.resolved_win_rate).toBe(r4(win / resolved));
    const [lo, hi] = wilson(win, resolved);
    expect(r.resolved_win_rate_ci95[0]).toBeCloseTo(lo, 4);
    expect(r.resolved_win_rate_ci95[1]).toBeCloseTo(hi, 4);
    expect(r.resolved_win_rate_ci95[0]).toBeLessThanOrEqual(r.resolved_win_rate);
    expect(r.resolved_win_rate_ci95[1]).toBeGreaterThanOrEqual(r.resolved_win_rate);
  }
  if (r.n_settled === 0) {
    expect(r.positive_outcome_rate).toBeNull();
    expect(r.average_return_pct).toBeNull();
  } else {
    expect(r.positive_outcome_rate).toBe(r4(win / r.n_settled));
    expect(typeof r.average_return_pct).toBe('number');
  }
  const n = r.n_settled;
  expect(r.maturity).toBe(n < 30 ? 'insufficient_sample' : n < 300 ? 'early_sample' : 'growing_sample');
}

function checkTotals(body: any): void {
  const sum = (f: (r: any) => number) => body.results.reduce((a: number, r: any) => a + f(r), 0);
  expect(body.totals).toEqual({
    n_settled: sum((r) => r.n_settled),
    wins: sum((r) => r.outcomes.win),
    losses: sum((r) => r.outcomes.loss),
    neutrals: sum((r) => r.outcomes.neutral),
  });
}

function expectProblem(reply: { status: number; headers: Headers; body: any }, status: number): void {
  expect(reply.status).toBe(status);
  expect(reply.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  ProblemSchema.parse(reply.body);
}

describe('track-record.php', () => {
  it('reports every accuracy timeframe with consistent figures and varied maturity', async () => {
    const r = await call(`${api}track-record.php`);
    expect(r.status).toBe(200);
    TrackRecordSchema.parse(r.body);
    expect(r.body.symbol).toBeUndefined();
    expect(r.body.results.map((x: any) => x.timeframe)).toEqual([...ACCURACY_TIMEFRAMES]);
    r.body.results.forEach(checkResult);
    checkTotals(r.body);
    expect(new Set(r.body.results.map((x: any) => x.maturity))).toEqual(
      new Set(['insufficient_sample', 'early_sample', 'growing_sample']),
    );
    const byTf = Object.fromEntries(r.body.results.map((x: any) => [x.timeframe, x]));
    expect(byTf['1d'].n_settled).toBe(0);
    expect(byTf['4h'].maturity).toBe('insufficient_sample');
    for (const tf of ['1min', '5min', '15min', '30min', '1h']) expect(byTf[tf].maturity).toBe('growing_sample');
    expect(r.body.protocol).toMatchObject({ id: expect.any(String), status: expect.any(String) });
    expect(Number.isNaN(Date.parse(r.body.protocol.starts_at_utc))).toBe(false);
    expect(Date.parse(r.body.generated_at)).toBe(NOW_S * 1000);
  });

  it('filters by symbol with smaller, still consistent counts', async () => {
    const all = await call(`${api}track-record.php`);
    const btc = await call(`${api}track-record.php?symbol=${encodeURIComponent('BTC/USD')}`);
    expect(btc.status).toBe(200);
    TrackRecordSchema.parse(btc.body);
    expect(btc.body.symbol).toBe('BTC/USD');
    btc.body.results.forEach(checkResult);
    checkTotals(btc.body);
    expect(btc.body.totals.n_settled).toBeLessThan(all.body.totals.n_settled);
    // A symbol not forecast on 1min has nothing settled there.
    const spx = await call(`${api}track-record.php?symbol=${encodeURIComponent('SPX/USD')}`);
    expect(spx.body.results.find((x: any) => x.timeframe === '1min').n_settled).toBe(0);
  });

  it('answers an unknown or non-canonical symbol with 404', async () => {
    for (const s of ['DOGE/USD', 'btc/usd'])
      expectProblem(await call(`${api}track-record.php?symbol=${encodeURIComponent(s)}`), 404);
  });
});

describe('accuracy.php', () => {
  it('filters by timeframe and symbol', async () => {
    const r = await call(`${api}accuracy.php?symbol=${encodeURIComponent('ETH/USD')}&tf=1h`);
    expect(r.status).toBe(200);
    TrackRecordSchema.parse(r.body);
    expect(r.body.symbol).toBe('ETH/USD');
    expect(r.body.results).toHaveLength(1);
    expect(r.body.results[0].timeframe).toBe('1h');
    checkResult(r.body.results[0]);
    checkTotals(r.body);
    const unfiltered = await call(`${api}accuracy.php`);
    expect(unfiltered.body.results).toHaveLength(ACCURACY_TIMEFRAMES.length);
  });

  it('gives null rates for an empty timeframe', async () => {
    const r = await call(`${api}accuracy.php?tf=1d`);
    expect(r.body.results[0]).toMatchObject({
      n_settled: 0,
      resolved_win_rate: null,
      resolved_win_rate_ci95: null,
      maturity: 'insufficient_sample',
    });
  });

  it('answers a bad tf with 400 and an unknown symbol with 404', async () => {
    for (const tf of ['10min', '1H', '', 'week']) expectProblem(await call(`${api}accuracy.php?tf=${tf}`), 400);
    expectProblem(await call(`${api}accuracy.php?symbol=NOPE/USD&tf=1h`), 404);
  });
});

describe('verify.php', () => {
  it('shows an expired forecast with a settlement that follows from its numbers', async () => {
    const outcomes = new Set<string>();
    for (const id of [1, 2, 3, 77, 1234, 9999, 25_000, 49_999, 50_000]) {
      const r = await call(`${api}verify.php?id=${id}`);
      expect(r.status).toBe(200);
      LooseDocumentSchema.parse(r.body);
      const { forecast: f, market, settlement: s } = r.body;
      expect(r.body.ok).toBe(true);
      expect(r.body.id).toBe(id);
      expect(f.id).toBe(id);
      const horizon = new Map(FORECAST_TIMEFRAMES).get(f.tf);
      expect(f.horizon_min).toBe(horizon);
      expect(f.ts % tfSeconds(f.tf)).toBe(0);
      expect(f.target_t).toBe(f.ts + f.horizon_min * 60);
      expect(f.target_t).toBeLessThan(NOW_S);
      expect(Math.abs(f.p_long + f.p_short + f.p_flat - 1)).toBeLessThan(1e-9);
      expect(f.direction).toBe(f.p_long >= f.p_short ? 'long' : 'short');
      expect(Number.isInteger(f.policy_version)).toBe(true);
      expect(market.closes.length).toBeGreaterThanOrEqual(3);
      expect(market.closes[0]).toEqual({ t: f.ts, close: f.anchor_price });
      expect(market.closes.at(-1)).toEqual({ t: f.target_t, close: s.close_at_target });
      for (let i = 1; i < market.closes.length; i++) expect(market.closes[i].t).toBeGreaterThan(market.closes[i - 1].t);
      expect(s.target_t).toBe(f.target_t);
      expect(s.return_pct).toBeCloseTo((s.close_at_target / f.anchor_price - 1) * 100, 4);
      const band = s.neutral_band_pct;
      const expected =
        Math.abs(s.return_pct) < band ? 'neutral' : s.return_pct > 0 === (f.direction === 'long') ? 'win' : 'loss';
      expect(s.outcome).toBe(expected);
      expect(Date.parse(s.settled_at) / 1000).toBeGreaterThanOrEqual(f.target_t);
      outcomes.add(s.outcome);
    }
    expect(outcomes.size).toBeGreaterThan(1);
  });

  it('answers 400 for a missing or malformed id', async () => {
    for (const q of ['', '?id=', '?id=0', '?id=-3', '?id=1.5', '?id=abc', '?id=1e3', '?id=%201']) {
      expectProblem(await call(`${api}verify.php${q}`), 400);
    }
  });

  it('answers 403 for a forecast not yet expired and 404 beyond the known ids', async () => {
    const open = await call(`${api}verify.php?id=50001`);
    expectProblem(open, 403);
    expect(open.body.detail).toMatch(/not (yet )?expired/);
    expectProblem(await call(`${api}verify.php?id=60000`), 403);
    expectProblem(await call(`${api}verify.php?id=60001`), 404);
    expectProblem(await call(`${api}verify.php?id=99999999999999999999`), 404);
  });
});

describe('a record that grows with the clock', () => {
  let clockMs = 0;
  let growing: MockServer;
  beforeAll(async () => {
    growing = await startMock({ now: () => clockMs, seed: 'evidence-tests' });
  });
  afterAll(() => growing.close());

  const recordAt = async (ms: number, query = '', faults: string[] = []) => {
    clockMs = ms;
    growing.setFaults(faults.map((kind) => ({ kind: kind as 'shrink' })));
    const r = await call(`${growing.url + REST}track-record.php${query}`);
    growing.setFaults([]);
    return r.body;
  };

  it('never lowers a count, for all symbols and for one, from day to day and over months', async () => {
    const day = 86_400_000;
    const times = [0, 1, 2, 3, 10, 40, 200].map((d) => Date.UTC(2025, 3, 1) + d * day);
    for (const query of ['', '?symbol=ETH/USD']) {
      let previous: any;
      for (const t of times) {
        const body = await recordAt(t, query);
        body.results.forEach(checkResult);
        checkTotals(body);
        if (previous) {
          body.results.forEach((r: any, i: number) => {
            const p = previous.results[i];
            expect(r.n_settled).toBeGreaterThanOrEqual(p.n_settled);
            for (const k of ['win', 'loss', 'neutral']) expect(r.outcomes[k]).toBeGreaterThanOrEqual(p.outcomes[k]);
          });
        }
        previous = body;
      }
      const first = (await recordAt(times[0]!, query)).results.find((r: any) => r.timeframe === '1min');
      expect(previous.results.find((r: any) => r.timeframe === '1min').n_settled).toBeGreaterThan(first.n_settled);
    }
  });

  it('the shrink fault drops losses of 1h that it published before, and keeps its figures consistent', async () => {
    const t = Date.UTC(2026, 0, 15);
    const before = await recordAt(t - 30 * 86_400_000);
    const shrunk = await recordAt(t, '', ['shrink']);
    shrunk.results.forEach(checkResult);
    checkTotals(shrunk);
    const oneHour = (b: any) => b.results.find((r: any) => r.timeframe === '1h');
    expect(oneHour(shrunk).outcomes.loss).toBeLessThan(oneHour(before).outcomes.loss);
    expect(oneHour(shrunk).n_settled).toBeLessThan(oneHour(before).n_settled);
    const others = shrunk.results.filter((r: any) => r.timeframe !== '1h');
    for (const r of others) {
      expect(r.n_settled).toBeGreaterThanOrEqual(
        before.results.find((x: any) => x.timeframe === r.timeframe).n_settled,
      );
    }
  });

  it('settles every bar after 2026-11-22: a week adds what a service forecasting each bar settles', async () => {
    const week = 7 * 86_400_000;
    const from = Date.UTC(2026, 10, 22, 12) + 3 * week;
    const byTf = (body: any) => new Map(body.results.map((r: any) => [r.timeframe, r.n_settled]));
    const grown = async (query: string) => {
      const before = byTf(await recordAt(from, query));
      const after = byTf(await recordAt(from + week, query));
      return (tf: string) => (after.get(tf) as number) - (before.get(tf) as number);
    };
    const all = await grown('');
    const btc = await grown('?symbol=BTC/USD');
    const spx = await grown('?symbol=SPX/USD');
    for (const [tf] of FORECAST_TIMEFRAMES) {
      if (!(ACCURACY_TIMEFRAMES as readonly string[]).includes(tf)) continue;
      const bars = week / 1000 / tfSeconds(tf);
      // Bitcoin trades all week: one settlement a bar, within rounding.
      expect(Math.abs(btc(tf) - bars), tf).toBeLessThanOrEqual(1);
      // Eight symbols, some closed part of the week: more than the three cryptos, fewer than eight every bar.
      expect(all(tf), tf).toBeGreaterThan(3 * bars);
      expect(all(tf), tf).toBeLessThan(8 * bars);
    }
    // The S&P 500 trades 6.5 hours a weekday: 32.5 of the week's 168 hours.
    expect(Math.abs(spx('1h') - 32.5)).toBeLessThanOrEqual(1);
    // No longer forecast: nothing new.
    for (const tf of ['4h', '1d']) expect(all(tf), tf).toBe(0);
  });
});
