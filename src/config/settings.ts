// Settings: flag > environment variable > config file > built-in default, each declared once in
// SETTINGS below (name, flag, environment variable, config key, default, parser, help line);
// the global flags, the help footer, `fcast config`, resolveSettings and doctor are built from it.
// Reading is plain fs + JSON.parse (every command reads); writing is config-store.ts. Beside it:
// the parsers (setting-parsers.ts), the directories (directories.ts), the checks before a
// request (key-checks.ts), the command line (setting-flags.ts) and the redactor's secrets
// (known-secrets.ts).
import { IrregularFileError, readOwnFile } from '../core/own-file.js';
import { dirname } from 'node:path';
import { configLocationProblem } from './config-location.js';
import type { Ctx, Env } from '../core/context.js';
import { ConfigError, failureReason, UsageError } from '../core/errors.js';
import { configDir, configFilePath } from './directories.js';
import { KEY_VARIABLES } from './env-secrets.js';
import { type ChosenKey, type KeyUse, requireBaseUrl, requireKey } from './key-checks.js';
import type { Sourced } from './origin.js';
import {
  parseBaseUrl,
  parseCount,
  parseNumber,
  parseSecret,
  parseSwitch,
  parseSymbolList,
  SettingError,
} from './setting-parsers.js';

// commands/journal.ts reads the data directory from here (the journal's own change moves it).
export { dataDir } from './directories.js';
export { secretFromEnv } from './env-secrets.js';

export interface SettingSpec<T> {
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

/** A number of seconds, up to a day: above 0, or from 0; its flag and config key share its name. */
const seconds = (key: string, env: string, byDefault: number, help: string, range: { from: 'above' | 'zero' }) =>
  spec<number>({
    flag: `--${key} <seconds>`,
    env,
    configKey: key,
    default: byDefault,
    parse: (raw, where) =>
      parseNumber(
        raw,
        where,
        range.from === 'zero'
          ? { min: 0, minIncluded: true, what: 'a number of seconds from 0' }
          : { min: 0, minIncluded: false, what: 'a number of seconds above 0' },
      ),
    help,
  });

export const SETTINGS = {
  baseUrl: spec<string>({
    flag: '--base-url <url>',
    env: 'FCAST_BASE_URL',
    configKey: 'base-url',
    parse: parseBaseUrl,
    help: 'base URL of the service',
  }),
  apiKey: spec<string>({
    env: KEY_VARIABLES.apiKey,
    configKey: 'api-key',
    secret: true,
    parse: parseSecret,
    help: 'REST key (never a flag)',
    footer: 'register, auth login',
  }),
  gatewayKey: spec<string>({
    env: KEY_VARIABLES.gatewayKey,
    configKey: 'gateway-key',
    secret: true,
    parse: parseSecret,
    help: 'gateway key; else the REST key',
    footer: 'auth login --gateway',
  }),
  timeout: seconds('timeout', 'FCAST_TIMEOUT', 30, 'request deadline', { from: 'above' }),
  retries: spec<number>({
    flag: '--retries <n>',
    env: 'FCAST_RETRIES',
    configKey: 'retries',
    default: 2,
    parse: parseCount,
    help: 'automatic retries',
  }),
  maxWait: seconds('max-wait', 'FCAST_MAX_WAIT', 60, 'longest wait accepted for a retry', { from: 'zero' }),
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
export const SETTING_NAMES = Object.keys(SETTINGS) as SettingName[];

/** The settings `fcast config` sets: every one with a config key that is not a secret. */
export const CONFIG_KEYS = SETTING_NAMES.filter((n) => !SETTINGS[n].secret).map((n) => SETTINGS[n].configKey);
export const SECRET_KEYS = SETTING_NAMES.filter((n) => SETTINGS[n].secret).map((n) => SETTINGS[n].configKey);
export const settingOfConfigKey = (key: string): SettingName | undefined =>
  SETTING_NAMES.find((n) => SETTINGS[n].configKey === key);

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

export type ConfigData = Record<string, unknown>;

/** A config file is a few hundred bytes; a larger one is not a config fcast wrote. */
const MAX_CONFIG_BYTES = 1024 * 1024;

/** The config file's contents; a missing file is empty, an unreadable or corrupt one is an error naming it. */
export function readConfigFile(path: string): ConfigData {
  let text: string | undefined;
  try {
    // Not a link, a FIFO (which would hang the command) or a device; never more than the cap.
    text = readOwnFile(path, MAX_CONFIG_BYTES);
  } catch (err) {
    if (err instanceof IrregularFileError) {
      throw (
        configLocationProblem(dirname(path), (e) => readFailure(path, e)) ??
        new ConfigError(`cannot read config file ${path}: it ${err.why}`, {
          hint: 'replace it with a file of its own, or point FCAST_CONFIG_DIR elsewhere',
        })
      );
    }
    throw readFailure(path, err);
  }
  // No file (or no directory to hold one) is an empty config; writing will say what is wrong.
  if (text === undefined) return {};
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
  const found = Object.fromEntries(SETTING_NAMES.map((n) => [n, lookUpSetting(n, flags, ctx.env, file, path)]));
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
