// Numbers and times as people read them. Every function takes possibly-missing values and
// shows a dash for them, never `null`, `undefined` or `NaN`.
import { slashedSymbol } from '../core/domain.js';
import { wallClockParts } from '../core/instant.js';
import { finiteNumber } from '../core/values.js';

export const DASH = '–';

const isNum = (v: unknown): v is number => finiteNumber(v) !== undefined;

/**
 * 97,123.46: en-US grouping, fixed decimals, as toLocaleString('en-US') prints them. Written
 * by hand because a process's first toLocaleString loads ICU's number data, which costs more
 * than the rest of a table (docs/decisions/2026-11-23-startup-figures.md).
 */
export function formatNumber(v: unknown, decimals = 2): string {
  if (!isNum(v)) return DASH;
  const { whole, fraction } = roundDecimal(Math.abs(v), Math.min(100, Math.max(0, Math.trunc(decimals))));
  // Unlike Intl, no sign on a value that rounds to zero: -0.00 reads as a change that is not there.
  const sign = v < 0 && /[1-9]/.test(whole + fraction) ? '-' : '';
  return `${sign}${groupThousands(whole)}${fraction ? `.${fraction}` : ''}`;
}

/**
 * A figure for a program to read (a step output): at most `places` decimals, rounded as
 * formatNumber rounds, without grouping or trailing zeros (`0.4864`, `0.55`, `742`).
 */
export function plainDecimal(v: number, places: number): string {
  const { whole, fraction } = roundDecimal(Math.abs(v), places);
  const kept = fraction.replace(/0+$/, '');
  const sign = v < 0 && /[1-9]/.test(whole + kept) ? '-' : '';
  return `${sign}${whole}${kept ? `.${kept}` : ''}`;
}

/**
 * Rounds half away from zero on the shortest decimal that reads back as the number (what
 * String() prints), as Intl does: 1.005 gives 1.01, where toFixed's exact binary gives 1.00.
 */
function roundDecimal(abs: number, places: number): { whole: string; fraction: string } {
  const [mantissa = '0', exponent = '0'] = String(abs).split('e');
  const [intDigits = '0', fracDigits = ''] = mantissa.split('.');
  let digits = intDigits + fracDigits;
  let point = intDigits.length + Number(exponent);
  if (point < 1) {
    digits = '0'.repeat(1 - point) + digits;
    point = 1;
  }
  const cut = point + places;
  digits = digits.padEnd(cut + 1, '0');
  let kept = digits.slice(0, cut);
  if (digits.charCodeAt(cut) >= 53 /* '5' */) {
    kept = incrementDigits(kept);
    if (kept.length > cut) point += 1;
  }
  return { whole: kept.slice(0, point).replace(/^0+(?=\d)/, ''), fraction: kept.slice(point) };
}

/** "0999" + 1 = "1000"; "999" + 1 = "1000". */
function incrementDigits(digits: string): string {
  let i = digits.length - 1;
  while (i >= 0 && digits[i] === '9') i--;
  if (i < 0) return `1${'0'.repeat(digits.length)}`;
  return digits.slice(0, i) + String(Number(digits[i]) + 1) + '0'.repeat(digits.length - i - 1);
}

/** Enough decimals for the instrument: 97,123.45 for BTC, 1.08123 for EUR/USD. */
export function formatPrice(v: unknown): string {
  if (!isNum(v)) return DASH;
  const abs = Math.abs(v);
  return formatNumber(v, abs >= 1000 ? 2 : abs >= 100 ? 3 : abs >= 1 ? 5 : 6);
}

/** Whether `v` shows as zero with `decimals` decimals: no sign, no colour, no change. */
export const roundsToZero = (v: number, decimals: number): boolean => /^[-+]?[0.]+$/.test(v.toFixed(decimals));

/** A value already in percent: +1.23%; 0.00% (never -0.00%) for what rounds to zero. */
export function formatPercent(v: unknown, decimals = 2): string {
  if (!isNum(v)) return DASH;
  return `${formatSigned(v, decimals)}%`;
}

/** A probability or rate in 0..1, as a percentage: 61.2%. */
export function formatRate(v: unknown, decimals = 1): string {
  if (!isNum(v)) return DASH;
  return `${(v * 100).toFixed(decimals)}%`;
}

/** +1.23, -0.45, and 0.00 for what rounds to zero either way. */
export function formatSigned(v: unknown, decimals = 2): string {
  if (!isNum(v)) return DASH;
  if (roundsToZero(v, decimals)) return (0).toFixed(decimals);
  return `${v > 0 ? '+' : ''}${v.toFixed(decimals)}`;
}

/**
 * 45s, 12m, 1h5m, 36h, 2d3h: the one way fcast writes a span of time (a horizon, an age, a
 * countdown), without spaces, so that a cell stays one word in a piped table.
 */
export function formatDuration(seconds: unknown): string {
  if (!isNum(seconds)) return DASH;
  const s = Math.round(Math.abs(seconds));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 48) return m % 60 ? `${h}h${m % 60}m` : `${h}h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d}d${h % 24}h` : `${d}d`;
}

/** Minutes as a horizon, written as every other span: 5m, 1h30m, 36h. */
export function formatMinutes(minutes: unknown): string {
  return isNum(minutes) ? formatDuration(minutes * 60) : DASH;
}

