import { writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, UsageError } from '../../src/core/errors.js';
import { configDir, resolveSettings } from '../../src/config/settings.js';
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
    const { CONFIG_KEYS, SECRET_KEYS, settingFlags, settingRows } = await import('../../src/config/settings.js');
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
    const { requireKey, inspectKey } = await import('../../src/config/settings.js');
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
