// The symbols list that TAB offers after `fcast predict`, kept in the config directory so
// completion never waits for the network: `fcast symbols` writes it whenever it fetches the
// list, and `fcast __complete-symbols` prints it and, at most once a day, refreshes it in
// a detached process. This module is also built into a CommonJS file that the launcher loads
// on TAB before anything else (see tab.ts), so it imports nothing heavy.
import { readOwnFile } from '../core/own-file.js';
import { mkdirSync, statSync, utimesSync } from 'node:fs';
import { writeAtomically } from '../config/atomic-write.js';
import { configLocationProblem } from '../config/config-location.js';
import { ConfigError } from '../core/errors.js';
import { join } from 'node:path';
import type { Env } from '../core/context.js';
import { fcastCommand } from '../core/package-files.js';
import type { Settings } from '../config/settings.js';
import { COMPLETE_SYMBOLS_COMMAND } from './names.js';

const SYMBOLS_CACHE_FILE = 'symbols-cache.json';
export const SYMBOLS_CACHE_MAX_AGE_MS = 24 * 60 * 60 * 1000;

// The shells split the list into words and bash expands each one: anything but a plain
// symbol (`BTC/USD`, `BRK.B/USD`) is dropped rather than trusted.
const PLAIN_SYMBOL = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,39}$/;

const isPlainSymbol = (s: unknown): s is string => typeof s === 'string' && PLAIN_SYMBOL.test(s);

export const symbolsCachePath = (configDir: string): string => join(configDir, SYMBOLS_CACHE_FILE);

/**
 * Saves the symbols for completion, less any the run's redactor would mask: TAB prints the
 * list without one (it loads no redactor, to stay as quick as a keystroke needs), so the
 * commands that write it pass theirs. Never throws: a cache that cannot be written only means
 * TAB offers less, which must not fail the command that fetched the list.
 */
export function writeSymbolsCache(
  configDir: string,
  symbols: readonly string[],
  redactor: { redact(text: string): string },
): boolean {
  return writeList(
    configDir,
    symbols.filter((s) => isPlainSymbol(s) && redactor.redact(s) === s),
  );
}

function writeList(configDir: string, symbols: readonly string[]): boolean {
  try {
    mkdirSync(configDir, { recursive: true, mode: 0o700 });
    // Only in a directory of the user's own (the config directory's rules), and through the
    // atomic writer: a temp name no one can guess, created exclusively, never through a link.
    if (configLocationProblem(configDir, (err) => new ConfigError(String(err)))) return false;
    writeAtomically(symbolsCachePath(configDir), `${JSON.stringify({ symbols })}\n`, 0o600);
    return true;
  } catch {
    return false;
  }
}

export interface SymbolsCache {
  symbols: string[];
  /** When it was last written or last sent for a refresh, in milliseconds since the epoch. */
  modifiedMs: number;
}

/** The cached list, or undefined when there is none or it cannot be read. */
export function readSymbolsCache(configDir: string): SymbolsCache | undefined {
  const path = symbolsCachePath(configDir);
  try {
    // A cache is a regular file of its own or nothing: not a link, FIFO or device.
    const text = readOwnFile(path, 4 * 1024 * 1024);
    if (text === undefined) return undefined;
    const data = JSON.parse(text) as { symbols?: unknown };
    const symbols = Array.isArray(data.symbols) ? data.symbols.filter(isPlainSymbol) : [];
    return { symbols, modifiedMs: statSync(path).mtimeMs };
  } catch {
    return undefined;
  }
}

export function needsRefresh(cache: SymbolsCache | undefined, nowMs: number): boolean {
  return cache === undefined || nowMs - cache.modifiedMs >= SYMBOLS_CACHE_MAX_AGE_MS;
}

/**
 * Marks the cache as being refreshed, so the next TABs do not start refreshes of their own:
 * a failed refresh (offline, key revoked) is tried again a day later, not on every keystroke.
 */
export function markRefreshStarted(configDir: string, cache: SymbolsCache | undefined, nowMs: number): boolean {
  if (cache === undefined) return writeList(configDir, []);
  try {
    const now = new Date(nowMs);
    utimesSync(symbolsCachePath(configDir), now, now);
    return true;
  } catch {
    return false;
  }
}

/** Runs `fcast __complete-symbols --refresh` detached: the TAB that started it does not wait. */
function spawnRefresh(env: Env): void {
  try {
    // Loaded here, not at the top: node:child_process is dear to load
    // (docs/decisions/2026-11-23-startup-figures.md), and TAB spawns at most once a day.
    const { spawn } = process.getBuiltinModule('node:child_process');
    const fcast = fcastCommand();
    const child = spawn(fcast.file, [...fcast.args, COMPLETE_SYMBOLS_COMMAND, '--refresh'], {
      detached: true,
      stdio: 'ignore',
      env,
    });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // Completion goes on with the list it has.
  }
}

export interface SymbolsListing {
  configDir: string;
  env: Env;
  nowMs: number;
  /** The settings (the watchlist, and what a refresh needs); may throw (a bad config file). */
  settings(): Settings;
  write(text: string): void;
}

/**
 * What TAB gets: the watchlist's symbols first (what the user follows), then the cached ones,
 * one per line, and a background refresh when the list is a day old and a service and key
 * are set. Quiet whatever happens: the shells discard stderr there, and a missing or
 * unreadable cache (or config) simply offers less.
 */
export function listSymbols(listing: SymbolsListing): void {
  const { configDir, nowMs } = listing;
  const settings = settingsOrNone(listing);
  const current = readSymbolsCache(configDir);
  const watched = (settings?.watchlist?.value ?? []).filter(isPlainSymbol);
  const offered = [...watched, ...(current?.symbols ?? []).filter((s) => !watched.includes(s))];
  if (offered.length > 0) listing.write(`${offered.join('\n')}\n`);
  if (needsRefresh(current, nowMs) && canFetchSymbols(settings) && markRefreshStarted(configDir, current, nowMs))
    spawnRefresh(listing.env);
}

/** The settings, or none when they cannot be read: TAB offers what it can without them. */
function settingsOrNone(listing: SymbolsListing): Settings | undefined {
  try {
    return listing.settings();
  } catch {
    return undefined;
  }
}

/** A refresh needs a service and a key; without them the cache stays as it is. */
const canFetchSymbols = (settings: Settings | undefined): boolean =>
  settings?.apiKey !== undefined && settings.baseUrl !== undefined;
