import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayEnvelopeSchema } from '../../src/schema/bodies.js';
import { GATEWAY_COMMANDS } from '../../src/core/domain.js';
import { startMock, type MockServer } from '../../src/mock/index.js';
import { call, command, fixedNow, GATEWAY, NOW_S } from './helpers.js';

let server: MockServer;
beforeAll(async () => {
  server = await startMock({
    now: fixedNow,
    seed: 'gateway-tests',
    gatewayLimits: { perMinute: 100_000, perDay: 100_000 },
  });
});
afterAll(() => server.close());

async function ok(body: unknown, key?: string): Promise<any> {
  const r = await command(server, body, key);
  expect(r.status, r.text).toBe(200);
  GatewayEnvelopeSchema.parse(r.body);
  expect(r.body.ok).toBe(true);
  expect(r.body.error).toBeNull();
  expect(Object.keys(r.body.meta).sort()).toEqual(['daily_quota', 'generated_at', 'rate_limit', 'request_id']);
  expect(Date.parse(r.body.meta.generated_at)).toBe(NOW_S * 1000);
  return r.body.data;
}

async function fails(
  status: number,
  code: string,
  body: unknown,
  key?: string | null,
  init?: RequestInit,
): Promise<any> {
  const r = init ? await call(server.url + GATEWAY, init) : await command(server, body, key);
  expect(r.status, r.text).toBe(status);
  expect(r.headers.get('content-type')).toBe('application/json');
  GatewayEnvelopeSchema.parse(r.body);
  expect(r.body.ok).toBe(false);
  expect(r.body.data).toBeNull();
  expect(r.body.error.code).toBe(code);
  expect(typeof r.body.error.message).toBe('string');
  expect(Number.isInteger(r.body.error.retry_after)).toBe(true);
  expect(Object.keys(r.body.meta)).toEqual(['request_id']);
  return r.body.error;
}

