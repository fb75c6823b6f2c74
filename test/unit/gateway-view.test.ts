// One view per gateway command, fed with the emulator's own data at a fixed time: canonical
// symbols, thousands separators, fixed decimals, signed changes, percentages, times in UTC or
// the zone the user named; anything else goes to the generic renderer.
import { describe, expect, it } from 'vitest';
import type { IO } from '../../src/core/context.js';
import { Output } from '../../src/output/io.js';
import { renderGatewayResult } from '../../src/output/gateway/index.js';
import { describeUsage } from '../../src/output/gateway/usage.js';
import { indicatorName } from '../../src/output/gateway/analysis.js';
import * as mock from '../../src/mock/gateway-commands.js';
import { findGatewaySymbol } from '../../src/mock/catalog.js';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0) / 1000; // a Sunday
const GENERATED = '2026-11-22T12:00:00Z';
const SEED = 'views-test';

function output(opts: { color?: boolean; columns?: number } = {}): Output {
  const sink = { write: () => true, isTTY: opts.columns !== undefined, columns: opts.columns };
  return new Output({ stdout: sink, stderr: sink, stdin: process.stdin } as unknown as IO, opts.color ?? false, false);
}
const plain = output();

const info = (code: string) => findGatewaySymbol(code)!;
const DATA: Record<string, { data: unknown; zone?: string }> = {
  snapshot: { data: mock.snapshot(SEED, NOW) },
  search: { data: mock.search(NOW, 'usd', undefined) },
  indicators: { data: mock.indicators(SEED, info('BTCUSD'), '4h', NOW) },
  analyze: { data: mock.analyze(SEED, info('BTCUSD'), '1h', NOW) },
  opportunities: { data: mock.opportunities(SEED, 8, NOW) },
  macro: { data: mock.macro(SEED, NOW) },
  calendar: { data: mock.calendar(info('AAPLUSD'), 'Europe/Madrid', NOW), zone: 'Europe/Madrid' },
  events: { data: mock.events(SEED, 'all', undefined, 14, NOW) },
};

const render = (command: string, data: unknown, out = plain, zone?: string) =>
  renderGatewayResult(
    out,
    { ok: true, data, error: null, meta: { request_id: 'r', generated_at: GENERATED } },
    {
      command,
      zone,
      nowSeconds: 0,
    },
  );
const view = (command: string, out = plain) => render(command, DATA[command]!.data, out, DATA[command]!.zone);

describe('describeUsage', () => {
  it('shows the counters with the names the gateway gives them, a line each', () => {
    const meta = {
      request_id: 'r',
      rate_limit: { limit: 60, remaining: 58, reset_s: 42 },
      daily_quota: { limit: 1000, used: 12, remaining: 988 },
    };
    expect(describeUsage(meta)).toBe(
      'rate limit: limit 60, remaining 58, reset_s 42\ndaily quota: limit 1000, used 12, remaining 988',
    );
    expect(describeUsage({ rate_limit: { window: '1m', tokens: 5 } })).toBe('rate limit: window 1m, tokens 5');
  });

  it('quiet by default: only a counter running out (a tenth of its limit, or 5 left) is told', () => {
    const meta = (remaining: number, used: number) => ({
      rate_limit: { limit: 60, remaining, reset_s: 42 },
      daily_quota: { limit: 1000, used },
    });
    expect(describeUsage(meta(58, 12), {})).toBeUndefined();
    expect(describeUsage(meta(6, 12), {})).toBe('rate limit: limit 60, remaining 6, reset_s 42');
    expect(describeUsage(meta(7, 995), {})).toBe('daily quota: limit 1000, used 995');
    expect(describeUsage(meta(7, 899), {})).toBeUndefined();
    expect(describeUsage(meta(7, 900), {})).toBe('daily quota: limit 1000, used 900');
    expect(describeUsage({ rate_limit: { limit: 10, remaining: 5 } }, {})).toBe('rate limit: limit 10, remaining 5');
    expect(describeUsage({ rate_limit: { max: 100, left: 1 } }, {})).toBeUndefined();
    expect(describeUsage(meta(58, 12), { all: true })).toMatch(/^rate limit: .*\ndaily quota: /);
  });

  it('says nothing when meta carries neither (error envelopes have only the request id)', () => {
    expect(describeUsage({ request_id: 'r' })).toBeUndefined();
    expect(describeUsage(undefined)).toBeUndefined();
    expect(describeUsage({ rate_limit: {} })).toBeUndefined();
  });

  it('strips terminal controls from server text', () => {
    expect(describeUsage({ rate_limit: { note: 'ok\x1b[2J' } })).toBe('rate limit: note ok');
  });
});

