import { describe, expect, it } from 'vitest';
import {
  DASH,
  formatAge,
  formatDuration,
  formatFixed,
  formatMinutes,
  formatNumber,
  formatPercent,
  formatPrice,
  formatRate,
  formatSigned,
  formatUtc,
} from '../../src/output/format.js';

describe('formatting', () => {
  it('shows prices with the decimals the instrument needs', () => {
    expect(formatPrice(97123.456)).toBe('97,123.46');
    expect(formatPrice(1.081234)).toBe('1.08123');
    expect(formatPrice(150.1234)).toBe('150.123');
  });

  it('shows a dash for missing numbers, never null or NaN', () => {
    for (const f of [formatPrice, formatPercent, formatRate, formatDuration, formatMinutes, formatUtc]) {
      expect(f(null)).toBe(DASH);
      expect(f(undefined)).toBe(DASH);
      expect(f(Number.NaN)).toBe(DASH);
    }
  });

  it('signs percentages and renders rates as percentages', () => {
    expect(formatPercent(1.234)).toBe('+1.23%');
    expect(formatPercent(-0.5)).toBe('-0.50%');
    // What rounds to zero is shown unsigned: no change where there is none.
    expect(formatPercent(-0.001)).toBe('0.00%');
    expect(formatPercent(0.004)).toBe('0.00%');
    expect(formatPercent(-0)).toBe('0.00%');
    expect(formatPercent(-0.00004, 4)).toBe('0.0000%');
    expect(formatPercent(-0.00005, 4)).toBe('-0.0001%');
    expect(formatSigned(-0.004)).toBe('0.00');
    expect(formatSigned(0.005, 2)).toBe('+0.01');
    expect(formatRate(0.6123)).toBe('61.2%');
  });

  it('renders durations, horizons, UTC times and ages', () => {
    expect(formatDuration(45)).toBe('45s');
    expect(formatDuration(3900)).toBe('1h5m');
    expect(formatDuration(3 * 86400 + 7200)).toBe('3d2h');
    expect(formatMinutes(90)).toBe('1h30m');
    expect(formatMinutes(2160)).toBe('36h');
    expect(formatUtc(Date.UTC(2026, 10, 22, 9, 46, 30) / 1000)).toBe('2026-11-22 09:46 UTC');
    expect(formatUtc(1e20)).toBe(DASH); // beyond any Date: a dash, not a RangeError
    expect(formatAge(1000, 4600)).toBe('1h ago');
    expect(formatAge(4600, 1000)).toBe('in 1h');
  });

  it('groups thousands and rounds exactly as toLocaleString(en-US) does, without calling it', () => {
    expect(formatNumber(1234567.891)).toBe('1,234,567.89');
    expect(formatNumber(999.995)).toBe('1,000.00');
    expect(formatNumber(1.005)).toBe('1.01'); // the shortest decimal rounds, not the binary 1.00499...
    // No signed zero: -0.001 rounds to a zero, not to a fall (Intl would write -0.00).
    expect(formatNumber(-0.001)).toBe('0.00');
    expect(formatNumber(-0)).toBe('0.00');
    expect(formatNumber(1e25, 0)).toBe('10,000,000,000,000,000,000,000,000');
    const intl = (v: number, d: number) =>
      v.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d }).replace(/^-(?=[0.,]+$)/, '');
    const values = [0, -0, 0.5, 2.5, -1.005, 123.4445, 1e21, -1.5e22, 5e-7, 97123.456, 2 ** 53, 1234.5678e-9];
    for (let i = 1; i < 400; i++) values.push(Math.sin(i) * 10 ** ((i % 24) - 8), Math.round(i * 7919.37) / 1000);
    for (const v of values)
      for (const d of [0, 1, 2, 3, 6, 20]) expect(formatNumber(v, d), `${v} ${d}`).toBe(intl(v, d));
  });
});

describe('formatFixed', () => {
  it('rounds as formatNumber does, so a value reads the same in every view', () => {
    for (const v of [1.005, 2.675, 1234.5678, -1.125, 96515.1, 1.045])
      for (const d of [0, 1, 2, 3]) expect(formatFixed(v, d)).toBe(formatNumber(v, d));
  });

  it('shows no sign on a value that rounds to zero, and + above zero only when asked', () => {
    expect(formatFixed(-0.001, 2)).toBe('0.00');
    expect(formatFixed(0.001, 2, true)).toBe('0.00');
    expect(formatFixed(1.5, 1, true)).toBe('+1.5');
    expect(formatFixed(-1.5, 1, true)).toBe('-1.5');
    expect(formatFixed(null, 2)).toBe(DASH);
  });
});
