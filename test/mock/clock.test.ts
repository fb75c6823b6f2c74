// The emulated clock: where it starts, how fast it runs, how a script moves it, and that every
// body follows it together (forecasts renew, candles and prices agree, the record grows).
import { describe, expect, it } from 'vitest';
import { isoSeconds, wallClockParts } from '../../src/core/instant.js';
import { emulatedClock, parseInstant } from '../../src/mock/clock.js';
import { startMock, type MockServer } from '../../src/mock/index.js';
import { useEmulator } from '../helpers/emulator.js';
import { bearer, call, REST } from './helpers.js';

describe('emulatedClock', () => {
  it('starts where it is told and runs `speed` times real time', () => {
    let real = 1_000_000;
    const clock = emulatedClock({ start: Date.UTC(2026, 0, 5, 9), speed: 60 }, () => real);
    expect(clock.now()).toBe(Date.UTC(2026, 0, 5, 9));
    real += 1500;
    expect(clock.now()).toBe(Date.UTC(2026, 0, 5, 9) + 90_000);
  });

  it('defaults to the real now at real time, and 0 stops it', () => {
    let real = 5_000;
    const live = emulatedClock({}, () => real);
    const stopped = emulatedClock({ speed: 0 }, () => real);
    real += 2_000;
    expect(live.now()).toBe(7_000);
    expect(stopped.now()).toBe(5_000);
  });

  it('advance jumps; set keeps the time reached when only the speed changes', () => {
    let real = 0;
    const clock = emulatedClock({ start: 10_000, speed: 2 }, () => real);
    real = 1_000;
    expect(clock.now()).toBe(12_000);
    clock.advance(3_600_000);
    expect(clock.now()).toBe(3_612_000);
    clock.set({ speed: 10 });
    expect(clock.now()).toBe(3_612_000);
    real = 1_100;
    expect(clock.now()).toBe(3_613_000);
    clock.set({ start: 0 });
    expect(clock.now()).toBe(0);
  });

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY, 86_401])('refuses the speed %s', (speed) => {
    expect(() => emulatedClock({ speed })).toThrow(/speed must be a number from 0 to 86400/);
  });
});

describe('parseInstant', () => {
  it.each([
    ['2026-11-24', Date.UTC(2026, 10, 24)],
    ['2026-11-24T19:00Z', Date.UTC(2026, 10, 24, 19)],
    ['2026-11-24T19:00', Date.UTC(2026, 10, 24, 19)],
    ['2026-11-24 19:00:30', Date.UTC(2026, 10, 24, 19, 0, 30)],
    ['2026-11-24T19:00:00+01:00', Date.UTC(2026, 10, 24, 18)],
    ['2026-11-24T19:00:00-0530', Date.UTC(2026, 10, 25, 0, 30)],
    ['1764010800', 1_764_010_800_000],
  ])('%s', (text, ms) => {
    expect(parseInstant(text)).toBe(ms);
  });

  it.each(['', 'now', '2026-02-30', '2026-13-01', '24/11/2026', '2026-11-24T25:00Z', '12'])('refuses %j', (text) => {
    expect(parseInstant(text)).toBeUndefined();
  });
});

describe('isoSeconds, the one epoch-to-ISO formatter (core/instant.ts)', () => {
  it.each([
    [0, '1970-01-01T00:00:00Z'],
    [1_764_010_800, '2025-11-24T19:00:00Z'],
    [1_795_348_800, '2026-11-22T12:00:00Z'],
  ])('%s is %s, to the second, no milliseconds', (epochS, iso) => {
    expect(isoSeconds(epochS)).toBe(iso);
  });

  it('reads back as the same second', () => {
    expect(parseInstant(isoSeconds(1_795_348_801))).toBe(1_795_348_801_000);
  });
});

