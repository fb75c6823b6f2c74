// The one candle reader (api/candles.ts): the Candles schema's {t, o, h, l, c, v} and nothing
// guessed; per timeframe for the chart and the summary, all or nothing for settling.
import { describe, expect, it } from 'vitest';
import { readCandles, readCandlesByTimeframe } from '../../src/api/candles.js';

const t0 = 1_700_000_000;
const candle = (t: number, c: number) => ({ t, o: 1, h: 2, l: 0, c, v: 9 });

describe('readCandlesByTimeframe', () => {
  it('reads {t,o,h,l,c,v}, oldest first whatever order they came in', async () => {
    const got = await readCandlesByTimeframe({ '15min': [candle(t0 + 1800, 3), candle(t0, 1), candle(t0 + 900, 2)] });
    expect(got).toEqual({
      series: [
        {
          tf: '15min',
          seconds: 900,
          candles: [
            { t: t0, c: 1 },
            { t: t0 + 900, c: 2 },
            { t: t0 + 1800, c: 3 },
          ],
        },
      ],
      problems: [],
    });
  });

  it('guesses at no other shape: arrays, close spelled out and string prices are problems of their timeframe', async () => {
    const got = await readCandlesByTimeframe({
      '15min': [[t0, 1, 2, 0, 7, 1]],
      '1h': [{ time: t0, close: 3 }],
    });
    expect(got.series).toEqual([]);
    expect(got.problems.map((p) => p.tf)).toEqual(['15min', '1h']);
    const strings = await readCandlesByTimeframe({ '1h': [{ ...candle(t0, 1), c: '4.5' }], '15min': [candle(t0, 2)] });
    expect(strings.problems).toEqual([{ tf: '1h', why: expect.stringMatching(/1h\.0\.c/) }]);
    expect(strings.series.map((s) => s.tf)).toEqual(['15min']);
  });

  it('says why when there are no candles, or they are not an object', async () => {
    expect((await readCandlesByTimeframe(undefined)).why).toBe('the response has no candles');
    expect((await readCandlesByTimeframe([candle(t0, 1)])).why).toBe('the candles are not an object');
  });
});

describe('readCandles', () => {
  it('is all or nothing: one timeframe off the shape makes the candles unusable', async () => {
    expect(await readCandles({ '1h': [candle(t0, 1)] })).toEqual({
      usable: true,
      series: [{ tf: '1h', seconds: 3600, candles: [{ t: t0, c: 1 }] }],
    });
    expect((await readCandles({ '1h': [candle(t0, 1)], '15min': 'x' })).usable).toBe(false);
    expect(await readCandles({ '4h': [candle(t0, 1)] })).toEqual({
      usable: false,
      why: 'neither 15min nor 1h candles',
    });
  });
});
