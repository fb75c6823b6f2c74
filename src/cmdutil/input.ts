// Checks of what the user typed, made before any request: a bad value is a usage error
// (exit 2) that names the allowed values.
import {
  ACCURACY_TIMEFRAMES,
  canonicalSymbolOf,
  DEFAULT_DEMO_SYMBOL,
  DEMO_SYMBOLS,
  EMAIL_MAX_LENGTH,
  EMAIL_PATTERN,
  equivalentTimeframe,
  MATURITY_LEVELS,
  slashedSymbol,
} from '../core/domain.js';
import { UsageError } from '../core/errors.js';
import { clean } from '../output/sanitize.js';
import { parseDecimal } from '../core/values.js';
import type { SettledFloors } from '../evidence/gates.js';

/** A typed value quoted for an error message, cleaned of terminal controls. */
export const shown = (value: string) => `'${clean(value)}'`;

/** One of a fixed list, case-insensitively; anything else is exit 2 naming the list (and the likely one). */
export function parseChoice<T extends string>(raw: string, allowed: readonly T[], what: string): T {
  const found = allowed.find((a) => a === raw.trim().toLowerCase());
  if (!found) {
    const near = closest(raw, allowed);
    throw new UsageError(
      `invalid ${what} ${shown(raw)}${near ? ` (did you mean ${near}?)` : ''}; choose one of ${allowed.join(', ')}`,
    );
  }
  return found;
}

/** Lower case without separators: `BTC/USD`, `btc-usd` and `btcusd` are one word. */
const folded = (text: string) => text.toLowerCase().replace(/[\s/_.-]/g, '');

/**
 * The allowed value a typo most likely meant, or undefined: the same letters without
 * separators (`btcusd`), the start of one value only (`btc` -> `BTC/USD`, `grow` ->
 * `growing_sample`), else the nearest by edit distance when it is close (`1hr` -> `1h`).
 */
export function closest<T extends string>(raw: string, allowed: readonly T[]): T | undefined {
  const typed = folded(raw.trim());
  if (typed === '') return undefined;
  const same = allowed.find((a) => folded(a) === typed);
  if (same) return same;
  const starting = allowed.filter((a) => typed.length >= 2 && folded(a).startsWith(typed));
  if (starting.length === 1) return starting[0];
  // A word with another ending (`opportunity` for `opportunities`): most of it is the same start.
  const stem = Math.max(5, Math.ceil(typed.length * 0.8));
  const sameStem = allowed.filter((a) => commonPrefixLength(typed, folded(a)) >= stem);
  if (sameStem.length === 1) return sameStem[0];
  let best: T | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const a of allowed) {
    const d = editDistance(typed, folded(a));
    if (d < bestDistance) [best, bestDistance] = [a, d];
  }
  // Close means a slip of the fingers, not another word: at most 2 edits, and fewer than a third of it.
  return bestDistance <= Math.min(2, Math.floor(typed.length / 3)) ? best : undefined;
}

