// The terminal chart of `predict --chart`: reading the candle shapes the seed leaves open,
// and drawing closes, marks and the forecast's projection within a given width.
import { describe, expect, it } from 'vitest';
import { candleCloses, renderForecastCharts, renderLineChart } from '../../src/output/chart.js';
import { timeframeMinutes } from '../../src/domain.js';
import { Output } from '../../src/output/io.js';

const BRAILLE = /[\u2801-\u28ff]/;
const plot = (line: string) => line.slice(line.search(/[┤│]/) + 1);

function output(columns = 80): Output {
  const sink = { write: () => true, columns };
  return new Output({ stdout: sink, stderr: sink, stdin: process.stdin }, false, false);
}

describe('candleCloses', () => {
  const t0 = 1_700_000_000;
  it('reads objects {t,o,h,l,c,v}, objects with close, and arrays [t,o,h,l,c,v]', () => {
    expect(
      candleCloses([
        { t: t0, o: 1, h: 2, l: 0, c: 1.5, v: 9 },
        { t: t0 + 60, o: 1.5, h: 3, l: 1, c: 2.5, v: 9 },
      ]),
    ).toEqual({
      closes: [1.5, 2.5],
      times: [t0, t0 + 60],
    });
    expect(candleCloses([{ close: 3 }, { close: '4.5' }])).toEqual({ closes: [3, 4.5] });
    expect(
      candleCloses([
        [t0 * 1000, 1, 2, 0, 7, 1],
        [(t0 + 60) * 1000, 1, 2, 0, 8, 1],
      ]),
    ).toEqual({ closes: [7, 8], times: [t0, t0 + 60] });
  });

  it('puts timed candles oldest first whatever order they came in', () => {
    expect(
      candleCloses([
        { t: t0 + 120, c: 3 },
        { t: t0, c: 1 },
        { t: t0 + 60, c: 2 },
      ]),
    ).toEqual({ closes: [1, 2, 3], times: [t0, t0 + 60, t0 + 120] });
  });

  it('explains an unknown shape instead of throwing', () => {
    expect(candleCloses({ closes: [1, 2] })).toMatch(/^not a list of candles/);
    expect(candleCloses([{ price: 1 }, { price: 2 }])).toMatch(/^fewer than 2 closing prices/);
    expect(candleCloses([[1, 2, 3]])).toMatch(/^fewer than 2 closing prices/);
    expect(candleCloses(null)).toMatch(/^not a list/);
  });
});

describe('renderLineChart', () => {
  const rising = Array.from({ length: 50 }, (_, i) => 100 + i);

  it('fits the width it is given, marks included, and draws in braille', () => {
    for (const width of [40, 80, 137]) {
      const lines = renderLineChart(rising, { width, height: 6, marks: [{ label: 'last', value: 149 }] });
      expect(lines).toHaveLength(6);
      for (const line of lines) expect([...line].length).toBeLessThanOrEqual(width);
      expect(lines.join('\n')).toMatch(BRAILLE);
    }
  });

  it('labels the top and bottom of the range and puts a rising line low on the left, high on the right', () => {
    const lines = renderLineChart(rising, { width: 60, height: 5, formatValue: (v) => v.toFixed(0) });
    expect(lines[0]).toMatch(/^149 ┤/);
    expect(lines[4]).toMatch(/^100 ┤/);
    const top = plot(lines[0]!);
    const bottom = plot(lines[4]!);
    expect(bottom.search(BRAILLE)).toBe(0);
    expect(top.search(BRAILLE)).toBeGreaterThan(bottom.trimEnd().length - 5);
  });

  it('puts each mark on the row of its value, and stretches the range to include it', () => {
    const lines = renderLineChart([10, 10, 10, 10], {
      width: 50,
      height: 5,
      marks: [
        { label: 'target', value: 20 },
        { label: 'last', value: 10 },
      ],
      formatValue: (v) => v.toFixed(0),
    });
    expect(lines[0]).toMatch(/^20 ┤\s*◀ target$/);
    expect(lines[4]).toMatch(/◀ last$/);
  });

  it('draws the projection after the last close, reaching the target at the right edge', () => {
    const lines = renderLineChart([10, 10, 10, 10], {
      width: 40,
      height: 4,
      projection: { value: 20, stepsAhead: 3 },
      formatValue: (v) => v.toFixed(0),
    });
    const top = plot(lines[0]!);
    const bottom = plot(lines[3]!);
    // History fills the left half on the bottom row; the dotted projection climbs to the top right.
    expect(bottom.slice(0, 5)).toMatch(BRAILLE);
    expect(top.trimEnd().length).toBeGreaterThan(30);
    expect(top.slice(0, 15).trim()).toBe('');
  });

  it('copes with a flat series', () => {
    const lines = renderLineChart([5, 5, 5], { width: 30, height: 3 });
    expect(lines.join('\n')).toMatch(BRAILLE);
  });
});

describe('renderForecastCharts', () => {
  const candles = (n: number, step: number) =>
    Array.from({ length: n }, (_, i) => ({
      t: 1_700_000_000 + i * step,
      o: 1,
      h: 1,
      l: 1,
      c: 100 + Math.sin(i / 5),
      v: 1,
    }));
  const forecast = (target: number, horizon: number) => ({
    target_price: target,
    horizon_min: horizon,
    target_t: 1_700_400_000,
  });

  it('draws one chart per candle timeframe with the last price and its own target', () => {
    const { text, problems } = renderForecastCharts(output(), {
      price: { last: 100.5 },
      predictions: { '15min': forecast(101, 90), '1h': forecast(99, 360) },
      candles: { '15min': candles(96, 900), '1h': candles(96, 3600) },
    });
    expect(problems).toEqual([]);
    expect(text).toMatch(
      /^15min closes \(96 candles\) · last 100\.500 · 15min target 101\.000 \(\+0\.50%\) by 2023-11-19 13:20 UTC$/m,
    );
    expect(text).toMatch(/^1h closes \(96 candles\) · last 100\.500 · 1h target 99\.00000 \(-1\.49%\)/m);
    for (const line of text.split('\n').filter((l) => /[┤│]/.test(l))) expect([...line].length).toBeLessThanOrEqual(80);
  });

  it('reports what it cannot draw', () => {
    expect(renderForecastCharts(output(), { predictions: {} }).problems).toEqual([
      'the response has no candles to chart',
    ]);
    const partial = renderForecastCharts(output(), {
      predictions: {},
      candles: { '1h': candles(10, 3600), '15min': 'x' },
    });
    expect(partial.problems).toEqual([expect.stringMatching(/^the 15min candles were not charted: not a list/)]);
    expect(partial.text).toMatch(/^1h closes \(10 candles\) · last [\d.]+ · no 1h target/m);
  });
});

describe('timeframeMinutes', () => {
  it('reads minutes, hours and days', () => {
    expect([
      timeframeMinutes('15min'),
      timeframeMinutes('1h'),
      timeframeMinutes('1d'),
      timeframeMinutes('weekly'),
    ]).toEqual([15, 60, 1440, undefined]);
  });
});
