import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  MIN_NODE_VERSION,
  checkApiKey,
  checkConfigDirectory,
  checkConfigFileMode,
  checkNode,
  checkProxy,
  nodeEndOfLife,
  type ConfigState,
} from '../../src/doctor/checks.js';
import { exitCodeOf, type Check } from '../../src/doctor/check.js';
import { maskedProxy } from '../../src/api/transport.js';

const config = (over: Partial<ConfigState>): ConfigState => ({
  dir: '/home/u/.config/fcast',
  path: '/home/u/.config/fcast/config.json',
  dirMode: 0o700,
  fileMode: 0o600,
  data: {},
  ...over,
});

describe('doctor checks', () => {
  it('requires the Node.js version that package.json promises', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      engines: { node: string };
    };
    expect(pkg.engines.node).toBe(`>=${MIN_NODE_VERSION}`);
    const spring2026 = Date.UTC(2026, 2, 1);
    expect(checkNode('20.18.1', spring2026).status).toBe('pass');
    expect(checkNode('v24.1.0', spring2026).status).toBe('pass');
    expect(checkNode('20.9.0', spring2026)).toMatchObject({
      status: 'fail',
      exitCode: 3,
      detail: '20.9.0 is older than 20.18.1',
    });
    expect(checkNode('18.20.4', spring2026).hint).toMatch(/install Node.js 20.18.1 or newer/);
  });

  it('warns on a Node.js line past its end of life, with the date, from the day after it', () => {
    expect(checkNode('20.20.2', Date.UTC(2026, 3, 30, 23, 59))).toMatchObject({ status: 'pass' });
    expect(checkNode('20.20.2', Date.UTC(2026, 4, 1))).toEqual({
      name: 'node',
      status: 'warn',
      detail: '20.20.2: Node.js 20 reached its end of life on 2026-04-30 and gets no more security fixes',
      hint: 'install a maintained line, e.g. the current LTS (fcast runs on 20, 22 and 24)',
    });
    expect(checkNode('v22.12.0', Date.UTC(2026, 10, 27)).status).toBe('pass');
    expect(checkNode('22.12.0', Date.UTC(2027, 4, 1)).detail).toMatch(/end of life on 2027-04-30/);
    expect(checkNode('24.1.0', Date.UTC(2028, 4, 1)).detail).toMatch(/end of life on 2028-04-30/);
    expect(checkNode('26.0.0', Date.UTC(2029, 4, 1)).detail).toMatch(/end of life on 2029-04-30/);
    expect(checkNode('28.0.0', Date.UTC(2030, 0, 1)).status).toBe('pass');
  });

  it('in the standalone executable says the Node is built in, and past its end of life names the release to download', () => {
    expect(checkNode('26.10.0', Date.UTC(2026, 11, 2), true)).toEqual({
      name: 'node',
      status: 'pass',
      detail: '26.10.0, built into this executable',
    });
    expect(checkNode('20.20.2', Date.UTC(2026, 11, 2), true)).toEqual({
      name: 'node',
      status: 'warn',
      detail:
        '20.20.2, built into this executable: Node.js 20 reached its end of life on 2026-04-30 and gets no more security fixes',
      hint: `download the newest release's executable, fcast-VERSION-${process.platform}-${process.arch}: https://github.com/OWNER/fcast/releases/latest`,
    });
  });

  it('warns on an odd line past its end of life too', () => {
    expect(checkNode('25.0.0', Date.UTC(2026, 5, 1, 23, 59)).status).toBe('pass');
    expect(checkNode('25.0.0', Date.UTC(2030, 0, 1))).toEqual({
      name: 'node',
      status: 'warn',
      detail: '25.0.0: Node.js 25 reached its end of life on 2026-06-01 and gets no more security fixes',
      hint: 'install a maintained line, e.g. the current LTS (fcast runs on 20, 22 and 24)',
    });
    expect(checkNode('21.7.3', Date.UTC(2026, 10, 27)).detail).toMatch(/end of life on 2024-06-01/);
    expect(checkNode('23.11.1', Date.UTC(2026, 10, 27)).detail).toMatch(/end of life on 2025-06-01/);
    expect(nodeEndOfLife('19.9.0', Date.UTC(2026, 10, 27))).toBe('2023-06-01');
    expect(checkNode('27.0.0', Date.UTC(2030, 0, 1)).status).toBe('pass');
  });

  it('checks modes on POSIX systems only, and accepts stricter ones', () => {
    expect(checkConfigFileMode(config({ fileMode: 0o644 }), 'linux').status).toBe('fail');
    expect(checkConfigFileMode(config({ fileMode: 0o644 }), 'win32').status).toBe('pass');
    expect(checkConfigFileMode(config({ fileMode: 0o400 }), 'darwin').status).toBe('pass');
    expect(checkConfigDirectory(config({ dirMode: 0o750 }), 'linux').status).toBe('warn');
    expect(checkConfigDirectory(config({ dirMode: 0o755 }), 'win32').status).toBe('pass');
    expect(checkConfigDirectory(config({ dirMode: undefined }), 'linux')).toMatchObject({
      status: 'pass',
      detail: expect.stringMatching(/does not exist yet/),
    });
  });

  it('quotes paths in the chmod it suggests', () => {
    const odd = config({ path: "/home/o'brien/fcast/config.json", fileMode: 0o666 });
    expect(checkConfigFileMode(odd, 'linux').hint).toBe(`chmod 600 '/home/o'\\''brien/fcast/config.json'`);
  });

  it('says what is wrong with a malformed key without showing any of it', () => {
    const hex = 'a'.repeat(40);
    const cases: Array<[string, RegExp]> = [
      [`mfa_ag_${hex} extra`, /whitespace/],
      [`"mfa_ag_${hex}"`, /quotes/],
      [`mfa_${hex}`, /no '_ag_'/],
      [`mf-a_ag_${hex}`, /prefix/],
      [`mfa_ag_${'A'.repeat(40)}`, /upper-case/],
      [`mfa_ag_${hex.slice(1)}`, /39 characters/],
    ];
    for (const [key, why] of cases) {
      const check = checkApiKey({ found: { value: key, source: 'FCAST_API_KEY' } });
      expect(check.status).toBe('fail');
      expect(check.detail).toMatch(why);
      expect(check.detail).not.toContain('aaaa');
      expect(check.detail).not.toContain('AAAA');
    }
    expect(checkApiKey({ found: { value: `mfa_ag_${hex}`, source: 'FCAST_API_KEY' } })).toMatchObject({
      status: 'pass',
      detail: 'mfa_ag_aaaa...aaaa (from FCAST_API_KEY)',
    });
  });

  it('masks proxy credentials, and fails a proxy that is not a URL without echoing it', () => {
    expect(maskedProxy('http://user:pw@proxy:3128')).toBe('http://***:***@proxy:3128');
    expect(maskedProxy('http://token@proxy:3128/')).toBe('http://***@proxy:3128');
    expect(maskedProxy('proxy.example:8080')).toBe('http://proxy.example:8080');
    const broken = checkProxy({ HTTPS_PROXY: 'http://user:pw@[bad' });
    expect(broken.status).toBe('fail');
    expect(broken.detail).toBe('HTTPS_PROXY is not a URL');
    // The lower-case spelling is the one in effect, as in the HTTP layer.
    expect(checkProxy({ https_proxy: 'http://a:3128', HTTPS_PROXY: 'http://b:3128' }).detail).toBe(
      'https_proxy=http://a:3128',
    );
    expect(checkProxy({}).detail).toBe('none: direct connections');
    expect(checkProxy({ HTTP_PROXY: 'socks5://p:1080' }).detail).toBe(
      'HTTP_PROXY must be an http:// or https:// proxy, not socks5:',
    );
    // Whether the service itself goes through it, by the same rule as the HTTP layer.
    expect(
      checkProxy({ HTTPS_PROXY: 'p.example:3128', NO_PROXY: '.internal' }, 'https://svc.internal/').detail,
    ).toMatch(/svc\.internal goes direct$/);
    expect(checkProxy({ HTTPS_PROXY: 'p.example:3128' }, 'https://api.example/').detail).toMatch(
      /api\.example goes through http:\/\/p\.example:3128$/,
    );
  });

  it('exits with the code of the first failed check, 0 when only warnings', () => {
    const check = (status: Check['status'], exitCode?: Check['exitCode']): Check => ({
      name: 'x',
      status,
      detail: '',
      exitCode,
    });
    expect(exitCodeOf([check('pass'), check('warn')])).toBe(0);
    expect(exitCodeOf([check('pass'), check('fail', 6), check('fail', 3)])).toBe(6);
    expect(exitCodeOf([check('fail')])).toBe(3);
  });
});
