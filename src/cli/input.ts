// Checks of what the user typed, made before any request: a bad value is a usage error
// (exit 2) that names the allowed values.
import {
  ACCURACY_TIMEFRAMES,
  canonicalSymbolOf,
  DEFAULT_DEMO_SYMBOL,
  DEMO_SYMBOLS,
  EMAIL_MAX_LENGTH,
  EMAIL_PATTERN,
  MATURITY_LEVELS,
  slashedSymbol,
} from '../core/domain.js';
import { UsageError } from '../core/errors.js';
import { clean } from '../output/sanitize.js';

/** A typed value quoted for an error message, cleaned of terminal controls. */
export const shown = (value: string) => `'${clean(value)}'`;

/** One of a fixed list, case-insensitively; anything else is exit 2 naming the list. */
export function parseChoice<T extends string>(raw: string, allowed: readonly T[], what: string): T {
  const found = allowed.find((a) => a === raw.trim().toLowerCase());
  if (!found) throw new UsageError(`invalid ${what} ${shown(raw)}; choose one of ${allowed.join(', ')}`);
  return found;
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

/** `btcusd` -> `BTC/USD`: the gateway's form (and the habit of many sites) typed where REST wants a slash. */
function slashedGuess(raw: string): string | undefined {
  const text = raw.trim().toUpperCase();
  return /^[A-Z0-9.]{4,20}$/.test(text) ? slashedSymbol(text) : undefined;
}

export function parseDemoSymbol(raw: string | undefined): string {
  if (raw === undefined) return DEFAULT_DEMO_SYMBOL;
  const wanted = raw.trim().toUpperCase().replace('-', '/');
  const found = DEMO_SYMBOLS.find((s) => s === wanted);
  const guess = slashedGuess(raw);
  const suggestion = guess && DEMO_SYMBOLS.some((s) => s === guess) ? ` (did you mean ${guess}?)` : '';
  if (!found)
    throw new UsageError(
      `the demo has no symbol ${shown(raw)}${suggestion}; choose one of ${DEMO_SYMBOLS.join(', ')}`,
      {
        hint: "other symbols need a free key: 'fcast predict SYMBOL'",
      },
    );
  return found;
}

export const parseAccuracyTimeframe = (raw: string): string => parseChoice(raw, ACCURACY_TIMEFRAMES, '--tf');

export const parseMaturity = (raw: string, what = 'maturity'): (typeof MATURITY_LEVELS)[number] =>
  parseChoice(raw, MATURITY_LEVELS, what);

/** A whole number >= min, written as plain digits (no 1e3, no 0x10, no 5.0). */
export function parseWholeNumber(raw: string, what: string, min = 0): number {
  const text = raw.trim();
  const n = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n < min) {
    throw new UsageError(`${what} must be a whole number${min > 0 ? ` >= ${min}` : ''}, got ${shown(raw)}`);
  }
  return n;
}

/** A rate in 0..1. */
export function parseRate(raw: string, what: string): number {
  const text = raw.trim();
  const n = Number(text);
  if (text === '' || !Number.isFinite(n) || n < 0 || n > 1)
    throw new UsageError(`${what} must be a number from 0 to 1, got ${shown(raw)}`);
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
