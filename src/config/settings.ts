// Settings: flag > environment variable > config file > built-in default, each declared once in
// SETTINGS below (name, flag, environment variable, config key, default, parser, help line);
// the global flags, the help footer, `fcast config`, resolveSettings and doctor are built from it.
// Reading is plain fs + JSON.parse (every command reads); writing is config-store.ts.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CONFIG_FILE_NAME, configLocationProblem } from './config-location.js';
import type { Ctx, Env } from '../core/context.js';
import { canonicalSymbolOf } from '../core/domain.js';
import { ConfigError, failureReason, UsageError } from '../core/errors.js';
import { describeMalformedKey, GATEWAY_KEY_KIND, type KeyKind, REST_KEY_KIND } from './keys.js';
import { parseDecimal } from '../core/values.js';

/** A bad value whose exit code depends on who typed it: a flag is a usage error (2), the environment or the file a config error (3). */
export class SettingError extends Error {}

/** A day. Timers overflow past ~24.8 days (and then fire at once), and no wait needs more. */
const MAX_SECONDS = 86_400;

interface SettingSpec<T> {
  /** The flag as commander declares it; the option's attribute is the Settings field's name. */
  flag?: string;
  env: string;
  /** Its name in config.json. */
  configKey: string;
  /** Stored by register / auth login; never set, shown or removed with `fcast config`. */
  secret?: true;
  default?: T;
  /** `where` names the origin (`--timeout`, `FCAST_TIMEOUT`, `'timeout' in PATH`); undefined means unset. */
  parse(raw: unknown, where: string): T | undefined;
  /** For --help; the flag's line adds the environment variable and default. */
  help: string;
  /** The help footer's note; defaults to the flag and config key. */
  footer?: string;
}

const spec = <T>(s: SettingSpec<T>) => s;

export const SETTINGS = {
  baseUrl: spec<string>({
    flag: '--base-url <url>',
    env: 'FCAST_BASE_URL',
    configKey: 'base-url',
    parse: parseBaseUrl,
    help: 'base URL of the service',
  }),
  apiKey: spec<string>({
    env: 'FCAST_API_KEY',
    configKey: 'api-key',
    secret: true,
    parse: parseSecret,
    help: 'REST key (never a flag)',
    footer: 'register, auth login',
  }),
  gatewayKey: spec<string>({
    env: 'FCAST_GATEWAY_KEY',
    configKey: 'gateway-key',
    secret: true,
    parse: parseSecret,
    help: 'gateway key; else the REST key',
    footer: 'auth login --gateway',
  }),
  timeout: spec<number>({
    flag: '--timeout <seconds>',
    env: 'FCAST_TIMEOUT',
    configKey: 'timeout',
    default: 30,
    parse: (raw, where) => parseNumber(raw, where, { min: 0, minIncluded: false, what: 'a number of seconds above 0' }),
    help: 'request deadline',
  }),
  retries: spec<number>({
    flag: '--retries <n>',
    env: 'FCAST_RETRIES',
    configKey: 'retries',
    default: 2,
    parse: parseCount,
    help: 'automatic retries',
  }),
  maxWait: spec<number>({
    flag: '--max-wait <seconds>',
    env: 'FCAST_MAX_WAIT',
    configKey: 'max-wait',
    default: 60,
    parse: (raw, where) => parseNumber(raw, where, { min: 0, minIncluded: true, what: 'a number of seconds from 0' }),
    help: 'longest wait accepted for a retry',
  }),
  watchlist: spec<string[]>({
    env: 'FCAST_WATCHLIST',
    configKey: 'watchlist',
    parse: parseSymbolList,
    help: "predict's symbols when given none",
    footer: 'e.g. BTC/USD,ETH/USD',
  }),
  record: spec<boolean>({
    env: 'FCAST_RECORD',
    configKey: 'record',
    default: false,
    parse: parseSwitch,
    help: 'record forecasts shown (journal)',
    footer: 'or --record',
  }),
} as const;

export type SettingName = keyof typeof SETTINGS;
type ValueOf<N extends SettingName> = NonNullable<ReturnType<(typeof SETTINGS)[N]['parse']>>;
const NAMES = Object.keys(SETTINGS) as SettingName[];

