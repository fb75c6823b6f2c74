// Settings: flag > environment variable > config file > built-in default.
// Reading is plain fs + JSON.parse, because every command reads and conf (with ajv behind
// it) costs more start-up time than the rest of a request; writing goes through conf in
// config-store.ts, which only the commands that write import.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Ctx, Env } from './context.js';
import { ConfigError, UsageError } from './errors.js';

export const CONFIG_KEYS = ['base-url', 'timeout', 'retries', 'max-wait'] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];
/** Keys stored by `register` and `auth login`, never set from the command line. */
export const SECRET_KEYS = ['api-key', 'gateway-key'] as const;
export type SecretKey = (typeof SECRET_KEYS)[number];

export const DEFAULTS = { timeout: 30, retries: 2, 'max-wait': 60 } as const;

export interface Sourced<T> {
  value: T;
  /** Where the value came from, as a person would look for it: `--timeout`, `FCAST_TIMEOUT`, the file's path, `default`. */
  source: string;
}

/** The global flags as commander parsed them; the numeric ones were checked by their parsers. */
export interface GlobalFlags {
  json?: boolean;
  verbose?: boolean;
  dryRun?: boolean;
  strict?: boolean;
  /** Every table column on a terminal, whatever its width. */
  wide?: boolean;
  color?: boolean;
  baseUrl?: string;
  timeout?: number;
  retries?: number;
  maxWait?: number;
}

export interface Settings {
  configDir: string;
  configPath: string;
  baseUrl: Sourced<string> | undefined;
  apiKey: Sourced<string> | undefined;
  /** The gateway's own key only; `gatewayKeyOrFallback` applies the fallback to the REST key. */
  gatewayKey: Sourced<string> | undefined;
  timeout: Sourced<number>;
  retries: Sourced<number>;
  maxWait: Sourced<number>;
}

export function configDir(ctx: Pick<Ctx, 'env' | 'platform' | 'homedir'>): string {
  const { env, platform, homedir } = ctx;
  if (env.FCAST_CONFIG_DIR) return env.FCAST_CONFIG_DIR;
  if (platform === 'win32') return join(env.APPDATA || join(homedir, 'AppData', 'Roaming'), 'fcast', 'Config');
  if (platform === 'darwin') return join(homedir, 'Library', 'Preferences', 'fcast');
  return join(env.XDG_CONFIG_HOME || join(homedir, '.config'), 'fcast');
}

export const configFilePath = (dir: string): string => join(dir, 'config.json');

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
    throw new ConfigError(`cannot read config file ${path}: ${(err as Error).message}`);
  }
  let data: unknown;
  try {
    data = text.trim() === '' ? {} : JSON.parse(text);
  } catch (err) {
    throw corruptConfig(path, (err as Error).message);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw corruptConfig(path, 'not a JSON object');
  return data as ConfigData;
}

function corruptConfig(path: string, why: string): ConfigError {
  return new ConfigError(`config file ${path} cannot be parsed (${why}); it was left untouched`, {
    hint: 'fix it by hand, or move it aside to start afresh',
  });
}

/** Parses a setting's value; `where` names the origin so the message points at it. */
export const settingParsers = {
  'base-url': parseBaseUrl,
  timeout: (raw: unknown, where: string) => parsePositiveNumber(raw, where, 'a number of seconds above 0'),
  retries: (raw: unknown, where: string) => parseCount(raw, where),
  'max-wait': (raw: unknown, where: string) => parseNonNegativeNumber(raw, where),
} satisfies Record<ConfigKey, (raw: unknown, where: string) => unknown>;

