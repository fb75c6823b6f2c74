// The settlement rule (docs/journal.md), step by step, on hand-made candles and observations.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ForecastEnvelope } from '../../src/schema/bodies.js';
import { recordShown } from '../../src/journal/hook.js';
import { findSymbol } from '../../src/mock/catalog.js';
import { forecastEnvelope } from '../../src/mock/forecasts.js';
import { tempDir } from '../helpers/cli.js';
import type { CandlesEvidence } from '../../src/api/candles.js';
import { readCandles } from '../../src/api/candles.js';
import type { Settleable } from '../../src/journal/record.js';
import { responseEvidence, settleForecast, type Observation, type SymbolEvidence } from '../../src/journal/settle.js';

const T = 1_772_452_800; // 2026-03-02 12:00 UTC, on the 15-minute grid
const forecast = (over: Partial<Settleable> = {}): Settleable => ({
  origin: 'https://api.example.com',
  symbol: 'BTC/USD',
  tf: '15min',
  ts: T - 5400,
  target_t: T,
  anchor_price: 100,
  direction: 'long',
  p_long: 0.6,
  p_short: 0.3,
  p_flat: 0.1,
  ...over,
});

/** 15min candles opening every 900 s from `from` to `to` (open times), closing at 100 + k. */
function candles15(from: number, to: number, close = (t: number) => 100 + (t - from) / 900): CandlesEvidence {
  const list = [];
  for (let t = from; t <= to; t += 900) list.push({ t, c: close(t + 900) });
  return { usable: true, series: [{ tf: '15min', seconds: 900, candles: list }] };
}

const evidence = (over: Partial<SymbolEvidence> = {}): SymbolEvidence => ({
  serverT: T + 7200,
  candles: candles15(T - 86_400, T + 3600),
  observations: [],
  dataUntil: T + 4500,
  ...over,
});

const obs = (...pairs: Array<[number, number]>): Observation[] => pairs.map(([t, last]) => ({ t, last }));