/** The settings `fcast config` sets: every one with a config key that is not a secret. */
export const CONFIG_KEYS = NAMES.filter((n) => !SETTINGS[n].secret).map((n) => SETTINGS[n].configKey);
export const SECRET_KEYS = NAMES.filter((n) => SETTINGS[n].secret).map((n) => SETTINGS[n].configKey);
export const settingOfConfigKey = (key: string): SettingName | undefined =>
  NAMES.find((n) => SETTINGS[n].configKey === key);

export interface Sourced<T> {
  value: T;
  /** Where the value came from, as a person would look for it: `--timeout`, `FCAST_TIMEOUT`, the file's path, `default`. */
  source: string;
}

/** The global flags as commander parsed them; the settings' flags were checked by their parsers. */
export interface GlobalFlags {
  json?: boolean;
  /** --format as typed (lower-cased); run.format() checks it against what the command gives. */
  format?: string;
  verbose?: boolean;
  dryRun?: boolean;
  strict?: boolean;
  color?: boolean;
  /** Every table column on a terminal, whatever its width. */
  wide?: boolean;
  baseUrl?: string;
  timeout?: number;
  retries?: number;
  maxWait?: number;
}

/** The settings as values; `Settings` adds the checks a command (or the client it hands them to) runs before sending. */
export interface SettingValues {
  configDir: string;
  configPath: string;
  baseUrl: Sourced<string> | undefined;
  apiKey: Sourced<string> | undefined;
  /** The gateway's own key only; `requireKey(s, 'gateway')` applies the fallback to the REST key. */
  gatewayKey: Sourced<string> | undefined;
  timeout: Sourced<number>;
  retries: Sourced<number>;
  maxWait: Sourced<number>;
  /** Canonical symbols, in the order set; undefined when none is set. */
  watchlist: Sourced<string[]> | undefined;
  record: Sourced<boolean>;
}

export interface Settings extends SettingValues {
  /** The base URL as the root of every path, or exit 3 saying how to set one. */
  requireBaseUrl(): URL;
  /** The key a use of the service sends, or exit 3 saying what is missing or malformed. */
  requireKey(use: KeyUse): ChosenKey;
}

// Methods on `this`, so a copy with a field changed ({ ...s, apiKey }) checks its own values.
const CHECKS: Pick<Settings, 'requireBaseUrl' | 'requireKey'> = {
  requireBaseUrl(this: SettingValues) {
    return requireBaseUrl(this);
  },
  requireKey(this: SettingValues, use: KeyUse) {
    return requireKey(this, use);
  },
};

/** Settings from values: what resolveSettings returns, and what doctor builds for its own request. */
export const completeSettings = (values: SettingValues): Settings => ({ ...values, ...CHECKS });

export function configDir(ctx: Pick<Ctx, 'env' | 'platform' | 'homedir'>): string {
  const { env, platform, homedir } = ctx;
  if (env.FCAST_CONFIG_DIR) return env.FCAST_CONFIG_DIR;
  if (platform === 'win32') return join(env.APPDATA || join(homedir, 'AppData', 'Roaming'), 'fcast', 'Config');
  if (platform === 'darwin') return join(homedir, 'Library', 'Preferences', 'fcast');
  return join(env.XDG_CONFIG_HOME || join(homedir, '.config'), 'fcast');
}

export const configFilePath = (dir: string): string => join(dir, CONFIG_FILE_NAME);

/**
 * Where the journal lives: FCAST_DATA_DIR, else the OS data directory (XDG_DATA_HOME or
 * ~/.local/share on Linux, Application Support on macOS, LOCALAPPDATA on Windows). Data, not
 * settings: a user who resets the config keeps the forecasts they recorded.
 */