describe('wallClockParts, the one cached Intl wall clock (core/instant.ts)', () => {
  const fields: Intl.DateTimeFormatOptions = { hour: '2-digit', hourCycle: 'h23', timeZoneName: 'longOffset' };

  it("follows the zone's daylight saving, from the time zone database", () => {
    const summer = wallClockParts(Date.UTC(2026, 6, 1, 12) / 1000, 'Europe/Madrid', fields);
    const winter = wallClockParts(Date.UTC(2026, 0, 15, 12) / 1000, 'Europe/Madrid', fields);
    expect([summer.hour, summer.timeZoneName]).toEqual(['14', 'GMT+02:00']);
    expect([winter.hour, winter.timeZoneName]).toEqual(['13', 'GMT+01:00']);
  });

  it('keeps zones apart under one set of fields', () => {
    const t = Date.UTC(2026, 0, 15, 12) / 1000;
    expect(wallClockParts(t, 'America/New_York', fields).hour).toBe('07');
    expect(wallClockParts(t, 'Asia/Kolkata', fields).timeZoneName).toBe('GMT+05:30');
    expect(wallClockParts(t, 'Europe/Madrid', fields).hour).toBe('13');
  });
});

describe('the admin route /__mock/clock', () => {
  const emu = useEmulator();
  const clockUrl = () => `${emu.server.url}/__mock/clock`;
  const post = (body: string) => call(clockUrl(), { method: 'POST', body });

  it('GET tells the emulated time and speed; POST advance moves it, and the bodies with it', async () => {
    const before = await call(clockUrl());
    expect(before.body).toEqual({ ok: true, now: '2026-11-22T12:00:00.000Z', t: 1_795_348_800, speed: 1 });
    const demo1 = (await call(`${emu.server.url}${REST}demo.php`)).body;
    const moved = await post('{"advance": 3600}');
    expect(moved.body.t).toBe(1_795_352_400);
    const demo2 = (await call(`${emu.server.url}${REST}demo.php`)).body;
    expect(demo2.meta.server_t - demo1.meta.server_t).toBe(3600);
    // An hour later the 1h forecast is the next one, and the price is an hour on.
    expect(demo2.predictions['1h'].ts - demo1.predictions['1h'].ts).toBe(3600);
    expect(demo2.price.t - demo1.price.t).toBe(3600);
    await post('{"set": "2026-11-22T12:00:00Z"}');
  });

  it('refuses what it cannot do with 400 and leaves the clock as it was', async () => {
    const at = (await call(clockUrl())).body.t;
    for (const body of [
      '',
      '[]',
      '{"advance": "1h"}',
      '{"set": "tomorrow"}',
      '{"speed": -1}',
      '{"jump": 1}',
      '{"set": 1e15}',
      '{"set": -5}',
      '{"advance": 1e15}',
      '{"set": 0, "advance": -1}',
    ]) {
      const r = await post(body);
      expect(r.status, body).toBe(400);
      expect(r.body.ok).toBe(false);
    }
    expect((await call(clockUrl())).body.t).toBe(at);
    expect((await call(clockUrl(), { method: 'DELETE' })).status).toBe(405);
  });
});