describe('gateway commands', () => {
  it('snapshot lists every symbol with last and change', async () => {
    const data = await ok({ command: 'snapshot', args: [] });
    expect(data.symbols).toHaveLength(8);
    for (const s of data.symbols) {
      expect(s.symbol).toMatch(/^[A-Z0-9]+$/);
      expect(typeof s.last).toBe('number');
      expect(typeof s.change24h_pct).toBe('number');
    }
    // args may be left out when the command takes none.
    expect((await ok({ command: 'snapshot' })).symbols).toHaveLength(8);
  });

  it('search matches names and aliases, optionally by asset class', async () => {
    const data = await ok({ command: 'search', args: ['bitcoin'] });
    expect(data.matches.map((m: any) => m.symbol)).toEqual(['BTCUSD']);
    expect(data.matches[0].status).toBe('active');
    const fx = await ok({ command: 'search', args: ['usd', 'fx'] });
    expect(fx.matches.map((m: any) => m.symbol).sort()).toEqual(['EURUSD', 'GBPUSD']);
  });

  it('indicators and analyze agree on the same indicators', async () => {
    const ind = await ok({ command: 'indicators', args: ['BTCUSD', '1h'] });
    expect(ind.indicators.rsi_14).toBeGreaterThanOrEqual(0);
    expect(ind.indicators.rsi_14).toBeLessThanOrEqual(100);
    for (const k of ['ema_20', 'ema_50', 'atr_14']) expect(ind.indicators[k]).toBeGreaterThan(0);
    expect(ind.indicators.macd).toHaveProperty('histogram');
    const an = await ok({ command: 'analyze', args: ['BTCUSD', '1h'] });
    expect(['bullish', 'bearish', 'neutral']).toContain(an.bias);
    expect(an.confidence).toBeGreaterThanOrEqual(0);
    expect(an.confidence).toBeLessThanOrEqual(1);
    expect(an.drivers.length).toBeGreaterThan(0);
    for (const d of an.drivers) expect(typeof d).toBe('string');
    expect(an.indicators).toEqual(ind.indicators);
  });

  it('opportunities returns `limit` ranked items, capped at 50', async () => {
    const data = await ok({ command: 'opportunities', args: [5] });
    expect(data.items).toHaveLength(5);
    data.items.forEach((item: any, i: number) => {
      expect(item.rank).toBe(i + 1);
      expect(['long', 'short']).toContain(item.direction);
      expect(item.confidence).toBeGreaterThanOrEqual(0);
      expect(item.confidence).toBeLessThanOrEqual(1);
      if (i > 0) expect(item.score).toBeLessThanOrEqual(data.items[i - 1].score);
    });
    expect((await ok({ command: 'opportunities', args: [500] })).items).toHaveLength(50);
  });

  it('macro has rates, indices and fx', async () => {
    const data = await ok({ command: 'macro', args: [] });
    for (const k of ['rates', 'indices', 'fx']) expect(data[k].length).toBeGreaterThan(0);
  });

  it('calendar gives the market state in the requested zone, UTC by default', async () => {
    const aapl = await ok({ command: 'calendar', args: ['AAPLUSD', 'Europe/Madrid'] });
    expect(aapl.timezone).toBe('Europe/Madrid');
    // 14:07 UTC on a Monday in June is 10:07 in New York: open, closing at 16:00 New York = 22:00 Madrid.
    expect(aapl.market_state).toBe('open');
    expect(aapl.next_close).toBe('2025-06-02T22:00:00+02:00');
    expect(aapl.sessions.length).toBeGreaterThan(0);
    const eur = await ok({ command: 'calendar', args: ['EURUSD'] });
    expect(eur.timezone).toBe('UTC');
    expect(eur.next_close).toBe('2025-06-06T22:00:00Z');
    const btc = await ok({ command: 'calendar', args: ['BTCUSD'] });
    expect(btc.market_state).toBe('open');
  });

  it('events lists dated events, filtered by kind and symbol', async () => {
    const all = await ok({ command: 'events', args: ['all', null, 14] });
    expect(all.events.length).toBeGreaterThan(0);
    for (const e of all.events) {
      expect(Number.isNaN(Date.parse(e.date))).toBe(false);
      expect(['economic', 'earnings', 'dividends', 'crypto']).toContain(e.kind);
      expect(['low', 'medium', 'high']).toContain(e.impact);
    }
    const crypto = await ok({ command: 'events', args: ['crypto', 'BTCUSD', 14] });
    expect(crypto.events.length).toBeGreaterThan(0);
    for (const e of crypto.events) expect(e).toMatchObject({ kind: 'crypto', symbol: 'BTCUSD' });
    expect((await ok({ command: 'events', args: ['economic'] })).days).toBe(7);
  });

  it('meters usage per key', async () => {
    const fresh = await startMock({ now: fixedNow, seed: 'meter' });
    try {
      const metaOf = async (key: string) => (await command(fresh, { command: 'snapshot' }, key)).body.meta;
      const a1 = await metaOf(fresh.testKey);
      const a2 = await metaOf(fresh.testKey);
      const b1 = await metaOf(fresh.limitedGatewayKey);
      expect(a1.daily_quota.used).toBe(1);
      expect(a2.daily_quota.used).toBe(2);
      expect(a2.daily_quota.remaining).toBe(a2.daily_quota.limit - 2);
      expect(a2.rate_limit.remaining).toBe(a1.rate_limit.remaining - 1);
      expect(b1.daily_quota.used).toBe(1);
      expect(a1.rate_limit.reset_s).toBe(30);
      expect(a1.request_id).not.toBe(a2.request_id);
    } finally {
      await fresh.close();
    }
  });
});

