// The settings' parsers: each reads a value as typed (a flag), as set (a variable) or as the
// config file holds it, and says what is wrong with it naming where it was found. The table
// that uses them, and the precedence, are settings.ts.
import { canonicalSymbolOf } from '../core/domain.js';
import { parseDecimal } from '../core/values.js';

/** A bad value whose exit code depends on who typed it: a flag is a usage error (2), the environment or the file a config error (3). */
export class SettingError extends Error {}

/** A day. Timers overflow past ~24.8 days (and then fire at once), and no wait needs more. */
const MAX_SECONDS = 86_400;

/**
 * A value as typed or as the file holds it, as text: an object or array from the file as its
 * JSON (null as 'null', as String gives it). String() would read `[5]` as `5`, and throws on
 * `{"toString": 1}` (exit 1).
 */
export const asText = (raw: unknown): string => (typeof raw === 'object' ? JSON.stringify(raw) : String(raw));

export function parseBaseUrl(raw: unknown, where: string): string {
  const text = asText(raw).trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new SettingError(`${where} must be an http(s) URL, got '${text}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SettingError(`${where} must be an http(s) URL, got '${text}'`);
  }
  if (url.username || url.password) throw new SettingError(`${where} must not carry credentials`);
  return text;
}

export function parseNumber(
  raw: unknown,
  where: string,
  range: { min: number; minIncluded: boolean; what: string },
): number {
  const text = asText(raw);
  const n = parseDecimal(text, { min: range.min, max: MAX_SECONDS, minExcluded: !range.minIncluded });
  if (n === undefined) {
    const what = range.minIncluded ? `${range.what} to ${MAX_SECONDS}` : `${range.what}, at most ${MAX_SECONDS}`;
    throw new SettingError(`${where} must be ${what}, got '${text}'`);
  }
  return n;
}

export function parseCount(raw: unknown, where: string): number {
  const text = asText(raw);
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isInteger(n) || n < 0 || n > 10)
    throw new SettingError(`${where} must be a whole number from 0 to 10, got '${text}'`);
  return n;
}

/** `BTC/USD,eth-usd` or `BTC/USD ETH/USD` (or a JSON array in the file): canonical symbols, without repeats. */
export function parseSymbolList(raw: unknown, where: string): string[] | undefined {
  const items = Array.isArray(raw) ? raw.map(asText) : asText(raw).split(/[\s,]+/);
  const symbols: string[] = [];
  for (const item of items.map((i) => i.trim()).filter((i) => i !== '')) {
    const symbol = canonicalSymbolOf(item);
    if (symbol === undefined)
      throw new SettingError(`${where} must list symbols like BTC/USD,ETH/USD; '${item}' is not BASE/QUOTE`);
    if (!symbols.includes(symbol)) symbols.push(symbol);
  }
  return symbols.length > 0 ? symbols : undefined;
}

/** A switch: true/false, 1/0, yes/no, on/off (any case; a JSON boolean in the file reads as its text); blank counts as unset. */
export function parseSwitch(raw: unknown, where: string): boolean | undefined {
  const text = asText(raw).trim().toLowerCase();
  if (text === '') return undefined;
  if (['1', 'true', 'yes', 'on'].includes(text)) return true;
  if (['0', 'false', 'no', 'off'].includes(text)) return false;
  throw new SettingError(`${where} must be on or off (1/0, true/false, yes/no), got '${asText(raw)}'`);
}

/** A key: a string, trimmed; blank counts as unset. Whether it is well formed is requireKey's question. */
export function parseSecret(raw: unknown, where: string): string | undefined {
  if (typeof raw !== 'string') throw new SettingError(`${where} is not a string`);
  return raw.trim() || undefined;
}
