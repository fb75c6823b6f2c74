import { describe, expect, it } from 'vitest';
import {
  DASH,
  formatAge,
  formatDuration,
  formatMinutes,
  formatPercent,
  formatPrice,
  formatRate,
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
    expect(formatRate(0.6123)).toBe('61.2%');
  });

  it('renders durations, horizons, UTC times and ages', () => {
    expect(formatDuration(45)).toBe('45s');
    expect(formatDuration(3900)).toBe('1h 5m');
    expect(formatDuration(3 * 86400 + 7200)).toBe('3d 2h');
    expect(formatMinutes(90)).toBe('1h30m');
    expect(formatMinutes(2160)).toBe('36h');
    expect(formatUtc(Date.UTC(2026, 10, 22, 9, 46, 30) / 1000)).toBe('2026-11-22 09:46 UTC');
    expect(formatAge(1000, 4600)).toBe('1h ago');
    expect(formatAge(4600, 1000)).toBe('in 1h');
  });
});
