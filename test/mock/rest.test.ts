import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ForecastEnvelopeSchema,
  LooseDocumentSchema,
  ProblemSchema,
  RegistrationSchema,
  SymbolsListSchema,
} from '../../src/schema/bodies.js';
import { CANDLE_TIMEFRAMES, FORECAST_TIMEFRAMES, REST_KEY_PATTERN } from '../../src/core/domain.js';
import { startMock, type MockServer } from '../../src/mock/index.js';
import { bearer, call, fixedNow, NOW_S, REST, tfSeconds } from './helpers.js';

let server: MockServer;
let api: string;
beforeAll(async () => {
  server = await startMock({ now: fixedNow, seed: 'rest-tests' });
  api = server.url + REST;
});
afterAll(() => server.close());

const SOURCE = 'Market Forecast Agent (forecast-agent.example)';

function expectProblem(reply: { status: number; headers: Headers; body: any }, status: number): void {
  expect(reply.status).toBe(status);
  expect(reply.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  ProblemSchema.parse(reply.body);
  expect(reply.body.status).toBe(status);
  expect(reply.body.type).toMatch(/^https:\/\/forecast-agent\.example\/problems\/[a-z-]+$/);
  expect(reply.body.meta.source).toBe(SOURCE);
}

function sumsToOne(a: number, b: number, c: number): void {
  expect(Math.abs(a + b + c - 1)).toBeLessThan(1e-9);
  for (const p of [a, b, c]) {
    expect(p).toBeGreaterThanOrEqual(0);
    expect(Math.round(p * 10_000) / 10_000).toBe(p);
  }
}

/** The seed's invariants of a ForecastEnvelope, for a tier with `delayMin` minutes of delay. */
function checkEnvelope(body: any, delayMin: number, tfs: string[]): void {
  ForecastEnvelopeSchema.parse(body);
  expect(body.meta.server_t).toBe(NOW_S);
  expect(body.meta.data_delay_min).toBe(delayMin);
  expect(body.meta.source).toBe(SOURCE);
  expect(Object.keys(body.predictions)).toEqual(tfs);
  const horizons = new Map(FORECAST_TIMEFRAMES);
  let lastHorizon = 0;
  for (const [tf, f] of Object.entries<any>(body.predictions)) {
    expect(f.tf).toBe(tf);
    expect(f.horizon_min).toBe(horizons.get(tf));
    expect(f.horizon_min).toBeGreaterThan(lastHorizon);
    lastHorizon = f.horizon_min;
    const cadence = tfSeconds(tf);
    expect(f.ts).toBe(Math.floor((NOW_S - delayMin * 60) / cadence) * cadence);
    expect(f.target_t).toBe(f.ts + f.horizon_min * 60);
    expect(f.age_s).toBe(body.meta.server_t - f.ts);
    expect(f.status).toBe(f.target_t <= body.meta.server_t ? 'settled' : 'open');
    sumsToOne(f.ia2.p_long, f.ia2.p_short, f.ia2.p_flat);
    sumsToOne(f.ia3.p_long, f.ia3.p_short, f.ia3.p_flat);
    expect(f.ia3.direction).toBe(f.ia3.p_long >= f.ia3.p_short ? 'long' : 'short');
    expect(f.ia3.label).toBe(f.ia3.direction);
    expect(Number.isInteger(f.ia3.policy_version)).toBe(true);
    const c = f.ia2.predicted_change_pct;
    expect(f.ia2.label_raw).toBe(c > 0.05 ? 'sube' : c < -0.05 ? 'baja' : 'estable');
    for (const s of [f.ia1.score, f.ia1.rsi_score, f.ia1.ema_score]) expect(Math.abs(s)).toBeLessThanOrEqual(1);
    expect(f.target_price / f.anchor_price - 1).toBeCloseTo(c / 100, 4);
  }
  expect(body.price.t).toBeLessThanOrEqual(NOW_S - delayMin * 60);
  expect(body.price.t).toBeGreaterThan(NOW_S - delayMin * 60 - 60);
}

describe('discovery', () => {
  it('answers with and without the trailing slash', async () => {
    for (const url of [api, api.slice(0, -1)]) {
      const r = await call(url);
      expect(r.status).toBe(200);
      LooseDocumentSchema.parse(r.body);
      expect(r.body.version).toBe('1.1.0');
      expect(r.body.routes.map((x: any) => x.path)).toContain('/api/agent/v1/verify.php');
      expect(r.body.mcp.endpoint).toMatch(/^https:/);
      expect(r.body.meta.tier).toBe('demo');
    }
  });

  it('answers unknown paths with a 404 problem', async () => {
    expectProblem(await call(`${api}nope.php`), 404);
    expectProblem(await call(`${server.url}/elsewhere`), 404);
    // A doubled slash is a client bug worth catching, not something to paper over.
    expectProblem(await call(`${server.url}//api/agent/v1/demo.php`), 404);
  });

  it('answers a wrong method with 405 and Allow', async () => {
    const r = await call(`${api}demo.php`, { method: 'POST' });
    expectProblem(r, 405);
    expect(r.headers.get('allow')).toBe('GET');
  });
});

describe('demo.php', () => {
  it('serves all 22 timeframes in horizon order, 60 minutes late', async () => {
    const r = await call(`${api}demo.php`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/json');
    expect(r.body.symbol).toBe('BTC/USD');
    expect(r.body.demo).toBe(true);
    expect(r.body.meta.tier).toBe('demo');
    expect(typeof r.body.next.free_key).toBe('string');
    expect(r.body.next.quickstart).toMatch(/^https:/);
    checkEnvelope(
      r.body,
      60,
      FORECAST_TIMEFRAMES.map(([tf]) => tf),
    );
    const statuses = new Set(Object.values<any>(r.body.predictions).map((f) => f.status));
    expect(statuses).toEqual(new Set(['open', 'settled']));
  });

  it('accepts each demo symbol and prices it plausibly', async () => {
    const expected: Record<string, [number, number]> = {
      'BTC/USD': [60_000, 150_000],
      'ETH/USD': [2_000, 5_000],
      'EUR/USD': [1, 1.2],
    };
    for (const [symbol, [lo, hi]] of Object.entries(expected)) {
      const r = await call(`${api}demo.php?symbol=${encodeURIComponent(symbol)}`);
      expect(r.status).toBe(200);
      expect(r.body.symbol).toBe(symbol);
      expect(r.body.price.last).toBeGreaterThan(lo);
      expect(r.body.price.last).toBeLessThan(hi);
    }
  });

  it('rejects symbols off the enum, lower case included, with 400', async () => {
    for (const s of ['btc/usd', 'SOL/USD', 'BTCUSD', ''])
      expectProblem(await call(`${api}demo.php?symbol=${encodeURIComponent(s)}`), 400);
  });
});

describe('register.php', () => {
  const post = (body: string, type = 'application/json') =>
    call(`${api}register.php`, { method: 'POST', headers: { 'content-type': type }, body });

  it('issues a working free key once per e-mail', async () => {
    const r = await post(JSON.stringify({ email: 'ada@example.com' }));
    expect(r.status).toBe(201);
    RegistrationSchema.parse(r.body);
    expect(r.body.api_key).toMatch(/^mfa_ag_[0-9a-f]{40}$/);
    expect(r.body.api_key).toMatch(REST_KEY_PATTERN);
    expect(r.body.tier).toBe('free');
    expect(r.body.meta.tier).toBe('free');
    expect(r.body.important).toMatch(/once/);
    expect(r.body.endpoints.predictions).toContain(server.url);

    const p = await call(`${api}predictions.php?symbol=SOL/USD`, { headers: bearer(r.body.api_key) });
    expect(p.status).toBe(200);

    const again = await post(JSON.stringify({ email: 'ADA@example.com' }));
    expectProblem(again, 409);
  });

  it('rejects bad bodies with 400', async () => {
    const cases = [
      JSON.stringify({}),
      JSON.stringify({ email: 'not-an-email' }),
      JSON.stringify({ email: 'a@b.co', name: 'extra' }),
      JSON.stringify({ email: 42 }),
      JSON.stringify(['a@b.co']),
      JSON.stringify({ email: `${'x'.repeat(180)}@example.com` }),
      'email=a@b.co',
      '',
    ];
    for (const body of cases) expectProblem(await post(body), 400);
    expectProblem(await post(JSON.stringify({ email: 'a@b.co' }), 'text/plain'), 400);
  });

  it('accepts an e-mail of exactly 190 characters', async () => {
    const email = `${'y'.repeat(190 - '@example.com'.length)}@example.com`;
    expect(email).toHaveLength(190);
    expect((await post(JSON.stringify({ email }))).status).toBe(201);
  });
});

describe('predictions.php', () => {
  it('serves the free tier, 15 minutes late, per available timeframe', async () => {
    const r = await call(`${api}predictions.php?symbol=BTC/USD`, { headers: bearer(server.testKey) });
    expect(r.status).toBe(200);
    expect(r.body.meta.tier).toBe('free');
    expect(r.body.demo).toBeUndefined();
    expect(r.body.next).toBeUndefined();
    expect(r.body.candles).toBeUndefined();
    checkEnvelope(
      r.body,
      15,
      FORECAST_TIMEFRAMES.map(([tf]) => tf),
    );

    const spx = await call(`${api}predictions.php?symbol=SPX/USD`, { headers: bearer(server.testKey) });
    checkEnvelope(spx.body, 15, ['15min', '30min', '1h', '2h', '3h', '6h']);
  });

  it('adds 96 OHLCV candles for 15min and 1h with candles=1', async () => {
    const r = await call(`${api}predictions.php?symbol=EUR/USD&candles=1`, { headers: bearer(server.testKey) });
    expect(r.status).toBe(200);
    ForecastEnvelopeSchema.parse(r.body);
    expect(Object.keys(r.body.candles)).toEqual([...CANDLE_TIMEFRAMES]);
    for (const tf of CANDLE_TIMEFRAMES) {
      const candles: any[] = r.body.candles[tf];
      const len = tfSeconds(tf);
      expect(candles).toHaveLength(96);
      candles.forEach((c, i) => {
        expect(Object.keys(c).sort()).toEqual(['c', 'h', 'l', 'o', 't', 'v']);
        expect(c.h).toBeGreaterThanOrEqual(Math.max(c.o, c.c));
        expect(c.l).toBeLessThanOrEqual(Math.min(c.o, c.c));
        expect(c.v).toBeGreaterThan(0);
        if (i > 0) expect(c.t - candles[i - 1].t).toBe(len);
      });
      const last = candles[95];
      const delayed = NOW_S - 15 * 60;
      expect(last.t + len).toBeLessThanOrEqual(delayed);
      expect(last.t + 2 * len).toBeGreaterThan(delayed);
    }
  });

  it('needs a known REST key: 401 otherwise', async () => {
    const url = `${api}predictions.php?symbol=BTC/USD`;
    expectProblem(await call(url), 401);
    expectProblem(await call(url, { headers: bearer(`mfa_ag_${'0'.repeat(40)}`) }), 401);
    expectProblem(await call(url, { headers: { authorization: server.testKey } }), 401);
    // Gateway keys never serve the REST endpoints.
    const r = await call(url, { headers: bearer(server.limitedGatewayKey) });
    expectProblem(r, 401);
    expect(r.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('checks the query: 400 for a missing symbol or bad candles, 404 for an unknown symbol', async () => {
    const h = { headers: bearer(server.testKey) };
    expectProblem(await call(`${api}predictions.php`, h), 400);
    expectProblem(await call(`${api}predictions.php?symbol=`, h), 400);
    for (const c of ['0', 'true', '2', ''])
      expectProblem(await call(`${api}predictions.php?symbol=BTC/USD&candles=${c}`, h), 400);
    for (const s of ['DOGE/USD', 'btc/usd', 'BTCUSD']) {
      const r = await call(`${api}predictions.php?symbol=${encodeURIComponent(s)}`, h);
      expectProblem(r, 404);
      expect(r.body.detail).toMatch(/unknown symbol/);
    }
  });
});

describe('symbols.php', () => {
  it('lists the symbols with the latest forecast time per timeframe', async () => {
    const r = await call(`${api}symbols.php`, { headers: bearer(server.testKey) });
    expect(r.status).toBe(200);
    SymbolsListSchema.parse(r.body);
    expect(r.body.count).toBe(r.body.symbols.length);
    expect(r.body.count).toBe(8);
    const sizes = new Set(r.body.symbols.map((s: any) => Object.keys(s.timeframes).length));
    expect(sizes.size).toBeGreaterThan(1);
    const btc = r.body.symbols.find((s: any) => s.symbol === 'BTC/USD');
    const p = await call(`${api}predictions.php?symbol=BTC/USD`, { headers: bearer(server.testKey) });
    for (const [tf, f] of Object.entries<any>(p.body.predictions)) expect(btc.timeframes[tf]).toBe(f.ts);
  });

  it('needs a key', async () => {
    expectProblem(await call(`${api}symbols.php`), 401);
  });
});
