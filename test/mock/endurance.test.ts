// The emulator runs for days: its request log is a ring of the last N, and the draws it
// remembers to go fast are bounded and never change an answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineForecast } from '../../src/mock/forecasts.js';
import { startMock, type MockServer } from '../../src/mock/index.js';
import { rngFor, unit, unitFamily } from '../../src/mock/random.js';
import { SYMBOLS } from '../../src/mock/catalog.js';
import { FIXED_NOW } from '../helpers/emulator.js';

describe('the request log', () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMock({ seed: 'ring', now: () => FIXED_NOW, requestLog: 5 });
  });
  afterAll(() => server.close());

  it('keeps only the last N requests, oldest first, and says its limit', async () => {
    for (let i = 1; i <= 12; i++) await (await fetch(`${server.url}/api/agent/v1/verify.php?id=${i}`)).text();
    expect(server.requests.map((r) => r.query.id)).toEqual(['8', '9', '10', '11', '12']);
    const listed = (await (await fetch(`${server.url}/__mock/requests`)).json()) as { count: number; limit: number };
    expect(listed).toMatchObject({ count: 5, limit: 5 });
  });
});

describe('remembered draws', () => {
  it('are the draws of the plain functions, past the bound of what is remembered too', () => {
    const family = unitFamily('seed', 'path', 'BTC', 2);
    for (let round = 0; round < 2; round++) {
      for (let k = 0; k < 5000; k += 1) expect(family(k)).toBe(unit('seed', 'path', 'BTC', 2, k));
    }
    expect(unit('a', 1, 'é')).toBe(rngFor('a', 1, 'é')());
  });

  it('give a forecast whose age and status follow the clock while its numbers stay put', () => {
    const info = SYMBOLS[0]!;
    const ts = 1_795_345_200;
    const early = engineForecast('s', info, '1h', 360, ts, ts + 60);
    const late = engineForecast('s', info, '1h', 360, ts, ts + 360 * 60);
    expect(early).toMatchObject({ age_s: 60, status: 'open' });
    expect(late).toMatchObject({ age_s: 360 * 60, status: 'settled' });
    const { age_s: _a, status: _s, ...earlyNumbers } = early;
    const { age_s: _b, status: _t, ...lateNumbers } = late;
    expect(earlyNumbers).toEqual(lateNumbers);
    expect(Object.keys(early)).toEqual(Object.keys(late));
    expect(Object.keys(early).slice(0, 6)).toEqual(['tf', 'ts', 'horizon_min', 'target_t', 'age_s', 'status']);
  });
});