export function dataDir(ctx: Pick<Ctx, 'env' | 'platform' | 'homedir'>): string {
  const { env, platform, homedir } = ctx;
  if (env.FCAST_DATA_DIR) return env.FCAST_DATA_DIR;
  if (platform === 'win32') return join(env.LOCALAPPDATA || join(homedir, 'AppData', 'Local'), 'fcast', 'Data');
  if (platform === 'darwin') return join(homedir, 'Library', 'Application Support', 'fcast');
  return join(env.XDG_DATA_HOME || join(homedir, '.local', 'share'), 'fcast');
}

/**
 * The two directories, as `fcast config list` and `get` show them beside the settings: read
 * from their variable only (never the config file, which one of them holds), else the OS's.
 */
export const DIRECTORIES = {
  'config-dir': { env: 'FCAST_CONFIG_DIR', of: configDir },
  'data-dir': { env: 'FCAST_DATA_DIR', of: dataDir },
} as const;
export type DirectoryKey = keyof typeof DIRECTORIES;
export const DIRECTORY_KEYS = Object.keys(DIRECTORIES) as DirectoryKey[];

export function directorySetting(ctx: Pick<Ctx, 'env' | 'platform' | 'homedir'>, key: DirectoryKey): Sourced<string> {
  const { env, of } = DIRECTORIES[key];
  // As configDir() and dataDir() read it: a blank variable counts as unset.
  return { value: of(ctx), source: ctx.env[env] ? env : 'default' };
}

export type ConfigData = Record<string, unknown>;

/** The config file's contents; a missing file is empty, an unreadable or corrupt one is an error naming it. */
export function readConfigFile(path: string): ConfigData {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    // No file (or no directory to hold one) is an empty config; writing will say what is wrong.
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return {};
    throw readFailure(path, err);
  }
  // A file others could have written, or one that lives elsewhere, is not used: its base URL
  // could send the key (from the environment too) to whoever wrote it. Checked once it is
  // known to exist, so a run with no config file pays nothing.
  const problem = configLocationProblem(dirname(path), (err) => readFailure(path, err));
  if (problem) throw problem;
  let data: unknown;
  try {
    data = text.trim() === '' ? {} : JSON.parse(text);
  } catch (err) {
    throw corruptConfig(path, (err as Error).message);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw corruptConfig(path, 'not a JSON object');
  return data as ConfigData;
}

function readFailure(path: string, err: unknown): ConfigError {
  return new ConfigError(`cannot read config file ${path}: ${failureReason(err)}`);
}

function corruptConfig(path: string, why: string): ConfigError {
  return new ConfigError(`config file ${path} cannot be parsed (${why}); it was left untouched`, {
    hint: 'fix it by hand, or move it aside to start afresh',
  });
}

// --- parsers -------------------------------------------------------------------------------

/**
 * A value as typed or as the file holds it, as text: an object or array from the file as its
 * JSON (null as 'null', as String gives it). String() would read `[5]` as `5`, and throws on
 * `{"toString": 1}` (exit 1).
 */
const asText = (raw: unknown): string => (typeof raw === 'object' ? JSON.stringify(raw) : String(raw));

function parseBaseUrl(raw: unknown, where: string): string {
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

function parseNumber(raw: unknown, where: string, range: { min: number; minIncluded: boolean; what: string }): number {
  const text = asText(raw);
  const n = parseDecimal(text, { min: range.min, max: MAX_SECONDS, minExcluded: !range.minIncluded });
  if (n === undefined) {
    const what = range.minIncluded ? `${range.what} to ${MAX_SECONDS}` : `${range.what}, at most ${MAX_SECONDS}`;
    throw new SettingError(`${where} must be ${what}, got '${text}'`);
  }
  return n;
}

function parseCount(raw: unknown, where: string): number {
  const text = asText(raw);
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isInteger(n) || n < 0 || n > 10)
    throw new SettingError(`${where} must be a whole number from 0 to 10, got '${text}'`);
  return n;
}

