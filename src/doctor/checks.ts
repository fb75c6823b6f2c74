// The checks behind `fcast doctor`: each looks at one thing users get wrong, says what it
// found and, when something is off, how to fix it. None stops the others: a corrupt config
// file is one failed check, and the environment, the keys and the service are still looked
// at. Settings, keys, the config and the data directory are judged by the same inspections the
// commands use (inspectSettings, inspectKey, configLocationProblem, dataDirProblem), which
// doctor reports one by one where a command would stop at the first. The verdict type is
// check.ts, the service check service.ts, the rendering render.ts.
import { statSync } from 'node:fs';
import { maskedProxy, proxyFor, proxyFromEnv, proxyVariable, type ProxySettings } from '../api/transport.js';
import type { Env } from '../core/context.js';
import type { FcastError } from '../core/errors.js';
import { configLocationProblem } from '../config/config-store.js';
import { dataDirProblem } from '../config/data-dir.js';
import { maskKey } from '../config/keys.js';
import { RELEASES_URL } from '../core/docs-pointer.js';
import { isStandalone } from '../core/package-files.js';
import { shellQuote } from '../core/shell-quote.js';
import { clean } from '../output/sanitize.js';
import { dataDir } from '../config/directories.js';
import { BASE_URL_HINT, inspectKey } from '../config/key-checks.js';
import { type Check, type DoctorInput, fail, failure, pass, warn } from './check.js';
import { checkService } from './service.js';
import {
  CONFIG_KEYS,
  inspectSettings,
  readConfigFile,
  SECRET_KEYS,
  SETTINGS,
  withDefault,
  type ConfigData,
  type Inspection,
  type Lookup,
  type SettingName,
} from '../config/settings.js';

/** The oldest Node.js fcast runs on: package.json's engines field says the same. */
export const MIN_NODE_VERSION = '20.18.1';

export async function runDoctor({ ctx, flags, out, transport }: DoctorInput): Promise<Check[]> {
  const found = inspectSettings(ctx, flags);
  const config = inspectConfig(found);
  const checks = [
    checkNode(ctx.nodeVersion, ctx.clock.now(), isStandalone()),
    checkConfigDirectory(config, ctx.platform),
    checkConfigFile(config),
    checkConfigFileMode(config, ctx.platform),
    checkDataDirectory(dataDir(ctx), ctx.platform),
    checkSettings(found),
    checkBaseUrl(found.baseUrl),
    checkApiKey(found.apiKey),
    checkGatewayKey(found.gatewayKey, found.apiKey),
    checkProxy(ctx.env, found.baseUrl.found?.value),
  ];
  checks.push(...(await checkService({ ctx, flags, out, transport }, config, found)));
  return checks;
}

// --- Node.js ---------------------------------------------------------------------------

/**
 * The end of life of each Node.js major line fcast may meet, as nodejs.org/en/about/previous-releases
 * lists it: past this day a line gets no more security fixes. Odd lines are short-lived (about
 * eight months, never LTS) and are listed too. A major not listed (one newer than the table) is
 * judged by none.
 * docs/decisions/2026-11-27-node-floor.md says why fcast still runs on 20.
 */
export const NODE_END_OF_LIFE: Readonly<Record<number, string>> = {
  18: '2025-04-30',
  19: '2023-06-01',
  20: '2026-04-30',
  21: '2024-06-01',
  22: '2027-04-30',
  23: '2025-06-01',
  24: '2028-04-30',
  25: '2026-06-01',
  26: '2029-04-30',
};

/** The end-of-life day of the version's major line when `now` is past it, else undefined. */
export function nodeEndOfLife(version: string, now: number): string | undefined {
  const major = Number(version.replace(/^v/, '').split('.')[0]);
  const eol = NODE_END_OF_LIFE[major];
  // The line is maintained through its last day (UTC).
  return eol !== undefined && now >= Date.parse(`${eol}T00:00:00Z`) + 86_400_000 ? eol : undefined;
}

/**
 * `builtIn`: the standalone executable, whose Node is inside it: the user cannot install another
 * under it, so the advice is the newest release's executable.
 */
export function checkNode(version: string, now: number, builtIn = false): Check {
  const shown = version.replace(/^v/, '');
  if (builtIn) {
    const eol = nodeEndOfLife(shown, now);
    if (eol === undefined) return pass('node', `${shown}, built into this executable`);
    return warn(
      'node',
      `${shown}, built into this executable: Node.js ${shown.split('.')[0]} reached its end of life on ${eol} and gets no more security fixes`,
      `download the newest release's executable, fcast-VERSION-${process.platform}-${process.arch}: ${RELEASES_URL}`,
    );
  }
  if (compareVersions(shown, MIN_NODE_VERSION) >= 0) {
    const eol = nodeEndOfLife(shown, now);
    if (eol === undefined) return pass('node', `${shown} (fcast needs ${MIN_NODE_VERSION} or newer)`);
    return warn(
      'node',
      `${shown}: Node.js ${shown.split('.')[0]} reached its end of life on ${eol} and gets no more security fixes`,
      'install a maintained line, e.g. the current LTS (fcast runs on 20, 22 and 24)',
    );
  }
  return fail(
    'node',
    `${shown} is older than ${MIN_NODE_VERSION}`,
    `install Node.js ${MIN_NODE_VERSION} or newer, e.g. the current LTS`,
  );
}