describe('settleForecast', () => {
  it('1. is not due while target_t is ahead of the server’s clock (whatever this machine’s clock says)', () => {
    expect(settleForecast(forecast(), evidence({ serverT: T - 1 }), 0.01, 0)).toEqual({
      status: 'open',
      why: 'not due',
    });
  });

  it('2. takes the close of the candle that closes at target_t', () => {
    const v = settleForecast(forecast(), evidence(), 0.01, 5);
    expect(v.status).toBe('settled');
    if (v.status !== 'settled') return;
    // The candle opening at T − 900 closes at T: close = 100 + (T − (T − 86400)) / 900 = 196.
    expect(v.record).toMatchObject({ settle_price: 196, settle_t: T, settle_source: 'candles', settled_at: 5 });
    expect(v.record.return_pct).toBe((196 / 100 - 1) * 100);
    expect(v.record.outcome).toBe('win');
  });

  it('2. a 1h candle closing at target_t serves too; so does a price observed at target_t exactly', () => {
    const hourly: CandlesEvidence = {
      usable: true,
      series: [{ tf: '1h', seconds: 3600, candles: [{ t: T - 3600, c: 99 }] }],
    };
    const v = settleForecast(forecast({ direction: 'short' }), evidence({ candles: hourly, dataUntil: T }), 0.01, 0);
    expect(v.status === 'settled' && v.record.settle_price).toBe(99);
    expect(v.status === 'settled' && v.record.outcome).toBe('win');
    const off = T + 60; // off the 15-minute grid
    const w = settleForecast(forecast({ target_t: off }), evidence({ observations: obs([off, 101]) }), 0.01, 0);
    expect(w.status === 'settled' && w.record).toMatchObject({
      settle_price: 101,
      settle_t: off,
      settle_source: 'price',
    });
  });

  it('3. waits while the candles do not reach target_t yet, even with a later observation at hand', () => {
    const v = settleForecast(
      forecast(),
      evidence({ candles: candles15(T - 86_400, T - 1800), observations: obs([T + 60, 105]) }),
      0.01,
      0,
    );
    expect(v).toEqual({ status: 'open', why: 'waiting for data' });
  });

  it('4. off the candles’ grid: the earliest observation after target_t, at most 900 s after; never one before', () => {
    const off = T + 120;
    const v = settleForecast(
      forecast({ target_t: off }),
      evidence({ observations: obs([off - 60, 90], [off + 300, 102], [off + 600, 103]) }),
      0.01,
      0,
    );
    expect(v.status === 'settled' && v.record).toMatchObject({ settle_price: 102, settle_t: off + 300 });
    const late = settleForecast(
      forecast({ target_t: off }),
      evidence({ observations: obs([off + 901, 104]) }),
      0.01,
      0,
    );
    expect(late.status).toBe('unsettleable');
    expect(late.status === 'unsettleable' && late.record.reason).toMatch(/no 15min or 1h candle closes at target_t/);
  });

  it('5. waits while an observation could still come, and is unsettleable once none can', () => {
    const off = T + 120;
    expect(settleForecast(forecast({ target_t: off }), evidence({ dataUntil: off + 900 }), 0.01, 0)).toEqual({
      status: 'open',
      why: 'waiting for data',
    });
    expect(settleForecast(forecast({ target_t: off }), evidence({ dataUntil: off + 901 }), 0.01, 0).status).toBe(
      'unsettleable',
    );
  });

  it('4. never a price from before target_t, not even one second before', () => {
    const off = T + 120;
    const v = settleForecast(forecast({ target_t: off }), evidence({ observations: obs([off - 1, 104]) }), 0.01, 0);
    expect(v.status === 'unsettleable' && v.record.reason).toBe(
      'no 15min or 1h candle closes at target_t and no price observed within 900 s after target_t',
    );
  });

  it('3-4. the candles reach their last close, not their last open: a target inside the last candle looks for a price', () => {
    // The last candle opens at T and closes at T + 900; the target T + 120 is within it.
    const off = T + 120;
    const v = settleForecast(
      forecast({ target_t: off }),
      evidence({ candles: candles15(T - 86_400, T), observations: obs([off + 300, 102]) }),
      0.01,
      0,
    );
    expect(v.status === 'settled' && v.record).toMatchObject({ settle_price: 102, settle_t: off + 300 });
  });

  it('a recording run (scope exact) settles only from a close at target_t, and leaves the rest to journal settle', () => {
    const off = T + 120;
    const later = evidence({ observations: obs([off + 60, 101]) });
    expect(settleForecast(forecast({ target_t: off }), later, 0.01, 0, 'exact')).toEqual({
      status: 'open',
      why: 'waiting for data',
    });
    expect(settleForecast(forecast({ target_t: off }), later, 0.01, 0, 'all').status).toBe('settled');
    const onGrid = settleForecast(forecast(), evidence(), 0.01, 0, 'exact');
    expect(onGrid.status === 'settled' && onGrid.record.settle_source).toBe('candles');
  });

  it('the candles’ reach starts at their first close: a target within the first candle is before it', () => {
    const v = settleForecast(forecast({ target_t: T + 120 }), evidence({ candles: candles15(T, T + 3600) }), 0.01, 0);
    expect(v.status === 'unsettleable' && v.record.reason).toBe(
      "target_t is before the candles' reach and no price observed within 900 s after target_t",
    );
  });

  it('with 15min and 1h candles, the reach starts at the earlier series: a target the 1h candles cover is off their grid', () => {
    const hourly = { tf: '1h', seconds: 3600, candles: [T - 7200, T - 3600, T, T + 3600].map((t) => ({ t, c: 100 })) };
    const quarter = { tf: '15min', seconds: 900, candles: [T + 1800, T + 2700, T + 3600].map((t) => ({ t, c: 100 })) };
    const v = settleForecast(
      forecast({ target_t: T + 120 }),
      evidence({ candles: { usable: true, series: [quarter, hourly] } }),
      0.01,
      0,
    );
    expect(v.status === 'unsettleable' && v.record.reason).toBe(
      'no 15min or 1h candle closes at target_t and no price observed within 900 s after target_t',
    );
  });

  it('a series with no candles counts for nothing, in the reach and in the reason', () => {
    const hourly = { tf: '1h', seconds: 3600, candles: [{ t: T, c: 100 }] };
    const empty = { tf: '15min', seconds: 900, candles: [] };
    const candles: CandlesEvidence = { usable: true, series: [empty, hourly] };
    expect(settleForecast(forecast({ target_t: T + 120 }), evidence({ candles }), 0.01, 0)).toMatchObject({
      status: 'unsettleable',
      record: { reason: "target_t is before the candles' reach and no price observed within 900 s after target_t" },
    });
    // The 1h candle closes at T + 3600: a target after it waits for the candles.
    expect(settleForecast(forecast({ target_t: T + 3700 }), evidence({ candles }), 0.01, 0)).toEqual({
      status: 'open',
      why: 'waiting for data',
    });
  });

  it('before the candles’ reach, with no observation: unsettleable, saying so', () => {
    const v = settleForecast(forecast({ target_t: T - 200_000 }), evidence(), 0.01, 0);
    expect(v.status === 'unsettleable' && v.record.reason).toMatch(/before the candles' reach/);
  });

  it('unusable candles: only observations can settle; else unsettleable, naming why', () => {
    const unusable: CandlesEvidence = { usable: false, why: 'candles.15min.0.c: Required' };
    const v = settleForecast(forecast(), evidence({ candles: unusable, observations: obs([T + 60, 99.5]) }), 0.01, 0);
    expect(v.status === 'settled' && v.record).toMatchObject({
      settle_price: 99.5,
      settle_source: 'price',
      outcome: 'loss',
    });
    const u = settleForecast(forecast(), evidence({ candles: unusable }), 0.01, 0);
    expect(u.status === 'unsettleable' && u.record.reason).toMatch(/candles were unusable \(candles.15min.0.c/);
  });

  it('a forecast without an anchor price, or with one of 0 or below, is unsettleable, never guessed', () => {
    for (const anchor_price of [null, 0, -5]) {
      const v = settleForecast(forecast({ anchor_price }), evidence(), 0.01, 0);
      expect(v.status === 'unsettleable' && v.record.reason).toBe('the forecast has no anchor price');
    }
  });

  it('the outcome: neutral within the flat band (|return| < band), else against the call', () => {
    const at = (close: number, direction = 'long', band = 0.01) => {
      const v = settleForecast(
        forecast({ direction }),
        evidence({
          candles: { usable: true, series: [{ tf: '15min', seconds: 900, candles: [{ t: T - 900, c: close }] }] },
        }),
        band,
        0,
      );
      return v.status === 'settled' ? [v.record.outcome, v.record.move] : v.status;
    };
    expect(at(100.009)).toEqual(['neutral', 'flat']);
    expect(at(100.01)).toEqual(['win', 'up']);
    expect(at(99.99)).toEqual(['loss', 'down']);
    expect(at(99.99, 'short')).toEqual(['win', 'down']);
    expect(at(100.5, 'long', 1)).toEqual(['neutral', 'flat']);
  });
});

describe('responseEvidence: what one response proves', () => {
  const quarter: CandlesEvidence = {
    usable: true,
    series: [{ tf: '15min', seconds: 900, candles: [{ t: T - 900, c: 1 }] }],
  };
  const unusable: CandlesEvidence = { usable: false, why: 'no candles' };

  it('the data reaches the later of the last candle close and the price time', () => {
    const at = (candles: CandlesEvidence, price: Observation | undefined) =>
      responseEvidence({ serverT: T + 60, candles, price }, [], 0).dataUntil;
    expect(at(quarter, { t: T + 60, last: 1 })).toBe(T + 60);
    expect(at(quarter, { t: T - 60, last: 1 })).toBe(T);
    expect(at(quarter, undefined)).toBe(T);
    expect(at(unusable, { t: T + 60, last: 1 })).toBe(T + 60);
    expect(at(unusable, undefined)).toBe(Number.NEGATIVE_INFINITY);
  });

  it('takes the server’s clock, else this machine’s, and keeps the observations given', () => {
    const observations = obs([T, 1]);
    expect(responseEvidence({ serverT: T, candles: quarter, price: undefined }, observations, 5)).toEqual({
      serverT: T,
      candles: quarter,
      observations,
      dataUntil: T,
    });
    expect(responseEvidence({ serverT: undefined, candles: quarter, price: undefined }, [], 5).serverT).toBe(5);
  });
});

describe('readCandles: only the {t, o, h, l, c, v} shape settles anything', () => {
  const candle = { t: T - 900, o: 1, h: 2, l: 0.5, c: 1.5, v: 10 };
  it('reads the emulator’s shape, sorted by open time', async () => {
    const got = await readCandles({ '15min': [{ ...candle, t: T }, candle], '1h': [] });
    expect(got).toEqual({
      usable: true,
      series: [
        {
          tf: '15min',
          seconds: 900,
          candles: [
            { t: T - 900, c: 1.5 },
            { t: T, c: 1.5 },
          ],
        },
      ],
    });
  });

  it.each([
    ['arrays', { '15min': [[T, 1, 2, 0.5, 1.5, 10]] }],
    ['close spelled out', { '15min': [{ time: T, open: 1, high: 2, low: 0.5, close: 1.5, volume: 10 }] }],
    ['a string price', { '15min': [{ ...candle, c: '1.5' }] }],
    ['not an object', [candle]],
    ['no series', { '4h': [candle] }],
  ])('refuses %s', async (_name, body) => {
    const got = await readCandles(body);
    expect(got.usable).toBe(false);
  });
});

describe('what --record settles from its own response (journal/hook.ts)', () => {
  const ORIGIN = 'http://127.0.0.1:8787';
  const SERVER_T = Date.UTC(2026, 2, 2, 10, 7) / 1000;
  const info = findSymbol('BTC/USD')!;
  const body = (serverT: number) =>
    forecastEnvelope('hook', info, 'free', serverT, { candles: true }) as unknown as ForecastEnvelope;

  /** A journal holding the response at SERVER_T, and an open forecast of it whose target is on the 15min grid, still ahead. */
  async function journalWithOpenForecast() {
    const data = tempDir();
    await recordShown(data, ORIGIN, [{ symbol: 'BTC/USD', body: body(SERVER_T) }], SERVER_T);
    const f = Object.values(body(SERVER_T).predictions).find(
      (p) => p.target_t > SERVER_T + 900 && p.target_t % 900 === 0,
    )!;
    expect(f).toBeDefined();
    return { data, f };
  }

  /** A later response whose 15min candles end with one closing at `closesAt` (a candle still forming, when after server_t). */
  function laterResponse(serverT: number, closesAt: number): ForecastEnvelope {
    const b = body(serverT) as any;
    const list = b.candles['15min'];
    list.push({ ...list.at(-1), t: closesAt - 900, c: 123.45 });
    return b;
  }

  it('never settles from a candle that closes after the server’s clock (step 1 before step 2)', async () => {
    const { data, f } = await journalWithOpenForecast();
    const serverT = f.target_t - 60;
    const done = await recordShown(
      data,
      ORIGIN,
      [{ symbol: 'BTC/USD', body: laterResponse(serverT, f.target_t) }],
      serverT,
    );
    expect(done.settled).toBe(0);
    const lines = readFileSync(join(data, 'journal', '2026-03.jsonl'), 'utf8');
    expect(lines).not.toContain('"kind":"settlement"');
  });

  it('settles from the candle closing at target_t once the server’s clock has reached it', async () => {
    const { data, f } = await journalWithOpenForecast();
    const done = await recordShown(
      data,
      ORIGIN,
      [{ symbol: 'BTC/USD', body: laterResponse(f.target_t, f.target_t) }],
      f.target_t,
    );
    expect(done.settled).toBeGreaterThanOrEqual(1);
    const settled = readFileSync(join(data, 'journal', '2026-03.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .find((r) => r.kind === 'settlement' && r.tf === f.tf && r.ts === f.ts);
    expect(settled).toMatchObject({ settle_price: 123.45, settle_t: f.target_t, settle_source: 'candles' });
  });

  it("never settles a forecast with another service's response, however well its candle fits", async () => {
    const { data, f } = await journalWithOpenForecast();
    const other = await recordShown(
      data,
      'https://api.example.com',
      [{ symbol: 'BTC/USD', body: laterResponse(f.target_t, f.target_t) }],
      f.target_t,
    );
    expect(other.settled).toBe(0);
    const lines = readFileSync(join(data, 'journal', '2026-03.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(lines.filter((r) => r.kind === 'settlement')).toEqual([]);
    // Its own forecasts are recorded beside the first service's: the same keys, another origin.
    const keys = (origin: string) =>
      lines.filter((r) => r.kind === 'forecast' && r.origin === origin).map((r) => `${r.tf} ${r.ts}`);
    expect(keys('https://api.example.com').length).toBeGreaterThan(0);
    expect(keys(ORIGIN)).toContain(`${f.tf} ${f.ts}`);
  });
});
