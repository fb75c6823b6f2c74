// The flags the journal's subcommands share: the filters (symbol, timeframe, a time range), the
// flat band, the bins, and the report's gates. Each value is checked while the command line is
// read (exit 2). Imported when the command tree is built: nothing heavy.
import { Option } from 'commander';
import { flag, optionFlag, valueFlag } from './define.js';
import { isoSeconds, parseInstant } from '../core/instant.js';
import { UsageError } from '../core/errors.js';
import { DEFAULT_FLAT_BAND_PCT, originOf } from '../journal/record.js';
import { canonicalSymbol, parseRate, parseWholeNumber, shown } from './input.js';
import { parseTimeframeList } from './forecast-flags.js';
import { parseDecimal } from '../core/values.js';

export interface JournalFilterFlags {
  /** `all`, `unknown` or a normalised origin (parseOriginFlag). */
  origin?: string;
  symbol?: string[];
  tf?: string[];
  since?: number;
  until?: number;
}

/** `--symbol BTC/USD,eth-usd` (repeatable): canonical symbols, without repeats. */
export function parseSymbolList(raw: string, previous: string[] = []): string[] {
  const items = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 0) throw new UsageError(`--symbol needs symbols like BTC/USD; got ${shown(raw)}`);
  const symbols = items.map(canonicalSymbol);
  return [...previous, ...symbols.filter((s) => !previous.includes(s))];
}

/** An instant as typed (2026-11-24, 2026-11-24T19:00Z, epoch seconds), in epoch seconds. */
export function parseInstantFlag(raw: string, what: string): number {
  const ms = parseInstant(raw);
  if (ms === undefined)
    throw new UsageError(
      `${what} must be an ISO 8601 time like 2026-11-24 or 2026-11-24T19:00Z (UTC unless a zone is given), or epoch seconds; got ${shown(raw)}`,
    );
  return Math.floor(ms / 1000);
}

/** `--origin URL|unknown|all`: the origin normalised (lower case, no default port, no path), or the word. */
export function parseOriginFlag(raw: string, words: readonly string[] = ['unknown', 'all']): string {
  const text = raw.trim();
  if (words.includes(text.toLowerCase())) return text.toLowerCase();
  const origin = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? originOf(text) : undefined;
  if (origin === undefined)
    throw new UsageError(
      `--origin must be a base URL like https://api.example.com, or ${words.join(' or ')}; got ${shown(raw)}`,
    );
  return origin;
}

export const ORIGIN_OPTION = () =>
  new Option(
    '--origin <url|unknown|all>',
    "only the records of this service (default: the base URL's; unknown: recorded before fcast kept origins; all: every one)",
  ).argParser((raw) => parseOriginFlag(raw));

/** A flat band in percent: 0 or more, at most 100. */
export function parseFlatBand(raw: string): number {
  const n = parseDecimal(raw, { min: 0, max: 100 });
  if (n === undefined)
    throw new UsageError(
      `--flat-band must be a percentage from 0 to 100 (${DEFAULT_FLAT_BAND_PCT} is the service's), got ${shown(raw)}`,
    );
  return n;
}

/** The filters every reading subcommand takes: symbol, timeframe and a time range. */
export const FILTER_FLAGS = {
  symbol: optionFlag<string[]>(() =>
    new Option('--symbol <symbol,...>', 'only these symbols (repeatable)').argParser(parseSymbolList),
  ),
  tf: optionFlag<string[]>(() =>
    new Option('--tf <tf,...>', 'only these timeframes, e.g. 15min,1h (repeatable)').argParser(parseTimeframeList),
  ),
  since: optionFlag<number>(() =>
    new Option('--since <time>', 'only forecasts made at or after this time (ISO 8601 or epoch seconds)').argParser(
      (raw) => parseInstantFlag(raw, '--since'),
    ),
  ),
  until: optionFlag<number>(() =>
    new Option('--until <time>', 'only forecasts made before this time').argParser((raw) =>
      parseInstantFlag(raw, '--until'),
    ),
  ),
};

export const FLAT_BAND_OPTION = () =>
  new Option(
    '--flat-band <pct>',
    `neutral when |return| is below this many percent (default ${DEFAULT_FLAT_BAND_PCT}, the service's)`,
  ).argParser(parseFlatBand);

export const ORIGIN_FLAG = { origin: optionFlag<string>(ORIGIN_OPTION) };
export const FLAT_BAND_FLAG = { flatBand: optionFlag<number>(FLAT_BAND_OPTION) };

/** The report's gates (exit 8). */
export const GATE_FLAGS = {
  minSettled: valueFlag('--min-settled <n>', 'gate: every timeframe has at least N settled forecasts', (raw) =>
    parseWholeNumber(raw, '--min-settled'),
  ),
  maxBrier: valueFlag('--max-brier <x>', "gate: every timeframe's call.brier at most X, 0..1 (null fails)", (raw) =>
    parseRate(raw, '--max-brier'),
  ),
  minHitRate: valueFlag('--min-hit-rate <r>', "gate: every timeframe's hit_rate at least R, 0..1 (null fails)", (raw) =>
    parseRate(raw, '--min-hit-rate'),
  ),
};

/** Under GitHub Actions, the annotations and the step summary; `--no-annotations` turns them off (false). */
export const ANNOTATIONS_FLAG = {
  annotations: flag(
    '--no-annotations',
    'under GitHub Actions (GITHUB_ACTIONS=true): no ::error/::warning lines on stderr, no step summary',
  ),
};

/** Reliability bins over [0, 1] without --bins. */
export const DEFAULT_BINS = 10;

export const parseBins = (raw: string): number => parseWholeNumber(raw, '--bins', 1, 100);

/** --since and --until together must leave a range: since before until (until is exclusive). */
export function checkTimeRange(f: JournalFilterFlags): void {
  if (f.since === undefined || f.until === undefined || f.since < f.until) return;
  throw new UsageError(
    `--since (${isoSeconds(f.since)}) must be before --until (${isoSeconds(f.until)}): forecasts made at or after --since and before --until`,
  );
}
