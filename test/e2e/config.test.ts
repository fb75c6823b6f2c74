import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectExit, runCli, tempDir } from '../helpers/cli.js';

const mode = (path: string) => statSync(path).mode & 0o777;

describe('fcast config', () => {
  it('sets, gets, lists and unsets values in a private file', async () => {
    const dir = join(tempDir(), 'nested', 'fcast');
    const set = await runCli(['config', 'set', 'base-url', 'https://forecasts.example'], { configDir: dir });
    expect(set.code).toBe(0);
    expect(set.stdout).toBe('');
    expect(set.stderr).toMatch(/set base-url in .*config\.json/);
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(dir, 'config.json'))).toBe(0o600);

    await runCli(['config', 'set', 'timeout', '12.5'], { configDir: dir });
    const get = await runCli(['config', 'get', 'timeout'], { configDir: dir });
    expect(get).toMatchObject({ code: 0, stdout: '12.5\n' });

    const list = await runCli(['config', 'list', '--json'], { configDir: dir, env: { FCAST_RETRIES: '4' } });
    const listed = JSON.parse(list.stdout);
    expect(listed['base-url']).toEqual({ value: 'https://forecasts.example', source: join(dir, 'config.json') });
    expect(listed.retries).toEqual({ value: 4, source: 'FCAST_RETRIES' });
    expect(listed['max-wait']).toEqual({ value: 60, source: 'default' });

    const unset = await runCli(['config', 'unset', 'timeout'], { configDir: dir });
    expect(unset.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))).toEqual({
      'base-url': 'https://forecasts.example',
    });
  });

  it('set warns when an environment variable overrides the value it just set, and only then', async () => {
    const dir = tempDir();
    const env = { FCAST_BASE_URL: 'http://127.0.0.1:8787' };
    const r = await runCli(['config', 'set', 'base-url', 'https://forecasts.example'], { configDir: dir, env });
    expectExit(r, 0);
    expect(r.stderr).toBe(
      `set base-url in ${join(dir, 'config.json')}\n` +
        'warning: FCAST_BASE_URL is set in the environment and takes precedence over the value just set; unset FCAST_BASE_URL to use it\n',
    );
    const other = await runCli(['config', 'set', 'timeout', '12'], { configDir: dir, env });
    expect(other.stderr).toBe(`set timeout in ${join(dir, 'config.json')}\n`);
    const blank = await runCli(['config', 'set', 'base-url', 'https://forecasts.example'], {
      configDir: dir,
      env: { FCAST_BASE_URL: ' ' },
    });
    expect(blank.stderr).toBe(`set base-url in ${join(dir, 'config.json')}\n`);
  });

  it('list and get show the config and data directories with where each comes from; set and unset refuse them', async () => {
    const dir = tempDir();
    const data = join(tempDir(), 'data');
    const list = await runCli(['config', 'list', '--json'], { configDir: dir, env: { FCAST_DATA_DIR: data } });
    expectExit(list, 0);
    const listed = JSON.parse(list.stdout);
    expect(listed['config-dir']).toEqual({ value: dir, source: 'FCAST_CONFIG_DIR' });
    expect(listed['data-dir']).toEqual({ value: data, source: 'FCAST_DATA_DIR' });
    // Unset (or blank), the OS's: ~/.local/share/fcast on Linux (runCli's home is the config dir).
    const table = await runCli(['config', 'list'], { configDir: dir, env: { FCAST_DATA_DIR: '' } });
    expect(table.stdout).toMatch(new RegExp(`^data-dir +${join(dir, '.local', 'share', 'fcast')} +default$`, 'm'));
    const get = await runCli(['config', 'get', 'data-dir'], { configDir: dir, env: { FCAST_DATA_DIR: data } });
    expect(get).toMatchObject({ code: 0, stdout: `${data}\n` });
    // get reads them, so a misspelt one is suggested, and listed among the keys, like a setting.
    const typo = await runCli(['config', 'get', 'data-dri'], { configDir: dir });
    expectExit(typo, 2);
    expect(typo.stderr).toMatch(
      /^fcast: unknown config key 'data-dri' \(did you mean data-dir\?\); the keys are .*record, config-dir, data-dir\n/,
    );

    for (const argv of [
      ['config', 'set', 'data-dir', data],
      ['config', 'unset', 'config-dir'],
    ]) {
      const r = await runCli(argv, { configDir: dir });
      expectExit(r, 2);
      expect(r.stderr).toMatch(/is read from FCAST_(DATA|CONFIG)_DIR only, never from the config file/);
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it('writes the file 0600 and leaves the mode of a directory it did not create alone', async () => {
    const dir = tempDir();
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'config.json'), '{}', { mode: 0o644 });
    const r = await runCli(['config', 'set', 'retries', '3'], { configDir: dir });
    expect(r.code).toBe(0);
    expect(mode(dir)).toBe(0o755);
    expect(mode(join(dir, 'config.json'))).toBe(0o600);
  });

  it('creates a missing directory 0700, and leaves no lock or temp file behind', async () => {
    const dir = join(tempDir(), 'a', 'fcast');
    const r = await runCli(['config', 'set', 'retries', '3'], { configDir: dir });
    expect(r.code).toBe(0);
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(dir, '..'))).toBe(0o700);
    expect(readdirSync(dir)).toEqual(['config.json']);
  });

  it('refuses bad values and unknown keys with exit 2, naming the allowed ones', async () => {
    const bad = await runCli(['config', 'set', 'base-url', 'ftp://x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/http\(s\) URL/);
    expect((await runCli(['config', 'set', 'timeout', 'soon'])).code).toBe(2);
    expect((await runCli(['config', 'set', 'retries', '2.5'])).code).toBe(2);
    const unknown = await runCli(['config', 'get', 'colour']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/base-url, timeout, retries, max-wait/);
  });

  it('never sets or shows a key through config', async () => {
    const r = await runCli(['config', 'set', 'api-key', `x_ag_${'a'.repeat(40)}`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/fcast auth login/);
    const dir = tempDir();
    const key = `mfa_ag_${'ab'.repeat(20)}`;
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ 'api-key': key }));
    const list = await runCli(['config', 'list'], { configDir: dir });
    expect(list.stdout).toContain('mfa_ag_abab...abab');
    expect(list.stdout + list.stderr).not.toContain(key);
  });

  it('reports a corrupt file with its path, exit 3, and leaves it as it was', async () => {
    const dir = tempDir();
    const path = join(dir, 'config.json');
    writeFileSync(path, '{"base-url": "https://x.example",');
    for (const argv of [['config', 'list'], ['config', 'set', 'retries', '1'], ['demo']]) {
      const r = await runCli(argv, { configDir: dir });
      expect(r.code).toBe(3);
      expect(r.stderr).toContain(path);
      expect(r.stderr).toMatch(/left untouched/);
    }
    expect(readFileSync(path, 'utf8')).toBe('{"base-url": "https://x.example",');
    const where = await runCli(['config', 'path'], { configDir: dir });
    expect(where).toMatchObject({ code: 0, stdout: `${path}\n` });
  });

  it('exits 3 when the config directory cannot be written', async () => {
    const parent = tempDir();
    writeFileSync(join(parent, 'not-a-dir'), '');
    const r = await runCli(['config', 'set', 'retries', '1'], { configDir: join(parent, 'not-a-dir', 'fcast') });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/cannot write config file/);
  });

  it('exits 3, not 1, when the directory exists but takes no file (the lock cannot be made)', async () => {
    // A process's fdinfo is its user's own, mode 0500, and refuses a new file even to root.
    const key = `mfa_ag_${'0123456789'.repeat(4)}`;
    for (const argv of [
      ['config', 'set', 'retries', '1'],
      ['auth', 'login'],
    ]) {
      const r = await runCli(argv, { configDir: '/proc/self/fdinfo', stdin: key });
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(3);
      expect(r.stderr).toMatch(/^fcast: cannot write config file \/proc\/self\/fdinfo\/config\.json: /);
      expect(r.stderr).not.toMatch(/internal error/);
    }
  });
});
