// Rendering the gateway's open-shaped `data` and `meta`: whatever field names a server uses,
// a person sees what is there.
import { describe, expect, it } from 'vitest';
import type { IO } from '../../src/context.js';
import { Output } from '../../src/output/io.js';
import { describeUsage, renderGatewayData, renderGatewayResult } from '../../src/output/gateway-view.js';

const io = { stdout: { write: () => true }, stderr: { write: () => true }, stdin: process.stdin } as unknown as IO;
const plain = new Output(io, false, false);
const coloured = new Output(io, true, false);
const NOW = Date.UTC(2026, 10, 22, 12, 0, 0) / 1000;

describe('describeUsage', () => {
  it('reads the emulator-style fields: remaining, limit, reset_s, used', () => {
    const meta = {
      request_id: 'r',
      rate_limit: { limit: 60, remaining: 58, reset_s: 42 },
      daily_quota: { limit: 1000, used: 12, remaining: 988 },
    };
    expect(describeUsage(meta, NOW)).toBe('rate limit 58/60 left, resets in 42s · daily quota 12/1000 used');
  });

  it('reads other common names and reset times as epoch seconds or ISO strings', () => {
    const meta = {
      generated_at: '2026-11-22T12:00:00Z',
      rate_limit: { max: 100, left: 7, reset_at: NOW + 90 },
      daily_quota: { quota: 500, remaining: 400, resets_at: '2026-11-23T00:00:00Z' },
    };
    expect(describeUsage(meta, 0)).toBe(
      'rate limit 7/100 left, resets in 1m · daily quota 400/500 left, resets in 12h',
    );
  });

  it('shows fields it does not know rather than hiding them', () => {
    const meta = { rate_limit: { window: '1m', tokens: 5 }, daily_quota: { used: 3 } };
    expect(describeUsage(meta, NOW)).toBe('rate limit window 1m, tokens 5 · daily quota 3 used');
  });

  it('says nothing when meta carries neither (error envelopes have only the request id)', () => {
    expect(describeUsage({ request_id: 'r' }, NOW)).toBeUndefined();
    expect(describeUsage(undefined, NOW)).toBeUndefined();
    expect(describeUsage({ rate_limit: {} }, NOW)).toBeUndefined();
  });

  it('strips terminal controls from server text', () => {
    expect(describeUsage({ rate_limit: { note: 'ok\x1b[2J' } }, NOW)).toBe('rate limit note ok');
  });
});

describe('renderGatewayData', () => {
  const analysis = {
    symbol: 'BTCUSD',
    timeframe: '1h',
    as_of: '2026-11-22T12:00:00Z',
    bias: 'bullish',
    confidence: 0.72,
    drivers: ['RSI rising', 'price above EMA(50)'],
    indicators: { rsi_14: 61.2, macd: { histogram: 3.1 } },
  };

  it('puts bias, confidence and drivers first, then the rest', () => {
    const text = renderGatewayData(plain, analysis, NOW);
    const lines = text.split('\n');
    expect(lines.slice(0, 7)).toEqual([
      'symbol      BTCUSD',
      'timeframe   1h',
      'bias        bullish',
      'confidence  72%',
      'drivers',
      '  • RSI rising',
      '  • price above EMA(50)',
    ]);
    expect(text).toMatch(/as_of\s+2026-11-22T12:00:00Z/);
    expect(text).toMatch(/indicators\n\s+rsi_14\s+61\.2/);
    expect(text.match(/bullish/g)).toHaveLength(1);
  });

  it('colours the bias', () => {
    expect(renderGatewayData(coloured, { ...analysis, bias: 'bearish' }, NOW)).toContain('\x1b[31mbearish');
  });

  it('renders a ranked list as a table with the direction coloured', () => {
    const data = {
      count: 2,
      items: [
        { rank: 1, symbol: 'XAUUSD', direction: 'short', score: 96.6 },
        { rank: 2, symbol: 'BTCUSD', direction: 'long', score: 90 },
      ],
    };
    const text = renderGatewayData(plain, data, NOW);
    expect(text).toMatch(
      /^count\s+2\n\nitems\nrank\s+symbol\s+direction\s+score\n\s+1\s+XAUUSD\s+short\s+96\.6\n\s+2\s+BTCUSD\s+long\s+90$/,
    );
    const tty = renderGatewayData(coloured, data, NOW);
    expect(tty).toContain('\x1b[31mshort');
    expect(tty).toContain('\x1b[32mlong');
  });

  it('renders whatever else comes: a bare list, a scalar, null', () => {
    expect(renderGatewayData(plain, [{ a: 1 }, { a: 2 }], NOW)).toMatch(/^a\n1\n2$/);
    expect(renderGatewayData(plain, 'fine', NOW)).toBe('fine');
    expect(renderGatewayData(plain, null, NOW)).toBe('(no data)');
  });

  it('adds the attribution footer only when data carries a meta.source', () => {
    const withSource = renderGatewayResult(
      plain,
      {
        ok: true,
        data: { x: 1, meta: { source: 'Example [example.com]', tier: 'free', data_delay_min: 15 } },
        meta: {},
      },
      NOW,
    );
    expect(withSource.split('\n').slice(-3).join('\n')).toContain('Source: Example [example.com]');
    expect(withSource).not.toMatch(/^meta/m);
    const without = renderGatewayResult(plain, { ok: true, data: { x: 1 }, meta: { request_id: 'r' } }, NOW);
    expect(without).toBe('x  1');
  });
});
