// The column helpers of src/output/format.ts: fixed decimals with separators, signed changes,
// gateway symbols with their slash, and times in UTC or in a zone the user named.
import { describe, expect, it } from 'vitest';
import {
  columnDecimals,
  decimalsOf,
  formatFixed,
  formatZoned,
  formatZonedWithAge,
  groupThousands,
  slashSymbol,
  zonedParts,
} from '../../src/output/format.js';

const T = Date.UTC(2026, 10, 22, 20, 44, 11) / 1000;

describe('numbers', () => {
  it('groups thousands in the integer part only, keeping the sign', () => {
    expect(['92534.61', '-1234567', '+1000.5', '999', '0.0001234'].map(groupThousands)).toEqual([
      '92,534.61',
      '-1,234,567',
      '+1,000.5',
      '999',
      '0.0001234',
    ]);
  });

  it('gives every value of a column the same decimals, signed when asked, never -0', () => {
    expect([90, 89.6, 92534.612].map((v) => formatFixed(v, 1))).toEqual(['90.0', '89.6', '92,534.6']);
    expect([1.5, -0.25, 0, -0.001].map((v) => formatFixed(v, 2, true))).toEqual(['+1.50', '-0.25', '0.00', '0.00']);
    expect([null, undefined, Number.NaN, '3'].map((v) => formatFixed(v, 2))).toEqual(['–', '–', '–', '–']);
  });

  it('counts the decimals a number was sent with, and picks one count per column within bounds', () => {
    expect([1, 1.5, 92283.95, 1e-7, 0.000298].map(decimalsOf)).toEqual([0, 1, 2, 7, 6]);
    expect(columnDecimals([90, 89.6, 91.25], 1, 2)).toBe(2);
    expect(columnDecimals([90, 89], 1, 2)).toBe(1);
    expect(columnDecimals([0.123456789], 0, 4)).toBe(4);
  });
});

describe('symbols', () => {
  it('writes a gateway symbol as BASE/QUOTE where the quote is a known currency, else as sent', () => {
    expect(['BTCUSD', 'AAPLUSD', 'USDJPY', 'ETHBTC', 'BTC/USD', 'SPX', 'WTI', 'USDTUSD'].map(slashSymbol)).toEqual([
      'BTC/USD',
      'AAPL/USD',
      'USD/JPY',
      'ETH/BTC',
      'BTC/USD',
      'SPX',
      'WTI',
      'USDT/USD',
    ]);
  });
});

describe('times', () => {
  it('writes UTC as the other tables do, with an age against the given clock', () => {
    expect(formatZoned(T)).toBe('2026-11-22 20:44 UTC');
    expect(formatZonedWithAge(T, T + 3600)).toBe('2026-11-22 20:44 UTC (1h ago)');
    expect(formatZonedWithAge(undefined, T)).toBe('–');
    expect([formatZoned(1e20), formatZonedWithAge(-1e20, T, 'Europe/Madrid')]).toEqual(['–', '–']);
  });

  it('writes a named zone with its own date, daylight saving from the zone database', () => {
    expect(formatZoned(T, 'Europe/Madrid')).toBe('2026-11-22 21:44 Europe/Madrid');
    expect(formatZoned(T, 'Asia/Tokyo')).toBe('2026-11-23 05:44 Asia/Tokyo');
    expect(formatZoned(Date.UTC(2026, 6, 1, 12) / 1000, 'Europe/Madrid')).toBe('2026-07-01 14:00 Europe/Madrid');
    expect(zonedParts(T, 'America/New_York')).toEqual({
      year: 2026,
      month: 11,
      day: 22,
      hour: 15,
      minute: 44,
      weekday: 0,
    });
  });
});
