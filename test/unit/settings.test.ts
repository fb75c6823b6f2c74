import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, FcastError, UsageError } from '../../src/core/errors.js';
import { configDir, dataDir } from '../../src/config/directories.js';
import { BASE_URL_HINT, inspectKey, requireBaseUrl, requireKey } from '../../src/config/key-checks.js';
import { knownSecrets } from '../../src/config/known-secrets.js';
import { flagParser, settingRows } from '../../src/config/setting-flags.js';
import { inspectSettings, readConfigFile, resolveSettings } from '../../src/config/settings.js';
import { tempDir } from '../helpers/cli.js';

function ctxWith(env: Record<string, string>, file?: string) {
  const dir = tempDir();
  if (file !== undefined) writeFileSync(join(dir, 'config.json'), file);
  return { env: { FCAST_CONFIG_DIR: dir, ...env }, platform: 'linux' as const, homedir: '/home/u', dir };
}

describe('settings precedence', () => {
  it('takes flag over environment over file over default', () => {
    const file = JSON.stringify({ 'base-url': 'http://file.example', timeout: 5, retries: 1 });
    const ctx = ctxWith({ FCAST_BASE_URL: 'http://env.example', FCAST_TIMEOUT: '7' }, file);
    const s = resolveSettings(ctx, { baseUrl: 'http://flag.example' });
    expect(s.baseUrl).toEqual({ value: 'http://flag.example', source: '--base-url' });
    expect(s.timeout).toEqual({ value: 7, source: 'FCAST_TIMEOUT' });
    expect(s.retries).toEqual({ value: 1, source: join(ctx.dir, 'config.json') });
    expect(s.maxWait).toEqual({ value: 60, source: 'default' });
  });

  it('treats an empty environment variable as unset', () => {
    const ctx = ctxWith({ FCAST_BASE_URL: '' }, JSON.stringify({ 'base-url': 'https://file.example' }));
    expect(resolveSettings(ctx, {}).baseUrl?.value).toBe('https://file.example');
  });

  it('reports a corrupt file with its path and leaves it untouched', () => {
    const ctx = ctxWith({}, '{"base-url": ');
    const path = join(ctx.dir, 'config.json');
    expect(() => resolveSettings(ctx, {})).toThrowError(ConfigError);
    expect(() => resolveSettings(ctx, {})).toThrowError(path);
    expect(readFileSync(path, 'utf8')).toBe('{"base-url": ');
  });

  it('blames the environment with exit 3 and a flag with exit 2', () => {
    expect(() => resolveSettings(ctxWith({ FCAST_TIMEOUT: 'soon' }), {})).toThrowError(ConfigError);
    expect(() => resolveSettings(ctxWith({}), { baseUrl: 'ftp://x' })).toThrowError(UsageError);
    expect(() => resolveSettings(ctxWith({}, JSON.stringify({ retries: -1 })), {})).toThrowError(/retries/);
    // Beyond a day a timer would overflow and fire at once: refused, not silently shortened.
    expect(() => resolveSettings(ctxWith({ FCAST_TIMEOUT: '3000000' }), {})).toThrowError(/at most 86400/);
    expect(() => resolveSettings(ctxWith({}), { maxWait: 86401 })).toThrowError(UsageError);
  });

  it('keys come from the environment before the file', () => {
    const ctx = ctxWith(
      { FCAST_API_KEY: `env_ag_${'a'.repeat(40)}` },
      JSON.stringify({ 'api-key': 'file', 'gateway-key': 'gw' }),
    );
    const s = resolveSettings(ctx, {});
    expect(s.apiKey?.source).toBe('FCAST_API_KEY');
    expect(s.gatewayKey?.value).toBe('gw');
  });

  it('finds the config directory the way each platform expects (as the README lists), FCAST_CONFIG_DIR first', () => {
    const at = (platform: NodeJS.Platform, env: Record<string, string> = {}) =>
      configDir({ env, platform, homedir: '/home/u' });
    expect(at('linux')).toBe('/home/u/.config/fcast');
    expect(at('linux', { XDG_CONFIG_HOME: '/x' })).toBe('/x/fcast');
    expect(at('darwin')).toBe('/home/u/Library/Preferences/fcast');
    expect(at('darwin', { XDG_CONFIG_HOME: '/x' })).toBe('/home/u/Library/Preferences/fcast');
    // %APPDATA%\fcast\Config; node:path joins with the separator of the machine running the test.
    expect(at('win32', { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' })).toBe(
      join('C:\\Users\\u\\AppData\\Roaming', 'fcast', 'Config'),
    );
    expect(at('win32')).toBe(join('/home/u', 'AppData', 'Roaming', 'fcast', 'Config'));
    for (const platform of ['linux', 'darwin', 'win32'] as const)
      expect(at(platform, { FCAST_CONFIG_DIR: '/c', XDG_CONFIG_HOME: '/x', APPDATA: '/a' })).toBe('/c');
  });
});

describe('the settings table', () => {
  it('gives the flags, the help footer and the config keys, each setting once', async () => {
    const { CONFIG_KEYS, SECRET_KEYS } = await import('../../src/config/settings.js');
    const { settingFlags, settingRows } = await import('../../src/config/setting-flags.js');
    expect(CONFIG_KEYS).toEqual(['base-url', 'timeout', 'retries', 'max-wait', 'watchlist', 'record']);
    expect(SECRET_KEYS).toEqual(['api-key', 'gateway-key']);
    expect(settingFlags().map((f) => f.flag)).toEqual([
      '--base-url <url>',
      '--timeout <seconds>',
      '--retries <n>',
      '--max-wait <seconds>',
    ]);
    const footer = settingRows().flat().join('\n');
    for (const env of [
      'FCAST_BASE_URL',
      'FCAST_API_KEY',
      'FCAST_GATEWAY_KEY',
      'FCAST_TIMEOUT',
      'FCAST_MAX_WAIT',
      'FCAST_WATCHLIST',
      'FCAST_RECORD',
    ])
      expect(footer).toContain(env);
    expect(settingRows().at(-1)).toEqual(['config keys', CONFIG_KEYS.join(', ')]);
  });

  it('watchlist: symbols in canonical form, in order, without repeats; record: a switch', async () => {
    const { resolveSettings } = await import('../../src/config/settings.js');
    const at = (env: Record<string, string>) =>
      resolveSettings({ env: { FCAST_CONFIG_DIR: '/nonexistent', ...env }, platform: 'linux', homedir: '/h' }, {});
    expect(at({ FCAST_WATCHLIST: ' btc-usd, ETH/usd BTC/USD,,' }).watchlist).toEqual({
      value: ['BTC/USD', 'ETH/USD'],
      source: 'FCAST_WATCHLIST',
    });
    expect(at({}).watchlist).toBeUndefined();
    expect(() => at({ FCAST_WATCHLIST: 'BTC/USD,bitcoin' })).toThrowError(
      /FCAST_WATCHLIST must list symbols like BTC\/USD,ETH\/USD; 'bitcoin' is not BASE\/QUOTE/,
    );
    expect(at({}).record).toEqual({ value: false, source: 'default' });
    for (const on of ['1', 'true', 'YES', 'on']) expect(at({ FCAST_RECORD: on }).record.value).toBe(true);
    for (const off of ['0', 'false', 'No', 'off']) expect(at({ FCAST_RECORD: off }).record.value).toBe(false);
    expect(() => at({ FCAST_RECORD: 'sometimes' })).toThrowError(/FCAST_RECORD must be on or off/);
  });

  it('the data directory: FCAST_DATA_DIR, else the OS data directory', async () => {
    const { dataDir } = await import('../../src/config/settings.js');
    expect(dataDir({ env: {}, platform: 'linux', homedir: '/h' })).toBe('/h/.local/share/fcast');
    expect(dataDir({ env: { XDG_DATA_HOME: '/x' }, platform: 'linux', homedir: '/h' })).toBe('/x/fcast');
    expect(dataDir({ env: {}, platform: 'darwin', homedir: '/h' })).toBe('/h/Library/Application Support/fcast');
    expect(dataDir({ env: { FCAST_DATA_DIR: '/d', XDG_DATA_HOME: '/x' }, platform: 'linux', homedir: '/h' })).toBe(
      '/d',
    );
  });

  it('requireKey: the gateway falls back to the REST key, never the other way; malformed keys are not shown', async () => {
    const { requireKey, inspectKey } = await import('../../src/config/key-checks.js');
    const rest = { value: `mfa_ag_${'a'.repeat(40)}`, source: 'FCAST_API_KEY' };
    const gw = { value: 'gateway-token', source: 'file' };
    expect(requireKey({ apiKey: rest, gatewayKey: undefined }, 'gateway')).toMatchObject({ kind: 'rest' });
    expect(inspectKey({ apiKey: rest, gatewayKey: undefined }, 'gateway').fallback).toBe(true);
    expect(requireKey({ apiKey: rest, gatewayKey: gw }, 'gateway')).toMatchObject({ kind: 'gateway' });
    expect(() => requireKey({ apiKey: undefined, gatewayKey: gw }, 'rest')).toThrowError(/no API key/);
    const bad = { value: `mfa_ag_${'A'.repeat(40)}`, source: 'FCAST_API_KEY' };
    expect(() => requireKey({ apiKey: bad, gatewayKey: undefined }, 'rest')).toThrowError(/upper-case/);
    expect(() => requireKey({ apiKey: bad, gatewayKey: undefined }, 'rest')).not.toThrowError(/AAAA/);
  });
});

/** What a call threw, to check its class, exit code, message and hint at once. */
function thrown(run: () => unknown): FcastError {
  try {
    run();
  } catch (err) {
    if (err instanceof FcastError) return err;
    throw err;
  }
  throw new Error('nothing was thrown');
}

const told = (err: FcastError) => ({ exitCode: err.exitCode, message: err.message, hint: err.hint });

describe('the config file as read', () => {
  const fileIn = (text: string) => {
    const dir = tempDir();
    const path = join(dir, 'config.json');
    writeFileSync(path, text);
    return path;
  };

  it('an empty or blank file is an empty config, as a missing one is', () => {
    expect(readConfigFile(fileIn(''))).toEqual({});
    expect(readConfigFile(fileIn('  \n\t\n'))).toEqual({});
    expect(readConfigFile(join(tempDir(), 'config.json'))).toEqual({});
  });

  it('a file that is not JSON is reported with the parser’s reason, its path and what to do (exit 3)', () => {
    const text = '{"timeout": 5,}';
    const path = fileIn(text);
    let reason = '';
    try {
      JSON.parse(text);
    } catch (err) {
      reason = (err as Error).message;
    }
    expect(told(thrown(() => readConfigFile(path)))).toEqual({
      exitCode: 3,
      message: `config file ${path} cannot be parsed (${reason}); it was left untouched`,
      hint: 'fix it by hand, or move it aside to start afresh',
    });
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it('JSON that is not an object (null, an array, a number, a string, a boolean) is refused the same way', () => {
    for (const text of ['null', '[]', '[{"timeout": 5}]', '42', '"text"', 'true']) {
      const path = fileIn(text);
      expect(told(thrown(() => readConfigFile(path))), text).toEqual({
        exitCode: 3,
        message: `config file ${path} cannot be parsed (not a JSON object); it was left untouched`,
        hint: 'fix it by hand, or move it aside to start afresh',
      });
    }
  });

  it('a config.json that cannot be read (here a directory) is exit 3 naming it, not an empty config', () => {
    const dir = tempDir();
    const path = join(dir, 'config.json');
    mkdirSync(path);
    expect(told(thrown(() => readConfigFile(path)))).toEqual({
      exitCode: 3,
      message: `cannot read config file ${path}: it is a directory; only a regular file is read`,
      hint: 'replace it with a file of its own, or point FCAST_CONFIG_DIR elsewhere',
    });
  });

  it('a FIFO or a device at config.json is refused at once, never waited on or read', () => {
    const dir = tempDir();
    const path = join(dir, 'config.json');
    spawnSync('mkfifo', [path]);
    expect(told(thrown(() => readConfigFile(path))).message).toBe(
      `cannot read config file ${path}: it is a FIFO; only a regular file is read`,
    );
    rmSync(path);
    symlinkSync('/dev/zero', path);
    // A link is the location check's to word (it names the target).
    expect(told(thrown(() => readConfigFile(path))).message).toBe(
      `${path} is a symbolic link (to /dev/zero); fcast reads and writes keys only in a file of its own`,
    );
  });

  it('doctor’s inspection reports a broken file beside the settings it still finds elsewhere', () => {
    const ctx = ctxWith({ FCAST_TIMEOUT: '9' }, '{"timeout": ');
    const found = inspectSettings(ctx, {});
    expect(found.fileProblem).toBeInstanceOf(ConfigError);
    expect(found.fileProblem?.message).toMatch(/cannot be parsed/);
    expect(found.timeout).toEqual({ found: { value: 9, source: 'FCAST_TIMEOUT' } });
  });
});

describe('each setting’s values, wherever they are set', () => {
  const fromEnv = (env: Record<string, string>) => resolveSettings(ctxWith(env), {});
  const fromFile = (data: Record<string, unknown>) => {
    const ctx = ctxWith({}, JSON.stringify(data));
    return { settings: () => resolveSettings(ctx, {}), path: join(ctx.dir, 'config.json') };
  };
  const flag = (name: Parameters<typeof flagParser>[0], raw: string) => flagParser(name)(raw);

  it('timeout: seconds above 0, up to a day; the variable named with how to fix it', () => {
    expect(fromEnv({ FCAST_TIMEOUT: '0.5' }).timeout).toEqual({ value: 0.5, source: 'FCAST_TIMEOUT' });
    expect(fromEnv({ FCAST_TIMEOUT: ' 86400 ' }).timeout.value).toBe(86_400);
    for (const bad of ['0', '-1', '86401', 'soon', 'Infinity'])
      expect(told(thrown(() => fromEnv({ FCAST_TIMEOUT: bad }))), bad).toEqual({
        exitCode: 3,
        message: `FCAST_TIMEOUT must be a number of seconds above 0, at most 86400, got '${bad}'`,
        hint: 'fix FCAST_TIMEOUT in your environment, or unset it',
      });
  });

  it('max-wait: seconds from 0 (no wait accepted), up to a day', () => {
    expect(fromEnv({ FCAST_MAX_WAIT: '0' }).maxWait).toEqual({ value: 0, source: 'FCAST_MAX_WAIT' });
    expect(fromEnv({ FCAST_MAX_WAIT: '86400' }).maxWait.value).toBe(86_400);
    expect(flag('maxWait', '2.5')).toBe(2.5);
    for (const bad of ['-1', '86401', '-0.001'])
      expect(told(thrown(() => fromEnv({ FCAST_MAX_WAIT: bad }))).message, bad).toBe(
        `FCAST_MAX_WAIT must be a number of seconds from 0 to 86400, got '${bad}'`,
      );
  });

  it('retries: a whole number from 0 to 10', () => {
    expect(fromEnv({ FCAST_RETRIES: '0' }).retries).toEqual({ value: 0, source: 'FCAST_RETRIES' });
    expect(fromEnv({ FCAST_RETRIES: '10' }).retries.value).toBe(10);
    for (const bad of ['-1', '11', '1.5', 'two'])
      expect(told(thrown(() => fromEnv({ FCAST_RETRIES: bad }))).message, bad).toBe(
        `FCAST_RETRIES must be a whole number from 0 to 10, got '${bad}'`,
      );
  });

  it('a flag given nothing, or blanks, is refused (exit 2), not read as 0', () => {
    for (const raw of ['', '  ']) {
      expect(told(thrown(() => flag('maxWait', raw)))).toEqual({
        exitCode: 2,
        message: `--max-wait must be a number of seconds from 0 to 86400, got '${raw}'`,
        hint: undefined,
      });
      expect(thrown(() => flag('retries', raw)).message).toBe(
        `--retries must be a whole number from 0 to 10, got '${raw}'`,
      );
      expect(thrown(() => flag('timeout', raw)).exitCode).toBe(2);
    }
  });

  it('numbers in the file may be written as text; anything else is exit 3 naming the file and how to fix it', () => {
    const ok = fromFile({ timeout: '12', retries: 3, 'max-wait': ' 0 ' });
    expect(ok.settings()).toMatchObject({
      timeout: { value: 12, source: ok.path },
      retries: { value: 3, source: ok.path },
      maxWait: { value: 0, source: ok.path },
    });
    for (const [value, shown] of [
      [[5], '[5]'],
      [true, 'true'],
      [{ toString: 1 }, '{"toString":1}'],
      ['', ''],
    ] as const) {
      const bad = fromFile({ timeout: value });
      expect(told(thrown(bad.settings)), shown).toEqual({
        exitCode: 3,
        message: `'timeout' in ${bad.path} must be a number of seconds above 0, at most 86400, got '${shown}'`,
        hint: "run 'fcast config set timeout VALUE', or 'fcast config unset timeout'",
      });
    }
    const retries = fromFile({ retries: [1] });
    expect(thrown(retries.settings).message).toBe(
      `'retries' in ${retries.path} must be a whole number from 0 to 10, got '[1]'`,
    );
  });

  it('null in the file, or a blank variable, counts as unset', () => {
    const { settings } = fromFile({ timeout: null, 'base-url': null, record: null });
    expect(settings()).toMatchObject({ timeout: { value: 30, source: 'default' }, baseUrl: undefined });
    const ctx = ctxWith({ FCAST_TIMEOUT: ' \t', FCAST_BASE_URL: '  ' }, JSON.stringify({ timeout: 4 }));
    expect(resolveSettings(ctx, {}).timeout).toEqual({ value: 4, source: join(ctx.dir, 'config.json') });
    expect(resolveSettings(ctx, {}).baseUrl).toBeUndefined();
  });

  it('base URL: an http(s) URL without credentials, kept as typed without surrounding blanks', () => {
    expect(fromEnv({ FCAST_BASE_URL: ' https://api.example/v1 ' }).baseUrl).toEqual({
      value: 'https://api.example/v1',
      source: 'FCAST_BASE_URL',
    });
    for (const bad of ['not a url', 'ftp://files.example'])
      expect(told(thrown(() => fromEnv({ FCAST_BASE_URL: bad }))), bad).toEqual({
        exitCode: 3,
        message: `FCAST_BASE_URL must be an http(s) URL, got '${bad}'`,
        hint: 'fix FCAST_BASE_URL in your environment, or unset it',
      });
    for (const bad of ['https://user@api.example', 'https://:secret@api.example', 'https://u:p@api.example'])
      expect(thrown(() => fromEnv({ FCAST_BASE_URL: bad })).message, bad).toBe(
        'FCAST_BASE_URL must not carry credentials',
      );
    const odd = fromFile({ 'base-url': { toString: 1 } });
    expect(thrown(odd.settings).message).toBe(`'base-url' in ${odd.path} must be an http(s) URL, got '{"toString":1}'`);
  });

  it('watchlist in the file: a JSON array, blanks around and between its items ignored; none is unset', () => {
    expect(fromFile({ watchlist: [' eth/usd ', 'BTC/USD', ' ', 'ETH/USD'] }).settings().watchlist?.value).toEqual([
      'ETH/USD',
      'BTC/USD',
    ]);
    expect(fromFile({ watchlist: [] }).settings().watchlist).toBeUndefined();
    expect(fromEnv({ FCAST_WATCHLIST: ' , ' }).watchlist).toBeUndefined();
    const bad = fromFile({ watchlist: [' bitcoin ', { toString: 1 }] });
    expect(told(thrown(bad.settings))).toEqual({
      exitCode: 3,
      message: `'watchlist' in ${bad.path} must list symbols like BTC/USD,ETH/USD; 'bitcoin' is not BASE/QUOTE`,
      hint: "run 'fcast config set watchlist VALUE', or 'fcast config unset watchlist'",
    });
    expect(thrown(fromFile({ watchlist: [{ toString: 1 }] }).settings).message).toMatch(
      /; '\{"toString":1\}' is not BASE\/QUOTE$/,
    );
  });

  it('record: a switch in any case with blanks around it; JSON true/false in the file; blank is the default', () => {
    expect(fromEnv({ FCAST_RECORD: ' Yes ' }).record).toEqual({ value: true, source: 'FCAST_RECORD' });
    expect(fromFile({ record: true }).settings().record.value).toBe(true);
    expect(fromFile({ record: false }).settings().record.value).toBe(false);
    expect(fromFile({ record: '' }).settings().record).toEqual({ value: false, source: 'default' });
    const bad = fromFile({ record: [true] });
    expect(thrown(bad.settings).message).toBe(
      `'record' in ${bad.path} must be on or off (1/0, true/false, yes/no), got '[true]'`,
    );
  });

  it('a key in the file: trimmed, blank is none, anything but text is exit 3 saying how to store it again', () => {
    const key = `mfa_ag_${'b'.repeat(40)}`;
    expect(fromFile({ 'api-key': ` ${key}\n` }).settings().apiKey?.value).toBe(key);
    expect(fromFile({ 'api-key': '  ' }).settings().apiKey).toBeUndefined();
    for (const [configKey, login] of [
      ['api-key', 'fcast auth login'],
      ['gateway-key', 'fcast auth login --gateway'],
    ] as const) {
      const bad = fromFile({ [configKey]: 42 });
      expect(told(thrown(bad.settings))).toEqual({
        exitCode: 3,
        message: `'${configKey}' in ${bad.path} is not a string`,
        hint: `run '${login}' to store it again`,
      });
    }
  });
});

describe('what a command requires before it sends', () => {
  const rest = { value: `mfa_ag_${'a'.repeat(40)}`, source: 'FCAST_API_KEY' };

  it('the base URL as the root of every path: a trailing slash, no query or fragment', () => {
    const at = (value: string) => requireBaseUrl({ baseUrl: { value, source: 'x' } }).href;
    expect(at('http://127.0.0.1:8080/api?debug=1#top')).toBe('http://127.0.0.1:8080/api/');
    expect(at('https://api.example/')).toBe('https://api.example/');
    expect(told(thrown(() => requireBaseUrl({ baseUrl: undefined })))).toEqual({
      exitCode: 3,
      message: 'no base URL is set',
      hint: BASE_URL_HINT,
    });
  });

  it('no key: what is missing and where to get one, for the REST endpoints and the gateway', () => {
    expect(told(thrown(() => requireKey({ apiKey: undefined, gatewayKey: undefined }, 'rest')))).toEqual({
      exitCode: 3,
      message: 'no API key',
      hint: "get a free key with 'fcast register --email ADDRESS', or set FCAST_API_KEY, or run 'fcast auth login'",
    });
    expect(told(thrown(() => requireKey({ apiKey: undefined, gatewayKey: undefined }, 'gateway')))).toEqual({
      exitCode: 3,
      message: 'no gateway key and no API key to fall back on',
      hint: "set FCAST_GATEWAY_KEY or run 'fcast auth login --gateway' (the REST key serves too)",
    });
  });

  it('the REST key serving the REST endpoints is no fallback', () => {
    expect(inspectKey({ apiKey: rest, gatewayKey: undefined }, 'rest')).toMatchObject({
      key: { ...rest, kind: 'rest' },
      fallback: false,
    });
    expect(requireKey({ apiKey: rest, gatewayKey: undefined }, 'rest')).toMatchObject({ ...rest, kind: 'rest' });
  });

  it('a malformed key: which one, from where, and how to set it again (auth login, --gateway for the gateway’s)', () => {
    const bad = { value: `mfa_ag_${'A'.repeat(40)}`, source: 'FCAST_API_KEY' };
    expect(thrown(() => requireKey({ apiKey: bad, gatewayKey: undefined }, 'gateway')).hint).toBe(
      "a key looks like <prefix>_ag_ followed by 40 lowercase hex characters; set it again from the key you were given, or run 'fcast auth login'",
    );
    const gw = { value: 'short', source: '/c/config.json' };
    const err = thrown(() => requireKey({ apiKey: rest, gatewayKey: gw }, 'gateway'));
    expect(err.message).toMatch(/^the gateway key from \/c\/config\.json is malformed: /);
    expect(err.hint).toBe(
      "a key looks like one token of 8 to 512 printable characters; set it again from the key you were given, or run 'fcast auth login --gateway'",
    );
    expect(err.exitCode).toBe(3);
  });
});

describe('the data directory on Windows', () => {
  it('is %LOCALAPPDATA%\\fcast\\Data, else under the home directory', () => {
    expect(dataDir({ env: { LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' }, platform: 'win32', homedir: '/h' })).toBe(
      join('C:\\Users\\u\\AppData\\Local', 'fcast', 'Data'),
    );
    expect(dataDir({ env: {}, platform: 'win32', homedir: '/h' })).toBe(
      join('/h', 'AppData', 'Local', 'fcast', 'Data'),
    );
  });
});

describe('the help and the redactor, from the settings table', () => {
  it('fcast help settings: each variable with its help, flag and default, or its note', () => {
    expect(settingRows()).toEqual([
      ['FCAST_BASE_URL', 'base URL of the service (--base-url)'],
      ['FCAST_API_KEY', 'REST key (never a flag) (register, auth login)'],
      ['FCAST_GATEWAY_KEY', 'gateway key; else the REST key (auth login --gateway)'],
      ['FCAST_TIMEOUT', 'request deadline (--timeout, default 30)'],
      ['FCAST_RETRIES', 'automatic retries (--retries, default 2)'],
      ['FCAST_MAX_WAIT', 'longest wait accepted for a retry (--max-wait, default 60)'],
      ['FCAST_WATCHLIST', "predict's symbols when given none (e.g. BTC/USD,ETH/USD)"],
      ['FCAST_RECORD', 'record forecasts shown (journal) (or --record)'],
      ['config keys', 'base-url, timeout, retries, max-wait, watchlist, record'],
    ]);
  });

  it('the redactor knows every key set, from the environment (trimmed) and the file (text only), and none else', () => {
    const api = `mfa_ag_${'c'.repeat(40)}`;
    const gw = 'gw-secret-token';
    expect(knownSecrets(ctxWith({}))).toEqual([]);
    expect(knownSecrets(ctxWith({ FCAST_API_KEY: ` ${api} ` }))).toEqual([api]);
    expect(knownSecrets(ctxWith({}, JSON.stringify({ 'api-key': 42, 'gateway-key': gw })))).toEqual([gw]);
    expect(knownSecrets(ctxWith({ FCAST_GATEWAY_KEY: gw }, JSON.stringify({ 'api-key': api })))).toEqual([gw, api]);
    // A broken file is the command's to report: the redactor still gets the environment's keys.
    expect(knownSecrets(ctxWith({ FCAST_API_KEY: api }, '{"api-key": '))).toEqual([api]);
  });

  it("the redactor knows a proxy's password, as written, decoded and with its user (the Basic credential)", () => {
    expect(knownSecrets(ctxWith({ HTTPS_PROXY: 'http://bob:p%40ss%2Fw0rd@proxy.example:3128' }))).toEqual([
      'p%40ss%2Fw0rd',
      'p@ss/w0rd',
      'bob:p@ss/w0rd',
    ]);
    expect(knownSecrets(ctxWith({ http_proxy: 'alice:S3cretPw@proxy.example' }))).toEqual([
      'S3cretPw',
      'S3cretPw',
      'alice:S3cretPw',
    ]);
    // No password, or no URL at all (the transport refuses that one): nothing to know.
    expect(knownSecrets(ctxWith({ HTTPS_PROXY: 'http://bob@proxy.example', HTTP_PROXY: 'http://[' }))).toEqual([]);
  });
});