function parseBaseUrl(raw: unknown, where: string): string {
  const text = String(raw).trim();
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

/** A day. Timers overflow past ~24.8 days (and then fire at once), and no wait needs more. */
const MAX_SECONDS = 86_400;

function parsePositiveNumber(raw: unknown, where: string, what: string): number {
  const n = typeof raw === 'number' ? raw : Number(String(raw).trim());
  if (String(raw).trim() === '' || !Number.isFinite(n) || n <= 0 || n > MAX_SECONDS) {
    throw new SettingError(`${where} must be ${what}, at most ${MAX_SECONDS}, got '${String(raw)}'`);
  }
  return n;
}

function parseNonNegativeNumber(raw: unknown, where: string): number {
  const n = typeof raw === 'number' ? raw : Number(String(raw).trim());
  if (String(raw).trim() === '' || !Number.isFinite(n) || n < 0 || n > MAX_SECONDS) {
    throw new SettingError(`${where} must be a number of seconds from 0 to ${MAX_SECONDS}, got '${String(raw)}'`);
  }
  return n;
}

function parseCount(raw: unknown, where: string): number {
  const n = typeof raw === 'number' ? raw : Number(String(raw).trim());
  if (String(raw).trim() === '' || !Number.isInteger(n) || n < 0 || n > 10)
    throw new SettingError(`${where} must be a whole number from 0 to 10, got '${String(raw)}'`);
  return n;
}

/**
 * A bad value whose exit code depends on who typed it: a flag is a usage error (2), the
 * environment or the config file a config error (3). Converted by `resolveSettings` and the
 * flag parsers.
 */
export class SettingError extends Error {}

const ENV_NAMES: Record<ConfigKey, string> = {
  'base-url': 'FCAST_BASE_URL',
  timeout: 'FCAST_TIMEOUT',
  retries: 'FCAST_RETRIES',
  'max-wait': 'FCAST_MAX_WAIT',
};

const FLAG_VALUES: Record<ConfigKey, (f: GlobalFlags) => unknown> = {
  'base-url': (f) => f.baseUrl,
  timeout: (f) => f.timeout,
  retries: (f) => f.retries,
  'max-wait': (f) => f.maxWait,
};

const present = (v: string | undefined): v is string => v !== undefined && v !== '';

/** One setting as found, or why the value found cannot be used; `resolveSettings` throws on the latter, `fcast doctor` reports it. */
export interface Lookup<T> {
  found?: Sourced<T>;
  problem?: { message: string; fromFlag: boolean };
}

export function lookUpSetting<K extends ConfigKey>(
  key: K,
  flags: GlobalFlags,
  env: Env,
  file: ConfigData,
  configPath: string,
): Lookup<ReturnType<(typeof settingParsers)[K]>> {
  const parse = settingParsers[key] as (raw: unknown, where: string) => ReturnType<(typeof settingParsers)[K]>;
  const attempt = (raw: unknown, where: string, source: string, fromFlag: boolean) => {
    try {
      return { found: { value: parse(raw, where), source } };
    } catch (err) {
      if (!(err instanceof SettingError)) throw err;
      return { problem: { message: err.message, fromFlag } };
    }
  };
  const flagValue = FLAG_VALUES[key](flags);
  if (flagValue !== undefined) return attempt(flagValue, `--${key}`, `--${key}`, true);
  const envName = ENV_NAMES[key];
  if (present(env[envName])) return attempt(env[envName], envName, envName, false);
  if (file[key] !== undefined && file[key] !== null)
    return attempt(file[key], `'${key}' in ${configPath}`, configPath, false);
  return {};
}

/** A key set in the environment; blank counts as unset, as for every setting. */
export function secretFromEnv(env: Env, envName: string): string | undefined {
  const value = env[envName]?.trim();
  return value ? value : undefined;
}

/** A key stored in the config file (not the environment): what register and auth login would replace. */
export function storedSecret(
  ctx: Pick<Ctx, 'env' | 'platform' | 'homedir'>,
  key: SecretKey,
): { path: string; value: string | undefined } {
  const path = configFilePath(configDir(ctx));
  return { path, value: lookUpSecret('', key, {}, readConfigFile(path), path).found?.value };
}

export function lookUpSecret(
  envName: string,
  fileKey: SecretKey,
  env: Env,
  file: ConfigData,
  configPath: string,
): Lookup<string> {
  const fromEnv = secretFromEnv(env, envName);
  if (fromEnv) return { found: { value: fromEnv, source: envName } };
  const fromFile = file[fileKey];
  if (typeof fromFile === 'string' && fromFile.trim() !== '')
    return { found: { value: fromFile.trim(), source: configPath } };
  if (fromFile !== undefined && fromFile !== null && typeof fromFile !== 'string') {
    return { problem: { message: `'${fileKey}' in ${configPath} is not a string`, fromFlag: false } };
  }
  return {};
}

/** A flag typed wrong is a usage error (2); the environment or the file, a config error (3). */
function settle<T>(lookup: Lookup<T>): Sourced<T> | undefined {
  if (lookup.problem)
    throw lookup.problem.fromFlag ? new UsageError(lookup.problem.message) : new ConfigError(lookup.problem.message);
  return lookup.found;
}

export function resolveSettings(ctx: Pick<Ctx, 'env' | 'platform' | 'homedir'>, flags: GlobalFlags): Settings {
  const dir = configDir(ctx);
  const path = configFilePath(dir);
  const file = readConfigFile(path);
  const { env } = ctx;
  return {
    configDir: dir,
    configPath: path,
    baseUrl: settle(lookUpSetting('base-url', flags, env, file, path)),
    apiKey: settle(lookUpSecret('FCAST_API_KEY', 'api-key', env, file, path)),
    gatewayKey: settle(lookUpSecret('FCAST_GATEWAY_KEY', 'gateway-key', env, file, path)),
    timeout: settle(lookUpSetting('timeout', flags, env, file, path)) ?? { value: DEFAULTS.timeout, source: 'default' },
    retries: settle(lookUpSetting('retries', flags, env, file, path)) ?? { value: DEFAULTS.retries, source: 'default' },
    maxWait: settle(lookUpSetting('max-wait', flags, env, file, path)) ?? {
      value: DEFAULTS['max-wait'],
      source: 'default',
    },
  };
}

/** Commander option parser for the numeric global flags: a bad value is a usage error (exit 2). */
export function flagParser(key: 'timeout' | 'retries' | 'max-wait'): (raw: string) => number {
  return (raw) => {
    try {
      return settingParsers[key](raw, `--${key}`);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  };
}
