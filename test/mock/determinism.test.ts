import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startMock, type MockServer } from '../../src/mock/index.js';
import { bearer, call, command, fixedNow, NOW_MS, REST } from './helpers.js';

async function bodies(s: MockServer): Promise<string[]> {
  const api = s.url + REST;
  const key = bearer(s.testKey);
  const out: string[] = [];
  for (const path of [
    'demo.php?symbol=ETH/USD',
    'track-record.php?symbol=SOL/USD',
    'accuracy.php?tf=1h',
    'verify.php?id=4242',
    '',
  ]) {
    out.push((await call(api + path)).text);
  }
  out.push((await call(`${api}predictions.php?symbol=XAU/USD&candles=1`, { headers: key })).text);
  out.push((await call(`${api}symbols.php`, { headers: key })).text);
  for (const body of [
    { command: 'snapshot' },
    { command: 'analyze', args: ['SOLUSD', '1h'] },
    { command: 'opportunities', args: [10] },
    { command: 'events', args: ['all'] },
  ]) {
    out.push((await command(s, body)).text);
  }
  return out;
}

async function withServer<T>(opts: Parameters<typeof startMock>[0], f: (s: MockServer) => Promise<T>): Promise<T> {
  const s = await startMock(opts);
  try {
    return await f(s);
  } finally {
    await s.close();
  }
}

describe('determinism', () => {
  it('gives the same bodies for the same seed and clock, on any port', async () => {
    const a = await withServer({ seed: 'same', now: fixedNow }, bodies);
    const b = await withServer({ seed: 'same', now: fixedNow }, bodies);
    expect(b).toEqual(a);
  });

  it('gives other numbers for another seed', async () => {
    const a = await withServer({ seed: 'one', now: fixedNow }, (s) => call(`${s.url}${REST}demo.php`));
    const b = await withServer({ seed: 'two', now: fixedNow }, (s) => call(`${s.url}${REST}demo.php`));
    expect(b.body.price.last).not.toBe(a.body.price.last);
    expect(b.body.meta).toEqual(a.body.meta);
  });

  it('derives the test key from the seed', async () => {
    await withServer({ seed: 'k' }, async (s) => {
      expect(s.testKey).toBe(`mfa_ag_${createHash('sha1').update('k').digest('hex')}`);
      expect(s.limitedGatewayKey).not.toBe(s.testKey);
      expect(s.url).toBe(`http://127.0.0.1:${s.port}`);
    });
  });

  it('moves forecasts forward with the clock, and keeps a forecast the same once issued', async () => {
    let now = NOW_MS;
    await withServer({ seed: 'clock', now: () => now }, async (s) => {
      const first = (await call(`${s.url}${REST}demo.php`)).body;
      now += 60_000;
      const second = (await call(`${s.url}${REST}demo.php`)).body;
      expect(second.meta.server_t).toBe(first.meta.server_t + 60);
      expect(second.predictions['1min'].ts).toBe(first.predictions['1min'].ts + 60);
      // The 6h forecast is the same one, a minute older.
      const [a, b] = [first.predictions['6h'], second.predictions['6h']];
      expect(b.age_s).toBe(a.age_s + 60);
      expect({ ...b, age_s: 0 }).toEqual({ ...a, age_s: 0 });
    });
  });
});