describe('gateway failures', () => {
  it('401 without a key or with an unknown one', async () => {
    await fails(401, 'unauthorized', { command: 'snapshot' }, null);
    await fails(401, 'unauthorized', { command: 'snapshot' }, `mfa_ag_${'1'.repeat(40)}`);
  });

  it('400 invalid_body for bodies that are not a command object', async () => {
    const h = { authorization: `Bearer ${server.testKey}`, 'content-type': 'application/json' };
    for (const body of [
      'not json',
      '[]',
      '"snapshot"',
      '{}',
      '{"command":1}',
      '{"command":"snapshot","args":"BTCUSD"}',
      '{"command":"snapshot","extra":1}',
      '',
    ]) {
      await fails(400, 'invalid_body', undefined, undefined, { method: 'POST', headers: h, body });
    }
  });

  it('400 unknown_command off the allowlist', async () => {
    const err = await fails(400, 'unknown_command', { command: 'trade', args: ['BTCUSD'] });
    for (const c of GATEWAY_COMMANDS) expect(err.message).toContain(c.name);
  });

  it('400 invalid_args for wrong or missing arguments', async () => {
    const cases: unknown[][] = [];
    const bad = (command: string, args: unknown[]) => cases.push([command, args]);
    bad('indicators', ['BTC/USD', '1h']);
    bad('indicators', ['BTCUSD']);
    bad('indicators', ['BTCUSD', '7h']);
    bad('indicators', ['NOPEUSD', '1h']);
    bad('opportunities', ['10']);
    bad('opportunities', [2.5]);
    bad('opportunities', [0]);
    bad('opportunities', []);
    bad('events', ['economic', 'BTCUSD', '7']);
    bad('events', ['weather']);
    bad('events', ['economic', null, 0]);
    bad('calendar', ['EURUSD', 'Mars/Olympus']);
    bad('search', ['']);
    bad('search', ['btc', 'bonds']);
    bad('snapshot', ['extra']);
    for (const [c, args] of cases) {
      const err = await fails(400, 'invalid_args', { command: c, args });
      expect(err.retry_after).toBe(0);
    }
    const slash = await fails(400, 'invalid_args', { command: 'analyze', args: ['ETH/USD', '4h'] });
    expect(slash.message).toContain('ETHUSD');
  });

  it('403 scope_required naming the scope for a key without it', async () => {
    const key = server.limitedGatewayKey;
    expect(await ok({ command: 'snapshot' }, key)).toBeTruthy();
    expect(await ok({ command: 'calendar', args: ['BTCUSD'] }, key)).toBeTruthy();
    const analyze = await fails(403, 'scope_required', { command: 'analyze', args: ['BTCUSD', '1h'] }, key);
    expect(analyze.message).toContain('predictions.read');
    const macro = await fails(403, 'scope_required', { command: 'macro' }, key);
    expect(macro.message).toContain('macro.read');
  });

  it('405 for a method other than POST', async () => {
    await fails(405, 'method_not_allowed', undefined, undefined, {
      method: 'GET',
      headers: { authorization: `Bearer ${server.testKey}` },
    });
  });

  it('records the body it received, for tests of the client', async () => {
    await command(server, { command: 'opportunities', args: [3] });
    const last = server.requests.at(-1)!;
    expect(last).toMatchObject({ method: 'POST', path: GATEWAY, body: { command: 'opportunities', args: [3] } });
    expect(last.headers.authorization).toBe(`Bearer ${server.testKey}`);
  });
});

describe('rate limit and daily quota', () => {
  it('answers 429 with retry_after once a key has used its minute or its day, and counts only what it served', async () => {
    const limited = await startMock({ now: fixedNow, seed: 'limits', gatewayLimits: { perMinute: 2, perDay: 3 } });
    try {
      const send = () => command(limited, { command: 'snapshot', args: [] }, limited.testKey);
      const first = await send();
      expect(first.body.meta.rate_limit).toMatchObject({ limit: 2, remaining: 1 });
      await send();
      const third = await send();
      expect(third.status).toBe(429);
      expect(third.body.error).toMatchObject({ code: 'rate_limited', retry_after: 60 - (NOW_S % 60) });

      const daily = await startMock({ now: fixedNow, seed: 'quota', gatewayLimits: { perMinute: 10, perDay: 1 } });
      try {
        await command(daily, { command: 'snapshot', args: [] }, daily.testKey);
        const over = await command(daily, { command: 'snapshot', args: [] }, daily.testKey);
        expect(over.status).toBe(429);
        expect(over.body.error).toMatchObject({ code: 'quota_exceeded', retry_after: 86_400 - (NOW_S % 86_400) });
      } finally {
        await daily.close();
      }
    } finally {
      await limited.close();
    }
  });
});
