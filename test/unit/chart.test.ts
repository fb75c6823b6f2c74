// The terminal chart of `predict --chart`: drawing closes, marks and the forecast's projection
// within a given width, from the candles as api/candles.ts read them (test/unit/candles.test.ts).
import { describe, expect, it } from 'vitest';
import { readCandlesByTimeframe } from '../../src/api/candles.js';
import { renderForecastCharts, summarizeCandles } from '../../src/output/chart.js';
import { renderLineChart } from '../../src/output/line-chart.js';
import { timeframeMinutes } from '../../src/core/domain.js';
import { Output } from '../../src/output/io.js';
import { renderReliabilityChart } from '../../src/output/reliability-chart.js';
import { displayWidth } from '../../src/output/table.js';
import { createColors } from 'picocolors';

const BRAILLE = /[\u2801-\u28ff]/;
const plot = (line: string) => line.slice(line.search(/[┤│]/) + 1);

function output(columns = 80, isTTY = false): Output {
  const sink = { write: () => true, columns, isTTY };
  return new Output({ stdout: sink, stderr: sink, stdin: process.stdin }, false, false);
}

describe('renderLineChart', () => {
  const rising = Array.from({ length: 50 }, (_, i) => 100 + i);
  const whole = (v: number) => v.toFixed(0);

  it('fits the width it is given, axis and points included, and draws in braille', () => {
    for (const width of [40, 60, 80, 137]) {
      const lines = renderLineChart(rising, {
        width,
        height: 6,
        points: [{ step: 49, value: 149, glyph: '●' }],
        axisLabels: [
          { step: 0, text: '11-21 22:00' },
          { step: 49, text: '11-22 10:15' },
        ],
      });
      expect(lines).toHaveLength(8);
      for (const line of lines) expect([...line].length).toBeLessThanOrEqual(width);
      expect(lines.join('\n')).toMatch(BRAILLE);
    }
  });

  it('labels at least three rows of the y axis, top and bottom at the ends of the range', () => {
    const lines = renderLineChart(rising, { width: 60, height: 10, formatValue: whole });
    const labelled = lines.filter((l) => /^\s*\d+ ┤/.test(l));
    expect(labelled.length).toBeGreaterThanOrEqual(3);
    expect(lines[0]).toMatch(/^149 ┤/);
    expect(lines[9]).toMatch(/^100 ┤/);
    const values = labelled.map((l) => Number(l.trim().split(' ')[0]));
    expect([...values].sort((a, b) => b - a)).toEqual(values);
    expect(new Set(values).size).toBe(values.length);
    // Even with only three rows, three are labelled.
    expect(
      renderLineChart(rising, { width: 40, height: 3, formatValue: whole }).filter((l) => /┤/.test(l)),
    ).toHaveLength(3);
  });

  it('puts a rising line low on the left, high on the right', () => {
    const lines = renderLineChart(rising, { width: 60, height: 5, formatValue: whole });
    const top = plot(lines[0]!);
    const bottom = plot(lines[4]!);
    expect(bottom.search(BRAILLE)).toBe(0);
    expect(top.search(BRAILLE)).toBeGreaterThan(bottom.trimEnd().length - 5);
  });

  it('draws each point with its own glyph on the row of its value, in a cell of its own', () => {
    const lines = renderLineChart([10, 10, 10, 10], {
      width: 50,
      height: 5,
      points: [
        { step: 3, value: 20, glyph: '◆' },
        { step: 3, value: 10, glyph: '●' },
      ],
      formatValue: whole,
    });
    expect(lines[0]).toMatch(/^20 ┤\s*◆$/);
    expect(lines[4]).toMatch(/●$/);
    // Two points on one cell: both still show, side by side.
    const same = renderLineChart([10, 10, 10, 10], {
      width: 50,
      height: 5,
      points: [
        { step: 3, value: 10, glyph: '●' },
        { step: 3, value: 10, glyph: '◆' },
      ],
      formatValue: whole,
    });
    expect(same.filter((l) => /◆●$/.test(l))).toHaveLength(1);
  });

  it('draws the projection after the last close, reaching the target at the right edge', () => {
    const lines = renderLineChart([10, 10, 10, 10], {
      width: 40,
      height: 4,
      projection: { value: 20, stepsAhead: 3 },
      formatValue: whole,
    });
    const top = plot(lines[0]!);
    const bottom = plot(lines[3]!);
    // History fills the left half on the bottom row; the dotted projection climbs to the top right.
    expect(bottom.slice(0, 5)).toMatch(BRAILLE);
    expect(top.trimEnd().length).toBeGreaterThan(30);
    expect(top.slice(0, 15).trim()).toBe('');
  });

  it('writes times under the axis at their steps: the first at the left, the last at the right', () => {
    const lines = renderLineChart(rising, {
      width: 60,
      height: 4,
      formatValue: whole,
      axisLabels: [
        { step: 0, text: '11-21 10:00' },
        { step: 30, text: '22:00' },
        { step: 49, text: '11-22 04:00' },
      ],
    });
    const [axis, labels] = lines.slice(-2) as [string, string];
    expect(axis).toMatch(/^ {4}└┬─+┬─+┬$/);
    expect(labels).toMatch(/^ {5}11-21 10:00 +22:00 +11-22 04:00$/);
    expect(labels.indexOf('11-22 04:00') + ' 11-22 04:00'.length - 1).toBe(axis.length);
  });

  it('joins a time too close to the last one into a span, and never overlaps labels', () => {
    const lines = renderLineChart(rising, {
      width: 60,
      height: 4,
      formatValue: whole,
      projection: { value: 150, stepsAhead: 2 },
      axisLabels: [
        { step: 0, text: '11-21 10:00' },
        { step: 49, text: '22:00' },
        { step: 51, text: '23:30' },
      ],
    });
    expect(lines.at(-1)).toMatch(/^ +11-21 10:00 +22:00 → 23:30$/);
    expect([...lines.at(-1)!].length).toBeLessThanOrEqual(60);
  });

  it('copes with a flat series', () => {
    const lines = renderLineChart([5, 5, 5], { width: 30, height: 3 });
    expect(lines.join('\n')).toMatch(BRAILLE);
  });
});