/** `BTC/USD,eth-usd` or `BTC/USD ETH/USD` (or a JSON array in the file): canonical symbols, without repeats. */
function parseSymbolList(raw: unknown, where: string): string[] | undefined {
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
function parseSwitch(raw: unknown, where: string): boolean | undefined {
  const text = asText(raw).trim().toLowerCase();
  if (text === '') return undefined;
  if (['1', 'true', 'yes', 'on'].includes(text)) return true;
  if (['0', 'false', 'no', 'off'].includes(text)) return false;
  throw new SettingError(`${where} must be on or off (1/0, true/false, yes/no), got '${asText(raw)}'`);
}

/** A key: a string, trimmed; blank counts as unset. Whether it is well formed is requireKey's question. */
function parseSecret(raw: unknown, where: string): string | undefined {
  if (typeof raw !== 'string') throw new SettingError(`${where} is not a string`);
  return raw.trim() || undefined;
}

// --- lookup --------------------------------------------------------------------------------

/** One setting as found, or why the value found cannot be used; `resolveSettings` throws on the latter, `fcast doctor` reports it. */
export interface Lookup<T> {
  found?: Sourced<T>;
  /** `hint`: how to fix the value where it was found (the variable, the config file). */
  problem?: { message: string; fromFlag: boolean; hint?: string };
}

const present = (v: string | undefined): v is string => v !== undefined && v.trim() !== '';

/** Flag, then environment, then file; a value that does not parse is a problem, not a fall-through. */
function lookUpSetting<N extends SettingName>(
  name: N,
  flags: GlobalFlags,
  env: Env,
  file: ConfigData,
  configPath: string,
): Lookup<ValueOf<N>> {
  const s = SETTINGS[name] as SettingSpec<ValueOf<N>>;
  const attempt = (
    raw: unknown,
    where: string,
    source: string,
    fromFlag: boolean,
    hint?: string,
  ): Lookup<ValueOf<N>> => {
    try {
      const value = s.parse(raw, where);
      return value === undefined ? {} : { found: { value, source } };
    } catch (err) {
      if (!(err instanceof SettingError)) throw err;
      return { problem: { message: err.message, fromFlag, ...(hint && { hint }) } };
    }
  };
  const flagValue = s.flag ? (flags as Record<string, unknown>)[name] : undefined;
  const flagName = s.flag?.split(' ')[0] ?? '';
  if (flagValue !== undefined) return attempt(flagValue, flagName, flagName, true);
  if (present(env[s.env])) {
    return attempt(env[s.env], s.env, s.env, false, `fix ${s.env} in your environment, or unset it`);
  }
  const stored = file[s.configKey];
  if (stored !== undefined && stored !== null) {
    // A key is stored by register and auth login, never by config set.
    const fix = s.secret
      ? `run 'fcast auth login${name === 'gatewayKey' ? ' --gateway' : ''}' to store it again`
      : `run 'fcast config set ${s.configKey} VALUE', or 'fcast config unset ${s.configKey}'`;
    return attempt(stored, `'${s.configKey}' in ${configPath}`, configPath, false, fix);
  }
  return {};
}

/** Every setting looked up, none thrown: what doctor shows line by line and resolveSettings settles. */
export type Inspection = { configDir: string; configPath: string; fileProblem?: ConfigError } & {
  [N in SettingName]: Lookup<ValueOf<N>>;
};

export function inspectSettings(ctx: Pick<Ctx, 'env' | 'platform' | 'homedir'>, flags: GlobalFlags): Inspection {
  const dir = configDir(ctx);
  const path = configFilePath(dir);
  let file: ConfigData = {};
  let fileProblem: ConfigError | undefined;
  try {
    file = readConfigFile(path);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    fileProblem = err;
  }
  const found = Object.fromEntries(NAMES.map((n) => [n, lookUpSetting(n, flags, ctx.env, file, path)]));
  return { configDir: dir, configPath: path, fileProblem, ...found } as Inspection;
}

/** A flag typed wrong is a usage error (2); the environment or the file, a config error (3). */
function settle<T>(lookup: Lookup<T>): Sourced<T> | undefined {
  const { problem } = lookup;
  if (problem) {
    throw problem.fromFlag
      ? new UsageError(problem.message)
      : new ConfigError(problem.message, problem.hint ? { hint: problem.hint } : {});
  }
  return lookup.found;
}

export function withDefault<N extends SettingName>(name: N, lookup: Lookup<ValueOf<N>>): Sourced<ValueOf<N>> {
  return lookup.found ?? { value: SETTINGS[name].default as ValueOf<N>, source: 'default' };
}

export function resolveSettings(ctx: Pick<Ctx, 'env' | 'platform' | 'homedir'>, flags: GlobalFlags): Settings {
  const found = inspectSettings(ctx, flags);
  if (found.fileProblem) throw found.fileProblem;
  return completeSettings({
    configDir: found.configDir,
    configPath: found.configPath,
    baseUrl: settle(found.baseUrl),
    apiKey: settle(found.apiKey),
    gatewayKey: settle(found.gatewayKey),
    timeout: settle(found.timeout) ?? withDefault('timeout', found.timeout),
    retries: settle(found.retries) ?? withDefault('retries', found.retries),
    maxWait: settle(found.maxWait) ?? withDefault('maxWait', found.maxWait),
    watchlist: settle(found.watchlist),
    record: settle(found.record) ?? withDefault('record', found.record),
  });
}

/** The key stored in the config file (not the environment): what register and auth login would replace. */
export function storedSecret(
  ctx: Pick<Ctx, 'env' | 'platform' | 'homedir'>,
  name: 'apiKey' | 'gatewayKey',
): { path: string; value: string | undefined } {
  const path = configFilePath(configDir(ctx));
  return { path, value: lookUpSetting(name, {}, {}, readConfigFile(path), path).found?.value };
}

/** A key set in the environment; blank counts as unset, as for every setting. */
export function secretFromEnv(env: Env, name: 'apiKey' | 'gatewayKey'): string | undefined {
  const value = env[SETTINGS[name].env]?.trim();
  return value ? value : undefined;
}

// --- what commands need before they send anything ----------------------------------------------

export const BASE_URL_HINT =
  "set FCAST_BASE_URL, pass --base-url URL, or run 'fcast config set base-url URL' (try 'fcast mock' for a local emulator)";

/** The base URL as the root of every path (a trailing slash, no query), or exit 3 saying how to set one. */
export function requireBaseUrl(settings: Pick<SettingValues, 'baseUrl'>): URL {
  if (!settings.baseUrl) throw new ConfigError('no base URL is set', { hint: BASE_URL_HINT });
  const url = new URL(settings.baseUrl.value);
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  url.search = '';
  url.hash = '';
  return url;
}

export type KeyUse = 'rest' | 'gateway';
export type ChosenKey = Sourced<string> & { kind: KeyUse; spec: KeyKind };
export interface KeyProblem {
  message: string;
  hint: string;
}
/** A key found (with a problem when it is malformed), or none and why. */
export type KeyInspection =
  | {
      key: ChosenKey;
      /** Set when the gateway has no key of its own and uses the REST key. */
      fallback: boolean;
      problem?: KeyProblem;
    }
  | { key?: undefined; fallback?: undefined; problem: KeyProblem };

const MISSING_KEY_HINT: Record<KeyUse, string> = {
  rest: "get a free key with 'fcast register --email ADDRESS', or set FCAST_API_KEY, or run 'fcast auth login'",
  gateway: "set FCAST_GATEWAY_KEY or run 'fcast auth login --gateway' (the REST key serves too)",
};

/**
 * The key a use of the service sends, and whether it can be sent. The one statement of the rule
 * that the gateway falls back to the REST key (and never the other way round).
 */
export function inspectKey(settings: Pick<SettingValues, 'apiKey' | 'gatewayKey'>, use: KeyUse): KeyInspection {
  const { apiKey, gatewayKey } = settings;
  const chosen = use === 'gateway' ? (gatewayKey ?? apiKey) : apiKey;
  if (!chosen) {
    const message = use === 'gateway' ? 'no gateway key and no API key to fall back on' : 'no API key';
    return { problem: { message, hint: MISSING_KEY_HINT[use] } };
  }
  const kind: KeyUse = chosen === apiKey ? 'rest' : 'gateway';
  const kindSpec = kind === 'rest' ? REST_KEY_KIND : GATEWAY_KEY_KIND;
  const key: ChosenKey = { ...chosen, kind, spec: kindSpec };
  const fallback = use === 'gateway' && kind === 'rest';
  if (!kindSpec.isWellFormed(chosen.value)) {
    return {
      key,
      fallback,
      problem: {
        message: `the ${kindSpec.label} from ${chosen.source} is malformed: ${describeMalformedKey(kindSpec, chosen.value)}`,
        hint: `a key looks like ${kindSpec.expected}; set it again from the key you were given, or run 'fcast auth login${kind === 'gateway' ? ' --gateway' : ''}'`,
      },
    };
  }
  return { key, fallback };
}

/** The key to send, or exit 3 saying what is missing or malformed (without showing it). */
export function requireKey(settings: Pick<SettingValues, 'apiKey' | 'gatewayKey'>, use: KeyUse): ChosenKey {
  const { key, problem } = inspectKey(settings, use);
  if (problem) throw new ConfigError(problem.message, { hint: problem.hint });
  // No problem means a key (KeyInspection): the check TypeScript cannot draw from the union.
  return key as ChosenKey;
}

// --- the command line ------------------------------------------------------------------------

/**
 * The settings that have a flag, with its help line: `request deadline (default 30)`. The
 * environment variables and config keys are in `fcast help settings`: on one line each here,
 * the root help stays within 80 columns.
 */
export function settingFlags(): Array<{ name: SettingName; flag: string; help: string }> {
  return NAMES.flatMap((name) => {
    const s: SettingSpec<unknown> = SETTINGS[name];
    if (!s.flag) return [];
    return [
      { name, flag: s.flag, help: s.default === undefined ? s.help : `${s.help} (default ${String(s.default)})` },
    ];
  });
}

/** Commander option parser for a setting's flag: a bad value is a usage error (exit 2). */
export function flagParser(name: SettingName): (raw: string) => unknown {
  const s: SettingSpec<unknown> = SETTINGS[name];
  const where = s.flag?.split(' ')[0] ?? name;
  return (raw) => {
    try {
      return s.parse(raw, where);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  };
}

/** `fcast help settings`: one row per setting (its variable, then what it is and where else it is set), then the config keys. */
export function settingRows(): Array<[variable: string, text: string]> {
  const rows = NAMES.map((name): [string, string] => {
    const s: SettingSpec<unknown> = SETTINGS[name];
    const note =
      s.footer ??
      [s.flag?.split(' ')[0], s.default === undefined ? '' : `default ${String(s.default)}`].filter(Boolean).join(', ');
    return [s.env, `${s.help} (${note})`];
  });
  return [...rows, ['config keys', CONFIG_KEYS.join(', ')]];
}

/**
 * Every secret fcast can know of at start, for the redactor; never throws: the keys (environment
 * and config file) and the password of a proxy URL in the environment (as written, decoded, and
 * as `user:password`, whose base64 is the Proxy-Authorization header).
 */
export function knownSecrets(ctx: Pick<Ctx, 'env' | 'platform' | 'homedir'>): string[] {
  const names = ['apiKey', 'gatewayKey'] as const;
  const found: string[] = names.flatMap((n) => secretFromEnv(ctx.env, n) ?? []);
  for (const name of ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'])
    found.push(...proxySecrets(ctx.env[name]));
  try {
    const file = readConfigFile(configFilePath(configDir(ctx)));
    for (const n of names) {
      const value = file[SETTINGS[n].configKey];
      if (typeof value === 'string') found.push(value);
    }
  } catch {
    // A broken file is reported by the command that reads it.
  }
  return found;
}

/** The password of a proxy URL, as written and decoded, and `user:password`; none when there is none. */
function proxySecrets(value: string | undefined): string[] {
  if (!value) return [];
  try {
    const url = new URL(value.includes('://') ? value : `http://${value}`);
    if (!url.password) return [];
    const decode = (part: string) => {
      try {
        return decodeURIComponent(part);
      } catch {
        return part;
      }
    };
    const password = decode(url.password);
    return [url.password, password, `${decode(url.username)}:${password}`];
  } catch {
    // Not a URL: the transport refuses it before any request, saying so without echoing it.
    return [];
  }
}