/** Epoch seconds as `2026-11-22 02:21 UTC`. */
export function formatUtc(epochSeconds: unknown): string {
  if (!isNum(epochSeconds)) return DASH;
  const date = new Date(epochSeconds * 1000);
  // Past ±8.64e15 ms a Date is invalid and toISOString throws: a body's 1e20 is no time.
  if (Number.isNaN(date.getTime())) return DASH;
  const iso = date.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** `1h5m ago`, or `in 2h` for the future. */
export function formatAge(epochSeconds: unknown, nowSeconds: number): string {
  if (!isNum(epochSeconds)) return DASH;
  const delta = nowSeconds - epochSeconds;
  if (Math.abs(delta) < 1) return 'now';
  return delta > 0 ? `${formatDuration(delta)} ago` : `in ${formatDuration(-delta)}`;
}

/**
 * A time's age beside it, in one readable unit past two days (`690 days ago`, not `690d3h
 * ago`: the hours say nothing there, and a column of them no longer lines up).
 */
function readableAge(epochSeconds: number, nowSeconds: number): string {
  const days = Math.floor(Math.abs(nowSeconds - epochSeconds) / 86_400);
  if (days < 2) return formatAge(epochSeconds, nowSeconds);
  const span = `${days.toLocaleString('en-US')} days`;
  return nowSeconds > epochSeconds ? `${span} ago` : `in ${span}`;
}

/** A UTC time with its age: `2026-11-22 02:21 UTC (1h5m ago)`, `2025-01-06 04:50 UTC (685 days ago)`. */
export const formatTimeWithAge = (epochSeconds: unknown, nowSeconds: number): string =>
  isNum(epochSeconds) ? `${formatUtc(epochSeconds)} (${readableAge(epochSeconds, nowSeconds)})` : DASH;

/** An ISO date-time string as epoch seconds, when it is one. */
export function isoToEpoch(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

// ---- Column formatting for the gateway views and the chart: fixed decimals per column,
// thousands separators, signed changes, times in UTC or in a zone the user named. No
// toLocaleString here: these run once per cell.

/** `1234567.5` -> `1,234,567.5`: commas in the integer part of an already formatted number. */
export function groupThousands(text: string): string {
  const m = /^([+-]?)(\d+)(.*)$/.exec(text);
  if (!m) return text;
  return `${m[1]}${m[2]!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${m[3]}`;
}

/** A number with exactly `decimals` decimals and thousands separators; `signed` adds a `+` above zero. */
export function formatFixed(v: unknown, decimals: number, signed = false): string {
  if (!isNum(v)) return DASH;
  // formatNumber's rounding, so a price reads the same here as in the forecast table.
  const text = formatNumber(v, decimals);
  // -0.00 reads as a change that is not there.
  if (/^-[0.,]+$/.test(text)) return text.slice(1);
  return signed && v > 0 && !/^[0.,]+$/.test(text) ? `+${text}` : text;
}

/** How many decimals a number was sent with: 1.5 -> 1, 92283.95 -> 2, 1e-7 -> 7. */
export function decimalsOf(v: number): number {
  if (!Number.isFinite(v) || Number.isInteger(v)) return 0;
  const [mantissa = '', exponent] = String(v).split('e');
  const fraction = mantissa.split('.')[1]?.length ?? 0;
  return Math.max(0, fraction - Number(exponent ?? 0));
}

/** One number of decimals for a whole column: the most any value was sent with, within bounds. */
export function columnDecimals(values: readonly unknown[], min: number, max: number): number {
  const sent = values.filter(isNum).map(decimalsOf);
  return Math.min(max, Math.max(min, ...sent));
}

/** `BTCUSD` -> `BTC/USD`, as fcast writes symbols everywhere else; codes with no known quote stay as sent. */
export function slashSymbol(code: unknown): string {
  if (typeof code !== 'string') return DASH;
  if (code.includes('/')) return code;
  return slashedSymbol(code) ?? code;
}

/** Wall-clock parts of an instant in one time zone. */
export interface ZonedParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  /** 0 = Sunday. */
  weekday: number;
}

const WEEKDAY_NUMBER: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };
const ZONE_FIELDS: Intl.DateTimeFormatOptions = {
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  weekday: 'short',
};

/** The wall clock in `zone` at an instant (one formatter per zone, made on first use). */
export function zonedParts(epochSeconds: number, zone: string): ZonedParts {
  if (zone === 'UTC') {
    const d = new Date(epochSeconds * 1000);
    return {
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      day: d.getUTCDate(),
      hour: d.getUTCHours(),
      minute: d.getUTCMinutes(),
      weekday: d.getUTCDay(),
    };
  }
  const p = wallClockParts(epochSeconds, zone, ZONE_FIELDS);
  return {
    year: Number(p.year),
    month: Number(p.month),
    day: Number(p.day),
    hour: Number(p.hour) % 24,
    minute: Number(p.minute),
    weekday: WEEKDAY_NUMBER[p.weekday ?? 'Sun'] ?? 0,
  };
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** `2026-11-22 14:05 UTC`, or `2026-11-22 15:05 Europe/Madrid` when a zone is named. */
export function formatZoned(epochSeconds: unknown, zone = 'UTC'): string {
  // Beyond what a Date can hold there is no calendar date to write.
  if (!isNum(epochSeconds) || Math.abs(epochSeconds) > 8.64e12) return DASH;
  const p = zonedParts(epochSeconds, zone);
  return `${p.year}-${pad2(p.month)}-${pad2(p.day)} ${pad2(p.hour)}:${pad2(p.minute)} ${zone}`;
}

/** `2026-11-22 14:05 UTC (3h ago)`, in `zone` when one is named: every time a gateway view shows. */
export function formatZonedWithAge(epochSeconds: unknown, nowSeconds: number, zone = 'UTC'): string {
  const when = formatZoned(epochSeconds, zone);
  return when === DASH ? DASH : `${when} (${formatAge(epochSeconds, nowSeconds)})`;
}

/** `HH:MM` of an instant in a zone. */
export function formatClock(epochSeconds: number, zone = 'UTC'): string {
  const p = zonedParts(epochSeconds, zone);
  return `${pad2(p.hour)}:${pad2(p.minute)}`;
}