describe('gateway views', () => {
  it('snapshot: canonical symbols, prices with separators, signed changes, the time in UTC with its age', () => {
    const text = view('snapshot');
    expect(text.split('\n')[0]).toBe('Market snapshot · 8 symbols · as of 2026-11-22 12:00 UTC (now)');
    expect(text).toMatch(/^Symbol\s+Name\s+Class\s+Market\s+Last\s+24h$/m);
    expect(text).toMatch(/^BTC\/USD\s+Bitcoin\s+crypto\s+open\s+\d{2},\d{3}\.\d{2}\s+[+-]\d+\.\d{2}%$/m);
    expect(text).toMatch(/^EUR\/USD\s.*\s1\.\d{4,5}\s+[+-]\d+\.\d{2}%$/m);
    expect(text).not.toMatch(/BTCUSD|T\d\d:\d\d/);
  });

  it('search: one row per match, the forecast timeframes as a range', () => {
    const text = view('search');
    expect(text.split('\n')[0]).toMatch(/^Search "usd" · \d+ matches$/);
    expect(text).toMatch(/^BTC\/USD\s+Bitcoin\s+crypto\s+open\s+active\s+1min … 6h \(22\)$/m);
  });

  it('indicators: names as people write them, values with the price decimals and separators', () => {
    const text = view('indicators');
    expect(text.split('\n')[0]).toBe('BTC/USD · 4h indicators · as of 2026-11-22 12:00 UTC (now) · cached');
    expect(text).toMatch(/^Close\s+\d{2},\d{3}\.\d{2}$/m);
    expect(text).toMatch(/^RSI\(14\)\s+\d{1,2}\.\d{2}$/m);
    expect(text).toMatch(/^Bollinger\(20, 2\)$\n^ {2}upper\s+\d{2},\d{3}\.\d{2}$/m);
    expect([indicatorName('ema_20'), indicatorName('bollinger_20_2'), indicatorName('close')]).toEqual([
      'EMA(20)',
      'Bollinger(20, 2)',
      'Close',
    ]);
  });

  it('analyze: bias, confidence as a percentage, the forecast with its probabilities and when it resolves', () => {
    const data = DATA.analyze!.data as { confidence: number; forecast: { p_long: number; target_t: number } };
    const text = view('analyze');
    const lines = text.split('\n');
    expect(lines[0]).toBe('BTC/USD · 1h · as of 2026-11-22 12:00 UTC (now)');
    expect(lines[2]).toMatch(/^Bias {8}(bullish|bearish|neutral)$/);
    expect(lines[3]).toBe(`Confidence  ${Math.round(data.confidence * 100)}%`);
    expect(lines[4]).toMatch(
      new RegExp(`^Forecast {4}(long|short) · long ${Math.round(data.forecast.p_long * 100)}% · short \\d+%$`),
    );
    expect(lines[5]).toMatch(/^ {12}resolves 2026-11-2\d \d\d:\d\d UTC \(in \d+h( \d+m)?\)$/);
    expect(text).toMatch(/^Drivers\n {2}• RSI\(14\) at/m);
    expect(text).toMatch(/^Indicators\nIndicator\s+Value$/m);
  });

  it('opportunities: scores with one decimal each, confidence in percent as in analyze', () => {
    const data = mock.opportunities(SEED, 3, NOW);
    data.items[0]!.score = 90;
    data.items[1]!.confidence = 0.59;
    const text = render('opportunities', data);
    expect(text.split('\n')[0]).toBe('Opportunities · 3 ranked · generated 2026-11-22 12:00 UTC (now)');
    expect(text).toMatch(/^#\s+Symbol\s+TF\s+Direction\s+Score\s+Confidence$/m);
    const rows = text.split('\n').filter((l) => /^\d\s/.test(l));
    expect(rows[0]).toMatch(/^1\s+[A-Z]+\/[A-Z]+\s+\S+\s+(long|short)\s+90\.0\s+\d+%$/);
    expect(rows[1]).toMatch(/\s59%$/);
  });

  it('macro: rates with fixed decimals and signed basis points, quotes with canonical symbols', () => {
    const data = mock.macro(SEED, NOW);
    data.rates[0]!.value = 4.2;
    data.rates[0]!.change_bp = 3;
    const text = render('macro', data);
    expect(text).toMatch(/^US 2Y\s+4\.200\s+\+3\.0$/m);
    expect(text).toMatch(/^Regime {2}(risk on|risk off|mixed)$/m);
    expect(text).toMatch(/^USD\/JPY\s+\d{3}\.\d{2,3}\s+[+-]\d\.\d\d%$/m);
    expect(text).toMatch(/^SPX\s+\d,\d{3}\.\d{2}\s/m);
  });

  it('calendar with a user_tz: every time and every session in that zone, the exchange hours beside', () => {
    const text = view('calendar');
    expect(text.split('\n')[0]).toBe('AAPL/USD · stock · times in Europe/Madrid');
    expect(text).toMatch(/^Now {9}2026-11-22 13:00 Europe\/Madrid$/m);
    expect(text).toMatch(/^Next open {3}2026-11-23 15:30 Europe\/Madrid \(in 26h30m\)$/m);
    expect(text).toMatch(/^regular\s+Mon-Fri\s+15:30\s+22:00\s+09:30–16:00 America\/New_York$/m);
    expect(text).toMatch(/^after hours\s+Mon-Fri\s+22:00\s+02:00 \+1d\s+16:00–20:00 America\/New_York$/m);
    const tokyo = render('calendar', mock.calendar(info('EURUSD'), 'Asia/Tokyo', NOW), plain, 'Asia/Tokyo');
    expect(tokyo).toMatch(/^global\s+Mon 07:00 - Sat 07:00\s+07:00\s+07:00\s+22:00–22:00 UTC$/m);
  });

  it('calendar without one: UTC, and no exchange column when the hours are already in it', () => {
    const text = render('calendar', mock.calendar(info('BTCUSD'), 'UTC', NOW));
    expect(text).toMatch(/^continuous\s+Mon-Sun\s+00:00\s+00:00 \+1d$/m);
    expect(text).not.toMatch(/Exchange hours/);
  });

  it('events: times in UTC, how long until each, canonical symbols', () => {
    const text = view('events');
    expect(text.split('\n')[0]).toMatch(/^Events \(all\) · 14 days from 2026-11-22 · \d+ events$/);
    expect(text).toMatch(/^When\s+Event\s+Impact\s+Starts\s+Symbol\s+Kind$/m);
    expect(text).toMatch(/^2026-11-2\d \d\d:\d\d UTC\s+\S.*\s(low|medium|high)\s+in \d/m);
    expect(text).not.toMatch(/[A-Z]{3}USD\b/);
  });

  it('colours directions, biases and changes on a terminal', () => {
    const coloured = output({ color: true });
    expect(view('opportunities', coloured)).toMatch(/\x1b\[3[12]m(long|short)/);
    expect(view('snapshot', coloured)).toMatch(/\x1b\[3[12]m[+-]\d/);
    expect(view('analyze', coloured)).toMatch(/\x1b\[3[123]m(bullish|bearish|neutral)/);
  });

  it('falls back to the generic renderer for data in another shape', () => {
    const text = render('analyze', { bias: 3, verdict: 'odd', rows: [{ a: 1 }, { a: 2 }] });
    expect(text).toMatch(/^bias\s+3$/m);
    expect(text).toMatch(/^verdict\s+odd$/m);
    expect(render('macro', [{ x: 1 }])).toMatch(/^x\n1$/m);
    expect(render('snapshot', null)).toBe('(no data)');
  });

  it('still shows the fields a view does not know, after it', () => {
    const data = { ...mock.opportunities(SEED, 2, NOW), note: 'cached feed' };
    expect(render('opportunities', data)).toMatch(/\n\nnote {2}cached feed$/);
  });

  it('adds the attribution footer only when data carries a meta.source', () => {
    const meta = { source: 'Example [example.com]', tier: 'free', data_delay_min: 15 };
    const text = render('opportunities', { ...mock.opportunities(SEED, 2, NOW), meta });
    expect(text.split('\n').slice(-2).join('\n')).toBe(
      'Source: Example [example.com]\nTier: free · data delayed 15 min',
    );
    expect(view('opportunities')).not.toMatch(/Source:/);
  });

  it('strips terminal controls from what the gateway sends', () => {
    const data = mock.events(SEED, 'all', undefined, 14, NOW);
    data.events[0]!.title = 'CPI\x1b]0;pwned\x07 release';
    expect(render('events', data)).not.toMatch(/\x1b|\x07/);
  });
});

describe('gateway views on a terminal', () => {
  it('wraps free text on a narrow terminal: a driver under its bullet, a long zone with its age below', () => {
    const data = { ...(DATA.analyze!.data as object), drivers: ['one two three four five six seven eight nine ten'] };
    expect(render('analyze', data, output({ columns: 30 }))).toMatch(
      /^Drivers\n {2}• one two three four five\n {4}six seven eight nine ten$/m,
    );
    const zone = 'America/Argentina/Buenos_Aires';
    const text = render('calendar', mock.calendar(info('AAPLUSD'), zone, NOW), output({ columns: 60 }), zone);
    expect(text).toMatch(/^Next open {3}2026-11-23 11:30 America\/Argentina\/Buenos_Aires\n {12}\(in 26h30m\)$/m);
    // Piped, nothing is wrapped: a script reads whole lines.
    expect(render('calendar', mock.calendar(info('AAPLUSD'), zone, NOW), plain, zone)).toMatch(
      /^Next open {3}2026-11-23 11:30 America\/Argentina\/Buenos_Aires \(in 26h30m\)$/m,
    );
  });

  for (const columns of [60, 80]) {
    for (const command of Object.keys(DATA)) {
      it(`${command} at ${columns} columns`, () => {
        const text = view(command, output({ columns }));
        expect(Math.max(...text.split('\n').map((l) => [...l].length))).toBeLessThanOrEqual(columns);
        expect(text).toMatchSnapshot();
      });
    }
  }
});
