// An error caused by a setting, told with where the setting came from; a REST key refused by a
// loopback host (most likely `fcast mock` restarted with --fresh) also says what brings a
// working key back, which depends on where the key came from: the config file (`register
// --force` replaces it) or FCAST_API_KEY (which no register changes).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiErrorFrom } from '../../src/api/response-errors.js';
import { withSettingOrigin } from '../../src/cmdutil/setting-origin.js';
import { resolveSettings } from '../../src/config/settings.js';
import type { FcastError } from '../../src/core/errors.js';
import { tempDir } from '../helpers/cli.js';

const KEY = `mfa_ag_${'0'.repeat(40)}`;
const LOCAL = 'http://127.0.0.1:8787';
const REMOTE = 'https://forecasts.example';
const BASE_HINT = "check the key with 'fcast auth status'; get one with 'fcast register --email ADDRESS'";
const FORGOT = "if this is 'fcast mock', it may have been restarted with --fresh and forgot the key";

/** Settings with the key in the config file or in FCAST_API_KEY, and `base` as the base URL. */
function settings(key: 'file' | 'env', base: string) {
  const dir = tempDir();
  if (key === 'file') writeFileSync(join(dir, 'config.json'), JSON.stringify({ 'api-key': KEY }), { mode: 0o600 });
  const env = { FCAST_CONFIG_DIR: dir, FCAST_BASE_URL: base, ...(key === 'env' && { FCAST_API_KEY: KEY }) };
  return resolveSettings({ env, platform: 'linux', homedir: '/home/u' }, {});
}

const problem = (status: number) => ({ type: 'about:blank', title: 'Unauthorized', status, detail: 'API key invalid' });
const told = (err: unknown, s: ReturnType<typeof settings>) => withSettingOrigin(err, s) as FcastError;

describe('a REST key refused (401)', () => {
  it('from the config file, by a loopback host: register --force replaces it', () => {
    const s = settings('file', LOCAL);
    const err = told(apiErrorFrom(401, problem(401)), s);
    expect(err.message).toBe(
      `HTTP 401 Unauthorized: API key invalid; the API key comes from the config file ${s.configPath}`,
    );
    expect(err.hint).toBe(`${BASE_HINT}; ${FORGOT}: 'fcast register --force --email ADDRESS' replaces it`);
  });

  it('from FCAST_API_KEY, by a loopback host: export the key it printed (register --force would not change it)', () => {
    const err = told(apiErrorFrom(401, problem(401)), settings('env', 'http://localhost:9000/'));
    expect(err.message).toMatch(/; the API key comes from FCAST_API_KEY in the environment$/);
    expect(err.hint).toBe(`${BASE_HINT}; ${FORGOT}: export the FCAST_API_KEY it printed, or a newly registered one`);
    expect(err.hint).not.toContain('--force');
  });

  it('by any other host: no word of the emulator, wherever the key came from', () => {
    for (const key of ['file', 'env'] as const) {
      const err = told(apiErrorFrom(401, problem(401)), settings(key, REMOTE));
      expect(err.message).toMatch(/; the API key comes from /);
      expect(err.hint).toBe(BASE_HINT);
    }
  });

  it('not for the gateway (its hint names the key it sent) nor for another status', () => {
    const s = settings('file', LOCAL);
    const gateway = apiErrorFrom(401, { ok: false, error: { code: 'unauthorized', message: 'bad key' } });
    expect(told(gateway, s).hint).not.toContain('fcast mock');
    const forbidden = told(apiErrorFrom(403, problem(403)), s);
    expect(forbidden.hint ?? '').not.toContain('fcast mock');
    expect(forbidden.message).not.toContain('comes from');
  });
});