describe('renderForecastCharts', () => {
  const T0 = 1_700_000_000;
  const candles = (n: number, step: number) =>
    Array.from({ length: n }, (_, i) => ({
      t: T0 + i * step,
      o: 1,
      h: 1,
      l: 1,
      c: 100 + Math.sin(i / 5),
      v: 1,
    }));
  const forecast = (target: number, horizon: number, lastCandle: number) => ({
    target_price: target,
    horizon_min: horizon,
    target_t: lastCandle + horizon * 60,
  });
  const read = (b: { candles?: unknown }) => readCandlesByTimeframe(b.candles);
  const body = {
    symbol: 'BTC/USD',
    price: { last: 100.5 },
    predictions: { '15min': forecast(101, 90, T0 + 95 * 900), '1h': forecast(99, 360, T0 + 95 * 3600) },
    candles: { '15min': candles(96, 900), '1h': candles(96, 3600) },
    meta: { server_t: T0 + 95 * 3600 + 600 },
  };

  it('draws one chart per candle timeframe: title, ticks, time axis with the forecast span, legend', async () => {
    const { text, problems } = renderForecastCharts(output(80, true), body, await read(body));
    expect(problems).toEqual([]);
    expect(text).toMatch(/^BTC\/USD · 15min · 96 candles and the 15min forecast$/m);
    expect(text).toMatch(/^BTC\/USD · 1h · 96 candles and the 1h forecast$/m);
    // The 1h chart's x axis: first candle, then the last one and the target time as a span.
    expect(text).toMatch(/^ +11-14 22:13 +11-18 21:13 → 11-19 03:13$/m);
    expect(text).toMatch(
      /^● last 100\.50\n◆ 1h target 99\.00 \(-1\.49% from last\) by 2023-11-19 03:13 UTC \(in 5h50m\)$/m,
    );
    // The y labels: top and bottom of the range, two between, all with the same decimals.
    expect(text).toMatch(/^101\.00 ┤[\s\S]*^100\.31 ┤[\s\S]*^ 99\.69 ┤[\s\S]*^ 99\.00 ┤/m);
    expect(text).toMatch(/^⠉⠒ closes {2}⠁⠂ forecast {2}times UTC$/m);
    expect(text.match(/●/g)).toHaveLength(4);
    expect(text.match(/◆/g)).toHaveLength(4);
  });

  it('fits 60 and 80 columns on a terminal, and 80 when piped whatever the columns say', async () => {
    for (const [columns, tty, width] of [
      [60, true, 60],
      [80, true, 80],
      [200, false, 80],
    ] as const) {
      const { text } = renderForecastCharts(output(columns, tty), body, await read(body));
      const widths = text.split('\n').map((l) => [...l].length);
      expect(Math.max(...widths)).toBeLessThanOrEqual(width);
      expect(Math.max(...widths)).toBeGreaterThan(width - 5);
    }
  });

  it('reports a timeframe whose candles break the schema (a time no date can hold), and draws the others', async () => {
    const odd = candles(10, 3600).map((c, i) => (i === 0 ? { ...c, t: 1e20 } : c));
    const oddBody = {
      price: { last: 100.5 },
      predictions: { '1h': { target_price: 101, horizon_min: 360, target_t: 1e20 } },
      candles: { '1h': odd, '15min': candles(10, 900) },
    };
    const { text, problems } = renderForecastCharts(output(), oddBody, await read(oddBody));
    expect(problems).toEqual([expect.stringMatching(/^the 1h candles were not charted: .*1h\.0\.t/)]);
    expect(text).toMatch(/^15min · 10 candles$/m);
    expect(text).not.toMatch(/^1h · /m);
  });

  it("cleans the server's text it prints: the symbol in each title; the summary names only the timeframes of the schema", async () => {
    const { text } = renderForecastCharts(
      output(80, true),
      { ...body, symbol: '\x1b[31mBTC\u202e/USD' },
      await read(body),
    );
    expect(text).toMatch(/^BTC\/USD · 15min · 96 candles/m);
    expect(text).not.toMatch(/[\x1b\u202e]/);
    const { lines } = summarizeCandles(
      await readCandlesByTimeframe({ '\x1b]8;;x\x07h1': candles(3, 3600), '1h': candles(3, 3600) }),
    );
    expect(lines).toEqual([expect.stringMatching(/^Candles 1h: 3,/)]);
  });

  it('reports what it cannot draw', async () => {
    expect(renderForecastCharts(output(), { predictions: {} }, await read({})).problems).toEqual([
      'the response has no candles to chart',
    ]);
    const partialBody = { predictions: {}, candles: { '1h': candles(10, 3600), '15min': 'x' } };
    const partial = renderForecastCharts(output(), partialBody, await read(partialBody));
    expect(partial.problems).toEqual([
      expect.stringMatching(/^the 15min candles were not charted: .*15min: Expected array, received string/),
    ]);
    expect(partial.text).toMatch(/^1h · 10 candles$/m);
    expect(partial.text).toMatch(/^● last [\d.]+ {2}no 1h target/m);
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

describe('renderReliabilityChart', () => {
  it('is as wide as asked, never wider: the axis, its ticks, 1.0 under the last column of the plot', () => {
    const bins = [
      { lo: 0.4, hi: 0.5, n: 40, mean_p: 0.46, freq: 0.5, freq_ci95: [0.35, 0.65] as [number, number] },
      { lo: 0.5, hi: 0.6, n: 10, mean_p: 0.55, freq: 0.6, freq_ci95: [0.3, 0.85] as [number, number] },
    ];
    for (const width of [40, 60, 61, 80, 120, 160]) {
      const lines = renderReliabilityChart(createColors(false), bins, { width, height: 11, smallSample: 30 }).split(
        '\n',
      );
      for (const line of lines) expect(displayWidth(line), `${width}: ${line}`).toBeLessThanOrEqual(width);
      const axis = lines.findIndex((l) => /└─+$/.test(l));
      expect(displayWidth(lines[axis]!)).toBe(width);
      expect(displayWidth(lines[axis + 1]!)).toBe(width);
      expect(lines[axis + 1]).toMatch(/^ {6}0\.0 +0\.5 +1\.0$/);
    }
  });
});