function compareVersions(a: string, b: string): number {
  const parts = (v: string) =>
    v
      .split(/[.-]/)
      .slice(0, 3)
      .map((p) => Number.parseInt(p, 10) || 0);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

// --- the config directory and file -------------------------------------------------------

export interface ConfigState {
  dir: string;
  path: string;
  /** Permission bits, or undefined when it does not exist. */
  dirMode: number | undefined;
  fileMode: number | undefined;
  /** The file's settings; empty when it is missing or broken. */
  data: ConfigData;
  problem?: FcastError;
  /** Why keys would not be written there (a link, another user's or a shared directory). */
  location?: FcastError;
}

function inspectConfig(found: Inspection): ConfigState {
  const { configDir: dir, configPath: path } = found;
  const state: ConfigState = { dir, path, dirMode: modeOf(dir), fileMode: modeOf(path), data: {} };
  state.location = configLocationProblem(dir);
  if (found.fileProblem) state.problem = found.fileProblem;
  else state.data = readConfigFile(path);
  return state;
}

function modeOf(path: string): number | undefined {
  try {
    return statSync(path).mode & 0o777;
  } catch {
    return undefined;
  }
}

const octal = (mode: number) => mode.toString(8).padStart(4, '0');
// Windows keeps no POSIX modes: what stat reports there means nothing about who can read.
const modesApply = (platform: NodeJS.Platform) => platform !== 'win32';

export function checkConfigDirectory(config: ConfigState, platform: NodeJS.Platform): Check {
  const name = 'config directory';
  if (config.location) return fail(name, config.location.message, config.location.hint);
  if (config.dirMode === undefined)
    return pass(name, `${config.dir} does not exist yet (created with mode 0700 on the first save)`);
  if (!modesApply(platform)) return pass(name, `${config.dir} (modes are not checked on Windows)`);
  if ((config.dirMode & 0o077) === 0) return pass(name, `${config.dir}, mode ${octal(config.dirMode)}`);
  // Writable by others is refused (config.location, above), as every writing command refuses
  // it; listable only is accepted there too, so here it is advice, not a failure.
  return warn(
    name,
    `${config.dir} has mode ${octal(config.dirMode)}: others can list it; 0700 keeps it private`,
    `chmod 700 ${shellQuote(config.dir)}`,
  );
}

function checkConfigFile(config: ConfigState): Check {
  const name = 'config file';
  if (config.problem) {
    return fail(
      name,
      config.problem.message,
      config.problem.hint ?? 'fix it by hand, or move it aside to start afresh',
    );
  }
  if (config.fileMode === undefined)
    return pass(name, `none at ${config.path}: flags, the environment and defaults apply`);
  const known: readonly string[] = [...CONFIG_KEYS, ...SECRET_KEYS];
  const unknown = Object.keys(config.data).filter((k) => !known.includes(k));
  if (unknown.length > 0) {
    return warn(
      name,
      `${config.path} has ${unknown.length === 1 ? 'a key' : 'keys'} fcast does not read: ${unknown.map((k) => `'${k}'`).join(', ')}`,
      `the settings are ${CONFIG_KEYS.join(', ')}: 'fcast config set KEY VALUE' writes them; remove the others by hand`,
    );
  }
  const count = Object.keys(config.data).length;
  return pass(name, `${config.path} (${count} ${count === 1 ? 'entry' : 'entries'})`);
}

export function checkConfigFileMode(config: ConfigState, platform: NodeJS.Platform): Check {
  const name = 'config file mode';
  if (config.fileMode === undefined) return pass(name, 'no file yet (written with mode 0600)');
  if (!modesApply(platform)) return pass(name, 'not checked on Windows');
  if ((config.fileMode & 0o077) === 0) return pass(name, octal(config.fileMode));
  return fail(
    name,
    `${octal(config.fileMode)}: others can read a file that may hold API keys; it should be 0600`,
    `chmod 600 ${shellQuote(config.path)}`,
  );
}

// --- the data directory (the journal) -----------------------------------------------------

/** Where the journal lives and its mode, judged as the journal judges it (config/data-dir.ts), as the config directory is. */
export function checkDataDirectory(dir: string, platform: NodeJS.Platform): Check {
  const name = 'data directory';
  const problem = dataDirProblem(dir);
  if (problem) return fail(name, problem.message, problem.hint);
  const mode = modeOf(dir);
  if (mode === undefined) return pass(name, `${dir} does not exist yet (created with mode 0700 by the first --record)`);
  if (!modesApply(platform)) return pass(name, `${dir} (modes are not checked on Windows)`);
  if ((mode & 0o077) === 0) return pass(name, `${dir}, mode ${octal(mode)}`);
  // Listable by others is accepted by the journal, as by the config store: advice, not a failure.
  return warn(
    name,
    `${dir} has mode ${octal(mode)}: others can list it; 0700 keeps it private`,
    `chmod 700 ${shellQuote(dir)}`,
  );
}

// --- settings: flag > environment > config file > default -----------------------------------

type FoundSettings = Inspection;

/** The settings with a default (timeout, retries, max-wait): one line for all of them. */
function checkSettings(found: FoundSettings): Check {
  const names = (Object.keys(SETTINGS) as SettingName[]).filter((n) => SETTINGS[n].default !== undefined);
  const problems = names.flatMap((n) => (found[n].problem ? [found[n].problem.message] : []));
  if (problems.length > 0) {
    return fail(
      'settings',
      problems.join('; '),
      "correct or remove the value where it is set: the flag, the environment variable, or 'fcast config unset KEY'",
    );
  }
  // Seconds for the times; a switch (record) reads on or off.
  const unit = (n: SettingName) => (n === 'timeout' || n === 'maxWait' ? 's' : '');
  const shown = names.map((n) => {
    const { value, source } = withDefault(n as 'timeout', found[n as 'timeout']) as { value: unknown; source: string };
    const text = typeof value === 'boolean' ? (value ? 'on' : 'off') : `${String(value)}${unit(n)}`;
    return `${SETTINGS[n].configKey} ${text} (${source})`;
  });
  return pass('settings', shown.join(', '));
}

function checkBaseUrl(lookup: Lookup<string>): Check {
  if (lookup.problem) return fail('base URL', lookup.problem.message, 'use an http(s) URL such as https://HOST');
  if (!lookup.found) return fail('base URL', 'not set: every command that talks to the service exits 3', BASE_URL_HINT);
  return pass('base URL', `${lookup.found.value} (from ${lookup.found.source})`);
}

export function checkApiKey(lookup: Lookup<string>): Check {
  const name = 'API key';
  if (lookup.problem) return fail(name, lookup.problem.message, "run 'fcast auth login' to store it again");
  return keyCheck(name, inspectKey({ apiKey: lookup.found, gatewayKey: undefined }, 'rest'), () =>
    warn(
      name,
      'not set: keyless commands work; predict, symbols and cmd need one',
      "get a free key with 'fcast register --email ADDRESS', or set FCAST_API_KEY, or run 'fcast auth login'",
    ),
  );
}

function checkGatewayKey(lookup: Lookup<string>, apiKey: Lookup<string>): Check {
  const name = 'gateway key';
  if (lookup.problem) return fail(name, lookup.problem.message, "run 'fcast auth login --gateway' to store it again");
  const inspected = inspectKey({ apiKey: apiKey.found, gatewayKey: lookup.found }, 'gateway');
  // Whether the REST key itself is sound is the API key check's to say.
  if (inspected.fallback) return pass(name, 'not set: the API key serves the gateway');
  return keyCheck(name, inspected, () =>
    warn(
      name,
      'not set, and no API key to fall back on: cmd needs one',
      "set FCAST_GATEWAY_KEY or run 'fcast auth login --gateway' (the REST key serves too)",
    ),
  );
}

/** A key as inspectKey judged it: missing, malformed (said without showing it) or fine. */
function keyCheck(name: string, inspected: ReturnType<typeof inspectKey>, missing: () => Check): Check {
  const { key, problem } = inspected;
  if (!key) return missing();
  if (problem) return fail(name, problem.message, problem.hint);
  return pass(name, `${maskKey(key.value)} (from ${key.source})`);
}

// --- proxy -------------------------------------------------------------------------------

/** The proxies in effect, as the transport reads them, and whether the base URL goes through one. */
export function checkProxy(env: Env, baseUrl?: string): Check {
  const name = 'proxy';
  let proxies: ProxySettings;
  try {
    proxies = proxyFromEnv(env);
  } catch (err) {
    return failure(name, err, 'set it to a URL such as http://proxy.example:3128, or unset it');
  }
  const used = [proxyVariable(env, 'https_proxy'), proxyVariable(env, 'http_proxy')].filter(
    (v): v is string => v !== undefined,
  );
  const noProxy = proxyVariable(env, 'no_proxy');
  if (used.length === 0)
    return pass(name, noProxy ? `none (${noProxy} is set but no proxy is)` : 'none: direct connections');
  const shown = used.map((v) => `${v}=${maskedProxy(env[v]!)}`);
  if (noProxy) shown.push(`${noProxy}=${clean(env[noProxy])}`);
  if (baseUrl) {
    const url = new URL(baseUrl);
    const via = proxyFor(proxies, url);
    shown.push(`${url.host} goes ${via ? `through ${maskedProxy(via)}` : 'direct'}`);
  }
  return pass(name, shown.join(', '));
}