describe('every body follows one clock', () => {
  async function withClock<T>(start: string, f: (s: MockServer) => Promise<T>): Promise<T> {
    const server = await startMock({ seed: 'clock', clock: { start: parseInstant(start), speed: 0 } });
    try {
      return await f(server);
    } finally {
      await server.close();
    }
  }

  it('a settled forecast agrees with the candles: its target time has a close, and the record only grows', async () => {
    await withClock('2026-03-02T10:00Z', async (s) => {
      const api = s.url + REST;
      const first = (await call(`${api}predictions.php?symbol=BTC/USD&candles=1`, { headers: bearer(s.testKey) })).body;
      const forecast = first.predictions['1h'];
      expect(forecast.status).toBe('open');
      const record1 = (await call(`${api}track-record.php`)).body;
      // Past the forecast's target time (and the 15-minute delay) the candles hold its close.
      s.clock.advance((forecast.target_t - first.meta.server_t + 3 * 3600) * 1000);
      const later = (await call(`${api}predictions.php?symbol=BTC/USD&candles=1`, { headers: bearer(s.testKey) })).body;
      const candles15: Array<{ t: number; c: number }> = later.candles['15min'];
      const closing = candles15.find((c) => c.t + 900 === forecast.target_t);
      expect(closing, 'a 15min candle closes at target_t').toBeDefined();
      // One price path: when the delayed price is the one at target_t, it is that candle's close.
      s.clock.set({ start: (forecast.target_t + 900) * 1000 });
      const atTarget = (await call(`${api}predictions.php?symbol=BTC/USD`, { headers: bearer(s.testKey) })).body;
      expect(atTarget.price.t).toBe(forecast.target_t);
      expect(atTarget.price.last).toBe(closing!.c);
      s.clock.advance(3 * 3600 * 1000);
      const record2 = (await call(`${api}track-record.php`)).body;
      for (const [i, r] of record2.results.entries()) {
        expect(r.n_settled).toBeGreaterThanOrEqual(record1.results[i].n_settled);
      }
      expect(record2.generated_at > record1.generated_at).toBe(true);
    });
  });

  it('a stopped clock gives the same bytes however much real time passes; a running one does not', async () => {
    let real = Date.UTC(2026, 5, 1);
    const start = parseInstant('2026-01-05T09:00Z');
    const stopped = await startMock({ seed: 'clock', now: () => real, clock: { start, speed: 0 } });
    const fast = await startMock({ seed: 'clock', now: () => real, clock: { start, speed: 60 } });
    try {
      const demo = (s: MockServer) => call(`${s.url}${REST}demo.php?symbol=ETH/USD`);
      const [a, f1] = [await demo(stopped), await demo(fast)];
      expect(f1.text).toBe(a.text);
      real += 10 * 60_000;
      const [b, f2] = [await demo(stopped), await demo(fast)];
      expect(b.text).toBe(a.text);
      expect(a.body.meta.server_t).toBe(Date.UTC(2026, 0, 5, 9) / 1000);
      // Ten real minutes at 60x are ten emulated hours.
      expect(f2.body.meta.server_t - f1.body.meta.server_t).toBe(36_000);
    } finally {
      await Promise.all([stopped.close(), fast.close()]);
    }
  });
});

describe('fcast mock --clock/--speed', () => {
  const emu = useEmulator();
  it.each([
    [
      ['--clock', 'yesterday'],
      /--clock must be an ISO 8601 time like 2026-11-24T19:00Z, or epoch seconds; got 'yesterday'/,
    ],
    [['--speed', 'fast'], /--speed must be a number from 0 to 86400, got 'fast'/],
    [['--speed', '-2'], /--speed must be a number from 0 to 86400/],
  ])('%j is exit 2 before anything listens', async (flags, message) => {
    const r = await emu.run(['mock', '--port', '0', ...flags]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toContain("see 'fcast mock --help'");
    expect(r.stdout).toBe('');
  });
});

describe('the record and the protocol', () => {
  it('before the protocol starts there is nothing settled in its cohort; from its start the record grows', async () => {
    const server = await startMock({ seed: 'clock', clock: { start: parseInstant('2024-06-01'), speed: 0 } });
    try {
      const before = (await call(`${server.url}${REST}track-record.php`)).body;
      expect(before.protocol.starts_at_utc).toBe('2025-01-06T00:00:00Z');
      for (const r of before.results) {
        expect(r.n_settled, r.timeframe).toBe(0);
        expect(r.resolved_win_rate, r.timeframe).toBeNull();
        expect(r.maturity).toBe('insufficient_sample');
      }
      server.clock.set({ start: parseInstant('2025-03-01') });
      const after = (await call(`${server.url}${REST}track-record.php`)).body;
      expect(after.results.find((r: { timeframe: string }) => r.timeframe === '1min').n_settled).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });
});