function commonPrefixLength(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** Levenshtein distance, with a swap of two neighbours counted as one edit. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/** `btc/usd`, `BTC-USD` -> `BTC/USD`. */
export function canonicalSymbol(raw: string): string {
  const symbol = canonicalSymbolOf(raw);
  if (symbol === undefined) {
    const guess = slashedGuess(raw);
    throw new UsageError(
      `invalid symbol ${shown(raw)}: ${guess ? `did you mean ${guess}?` : 'expected BASE/QUOTE, like BTC/USD'}`,
    );
  }
  return symbol;
}

/**
 * `btcusd` -> `BTC/USD`: the gateway's form (and the habit of many sites) typed where REST
 * wants a slash; a base alone (`btc`, `xau`) -> against the dollar, the most common quote.
 */
function slashedGuess(raw: string): string | undefined {
  const text = raw.trim().toUpperCase();
  if (!/^[A-Z0-9.]{2,20}$/.test(text)) return undefined;
  const slashed = slashedSymbol(text);
  if (slashed) return slashed;
  return /^[A-Z]{2,10}$/.test(text) && !text.startsWith('USD') ? `${text}/USD` : undefined;
}

export function parseDemoSymbol(raw: string | undefined): string {
  if (raw === undefined) return DEFAULT_DEMO_SYMBOL;
  const wanted = raw.trim().toUpperCase().replace('-', '/');
  const found = DEMO_SYMBOLS.find((s) => s === wanted);
  if (found) return found;
  const near = closest(raw, DEMO_SYMBOLS);
  throw new UsageError(
    `the demo has no symbol ${shown(raw)}${near ? ` (did you mean ${near}?)` : ''}; choose one of ${DEMO_SYMBOLS.join(', ')}`,
    {
      hint: near
        ? `run 'fcast demo ${near}'`
        : "other symbols need a free key ('fcast register --email ADDRESS'), then 'fcast predict SYMBOL'",
    },
  );
}

/** One of accuracy.php's timeframes, or its equivalent (`60min` is `1h`, `24h` is `1d`). */
export const parseAccuracyTimeframe = (raw: string): string =>
  equivalentTimeframe(raw, ACCURACY_TIMEFRAMES) ?? parseChoice(raw, ACCURACY_TIMEFRAMES, '--tf');

export const parseMaturity = (raw: string, what = 'maturity'): (typeof MATURITY_LEVELS)[number] =>
  parseChoice(raw, MATURITY_LEVELS, what);

/** A whole number from min (to max, when given), written as plain digits (no 1e3, no 0x10, no 5.0). */
export function parseWholeNumber(raw: string, what: string, min = 0, max?: number): number {
  const text = raw.trim();
  const n = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n < min || (max !== undefined && n > max)) {
    const range = max !== undefined ? ` from ${min} to ${max}` : min > 0 ? ` >= ${min}` : '';
    throw new UsageError(`${what} must be a whole number${range}, got ${shown(raw)}`);
  }
  return n;
}

/**
 * `--min-new-settled`: a whole number for every timeframe (`20`), floors for some
 * (`15min=500,1h=100`), or both (`20,4h=0,1d=0`: 20 for each timeframe not named).
 */
export function parseSettledFloors(raw: string, what: string): SettledFloors {
  let every: number | undefined;
  const timeframes: Record<string, number> = {};
  for (const part of raw.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) {
      if (every !== undefined)
        throw new UsageError(`${what}: one number for every timeframe, got two in ${shown(raw)}`);
      every = parseWholeNumber(part, what);
      continue;
    }
    const typed = part.slice(0, eq).trim();
    const tf =
      equivalentTimeframe(typed, ACCURACY_TIMEFRAMES) ?? parseChoice(typed, ACCURACY_TIMEFRAMES, `${what} TF=N: TF`);
    if (Object.hasOwn(timeframes, tf)) throw new UsageError(`${what}: ${tf} is given twice in ${shown(raw)}`);
    timeframes[tf] = parseWholeNumber(part.slice(eq + 1), `${what} ${tf}=N: N`);
  }
  return { ...(every !== undefined && { every }), timeframes };
}

/** A rate in 0..1. */
export function parseRate(raw: string, what: string): number {
  const n = parseDecimal(raw, { min: 0, max: 1 });
  if (n === undefined) throw new UsageError(`${what} must be a number from 0 to 1, got ${shown(raw)}`);
  return n;
}

export function parseEmail(raw: string): string {
  const email = raw.trim();
  if (email.length > EMAIL_MAX_LENGTH)
    throw new UsageError(
      `the e-mail address is ${email.length} characters long; at most ${EMAIL_MAX_LENGTH} are allowed`,
    );
  if (!EMAIL_PATTERN.test(email)) throw new UsageError(`invalid e-mail address ${shown(raw)}`);
  return email;
}
