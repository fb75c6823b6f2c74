import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeEndOfLife } from '../../src/doctor/checks.js';
import { closedPort, tempDir } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';

const emu = useEmulator();
/** This Node's mark: a line past its end of life (Node 20 since 2026-05-01) is a warning. */
const NODE_MARK = nodeEndOfLife(process.versions.node, Date.now()) ? '!' : '✓';

/** The check lines of a table run, by name: `{ mark, text }`; a fix (on the line below) joins the text as `; fix: ...`. */
function lines(stdout: string): Map<string, { mark: string; text: string }> {
  const found = new Map<string, { mark: string; text: string }>();
  let last: { mark: string; text: string } | undefined;
  for (const line of stdout.trimEnd().split('\n')) {
    const fix = /^ +(fix: .*)$/.exec(line);
    if (fix && last) {
      last.text += `; ${fix[1]}`;
      continue;
    }
    const m = /^([✓✗!]) (.+?)\s{2,}(.*)$/.exec(line);
    if (!m) throw new Error(`not a check line: ${line}`);
    last = { mark: m[1]!, text: m[3]! };
    found.set(m[2]!, last);
  }
  return found;
}

/** A private config directory holding `config.json` with these contents and mode. */
function configDirWith(contents: string, mode = 0o600): string {
  const dir = join(tempDir(), 'fcast');
  mkdirSync(dir, { mode: 0o700 });
  writeFileSync(join(dir, 'config.json'), contents);
  chmodSync(join(dir, 'config.json'), mode);
  return dir;
}

describe('fcast doctor', () => {
  it('passes every check with a base URL and a key, exit 0, calling discovery and symbols.php once each', async () => {
    const r = await emu.runWithKey(['doctor']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const checks = lines(r.stdout);
    expect([...checks].map(([name, c]) => [name, c.mark])).toEqual(
      [...checks.keys()].map((name) => [name, name === 'node' ? NODE_MARK : '✓']),
    );
    expect([...checks.keys()]).toEqual(
      expect.arrayContaining([
        'node',
        'config directory',
        'config file',
        'config file mode',
        'data directory',
        'base URL',
        'API key',
        'gateway key',
        'proxy',
        'service',
        'authenticated call',
      ]),
    );
    expect(checks.get('base URL')!.text).toBe(`${emu.server.url} (from FCAST_BASE_URL)`);
    expect(checks.get('API key')!.text).toMatch(/^mfa_ag_[0-9a-f]{4}\.\.\.[0-9a-f]{4} \(from FCAST_API_KEY\)$/);
    expect(r.stdout).not.toContain(emu.server.testKey);
    expect(emu.server.requests.map((q) => q.path)).toEqual(['/api/agent/v1/', '/api/agent/v1/symbols.php']);
    expect(emu.server.requests[0]!.headers.authorization).toBeUndefined();
    expect(emu.server.requests[1]!.headers.authorization).toBe(`Bearer ${emu.server.testKey}`);
  });

  it('without a base URL fails that check with the fix, still runs the others, sends nothing, exit 3', async () => {
    const r = await emu.runWithKey(['doctor'], { env: { FCAST_BASE_URL: '' } });
    expect(r.code).toBe(3);
    const checks = lines(r.stdout);
    expect(checks.get('base URL')!.mark).toBe('✗');
    expect(checks.get('base URL')!.text).toMatch(
      /not set.*fix: set FCAST_BASE_URL, pass --base-url URL, or run 'fcast config set base-url URL'/,
    );
    expect(checks.get('node')!.mark).toBe(NODE_MARK);
    expect(checks.get('API key')!.mark).toBe('✓');
    expect(checks.get('service')!.mark).toBe('!');
    expect(r.stderr).toMatch(/^fcast: 1 of \d+ checks failed\n$/);
    expect(emu.server.requests).toHaveLength(0);
  });

  it('fails a config file others can read and warns of a config directory others can list, with the chmod for each', async () => {
    const dir = configDirWith('{}', 0o644);
    chmodSync(dir, 0o755);
    const r = await emu.runWithKey(['doctor'], { configDir: dir });
    expect(r.code).toBe(3);
    const checks = lines(r.stdout);
    expect(checks.get('config file mode')!.mark).toBe('✗');
    expect(checks.get('config file mode')!.text).toContain('0644');
    expect(checks.get('config file mode')!.text).toContain(`fix: chmod 600 '${join(dir, 'config.json')}'`);
    // Listable by others is advice (the writing commands accept it); the file's mode fails.
    expect(checks.get('config directory')!.mark).toBe('!');
    expect(checks.get('config directory')!.text).toContain(`chmod 700 '${dir}'`);
    // The rest still ran.
    expect(checks.get('service')!.mark).toBe('✓');
    expect(checks.get('authenticated call')!.mark).toBe('✓');
  });

  it('fails the config directory check for a symlinked config.json, as the writing commands refuse it', async () => {
    const dir = tempDir();
    const target = join(tempDir(), 'elsewhere.json');
    writeFileSync(target, '{}');
    symlinkSync(target, join(dir, 'config.json'));
    const r = await emu.runWithKey(['doctor'], { configDir: dir });
    expect(r.code).toBe(3);
    const check = lines(r.stdout).get('config directory')!;
    expect(check.mark).toBe('✗');
    expect(check.text).toContain(`config.json is a symbolic link (to ${target})`);
    expect(check.text).toMatch(/fix: replace the link/);
  });

  it('reports the data directory (FCAST_DATA_DIR) and its mode as the config directory’s, and fails one the journal refuses', async () => {
    const data = join(tempDir(), 'data');
    const run = () => emu.runWithKey(['doctor', '--dry-run'], { env: { FCAST_DATA_DIR: data } });
    const check = async () => lines((await run()).stdout).get('data directory')!;
    expect(await check()).toEqual({
      mark: '✓',
      text: `${data} does not exist yet (created with mode 0700 by the first --record)`,
    });
    mkdirSync(data, { mode: 0o700 });
    expect(await check()).toEqual({ mark: '✓', text: `${data}, mode 0700` });
    chmodSync(data, 0o755);
    expect(await check()).toEqual({
      mark: '!',
      text: `${data} has mode 0755: others can list it; 0700 keeps it private; fix: chmod 700 '${data}'`,
    });
    chmodSync(data, 0o777);
    const r = await run();
    expect(r.code).toBe(3);
    expect(lines(r.stdout).get('data directory')).toEqual({
      mark: '✗',
      text: `the data directory ${data} is writable by others (mode 0777); not used for the journal; fix: chmod 700 '${data}', or point FCAST_DATA_DIR at a private directory`,
    });
  });

  it('accepts a missing config file', async () => {
    const r = await emu.runWithKey(['doctor'], { configDir: join(tempDir(), 'not-yet') });
    expect(r.code).toBe(0);
    expect(lines(r.stdout).get('config file')!.text).toMatch(/^none at /);
  });

  it('flags a malformed key from the environment without printing it, and sends it nowhere', async () => {
    const key = 'mfa_ag_0123456789ABCDEF0123456789abcdef01234567';
    const r = await emu.run(['doctor'], { env: { FCAST_API_KEY: key } });
    expect(r.code).toBe(3);
    const apiKey = lines(r.stdout).get('API key')!;
    expect(apiKey.mark).toBe('✗');
    expect(apiKey.text).toMatch(/from FCAST_API_KEY is malformed: its hex part has upper-case letters/);
    for (const output of [r.stdout, r.stderr]) {
      expect(output).not.toContain(key);
      expect(output).not.toContain('0123');
      expect(output).not.toContain('4567');
    }
    expect(emu.server.requests.map((q) => q.path)).toEqual(['/api/agent/v1/']);
    expect(emu.server.requests.some((q) => q.headers.authorization !== undefined)).toBe(false);
  });

  it('reports a corrupt config file as one failed check and goes on with the environment', async () => {
    const dir = configDirWith('{"base-url": ');
    const r = await emu.runWithKey(['doctor'], { configDir: dir });
    expect(r.code).toBe(3);
    const checks = lines(r.stdout);
    expect(checks.get('config file')!.mark).toBe('✗');
    expect(checks.get('config file')!.text).toContain(join(dir, 'config.json'));
    expect(checks.get('config file')!.text).toMatch(/cannot be parsed.*fix: /);
    expect(checks.get('service')!.mark).toBe('✓');
    expect(checks.get('authenticated call')!.mark).toBe('✓');
  });

  it('takes the base URL and key from the config file, and says so', async () => {
    const dir = configDirWith(JSON.stringify({ 'base-url': emu.server.url, 'api-key': emu.server.testKey }));
    const r = await emu.run(['doctor'], { configDir: dir, env: { FCAST_BASE_URL: '' } });
    expect(r.code).toBe(0);
    const checks = lines(r.stdout);
    expect(checks.get('base URL')!.text).toBe(`${emu.server.url} (from ${join(dir, 'config.json')})`);
    expect(checks.get('API key')!.text).toContain(`(from ${join(dir, 'config.json')})`);
  });

  it('exits 6 when the service cannot be reached, with a hint', async () => {
    const port = await closedPort();
    const r = await emu.runWithKey(['doctor'], { env: { FCAST_BASE_URL: `http://127.0.0.1:${port}` } });
    expect(r.code).toBe(6);
    const checks = lines(r.stdout);
    expect(checks.get('service')!.mark).toBe('✗');
    expect(checks.get('service')!.text).toMatch(/refused; fix: /);
    expect(checks.get('authenticated call')!.mark).toBe('!');
  });

  it('the first failed check decides the exit code: a bad file mode (3) before an unreachable service (6)', async () => {
    const port = await closedPort();
    const dir = configDirWith('{}', 0o640);
    const r = await emu.runWithKey(['doctor'], { configDir: dir, env: { FCAST_BASE_URL: `http://127.0.0.1:${port}` } });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/2 of \d+ checks failed/);
  });

  it('fails the authenticated call, exit 3, when the service refuses a well-formed key', async () => {
    const r = await emu.run(['doctor'], { env: { FCAST_API_KEY: `mfa_ag_${'0'.repeat(40)}` } });
    expect(r.code).toBe(3);
    const checks = lines(r.stdout);
    expect(checks.get('API key')!.mark).toBe('✓');
    expect(checks.get('authenticated call')!.mark).toBe('✗');
    expect(checks.get('authenticated call')!.text).toMatch(/HTTP 401.*fix: /);
  });

  it('warns, without failing, when no key is set', async () => {
    const r = await emu.run(['doctor']);
    expect(r.code).toBe(0);
    const checks = lines(r.stdout);
    expect(checks.get('API key')!.mark).toBe('!');
    expect(checks.get('API key')!.text).toMatch(/fix: get a free key with 'fcast register --email ADDRESS'/);
    expect(checks.get('authenticated call')!.text).toBe('skipped: no API key');
  });

  it('shows proxy variables with their credentials masked', async () => {
    const r = await emu.runWithKey(['doctor'], {
      env: { HTTPS_PROXY: 'http://alice:s3cr3t@proxy.example:3128', NO_PROXY: 'localhost,127.0.0.1' },
    });
    const proxy = lines(r.stdout).get('proxy')!;
    expect(proxy.text).toBe(
      `HTTPS_PROXY=http://***:***@proxy.example:3128, NO_PROXY=localhost,127.0.0.1, ${new URL(emu.server.url).host} goes direct`,
    );
    expect(r.stdout).not.toMatch(/alice|s3cr3t/);
    expect(r.code).toBe(0);
  });

  it('flags a bad setting in the environment as a failed check', async () => {
    const r = await emu.runWithKey(['doctor'], { env: { FCAST_TIMEOUT: 'soon' } });
    expect(r.code).toBe(3);
    expect(lines(r.stdout).get('settings')!.text).toMatch(
      /FCAST_TIMEOUT must be a number of seconds above 0, at most 86400, got 'soon'/,
    );
    expect(lines(r.stdout).get('service')!.mark).toBe('✓');
  });

  it('--json prints one document of checks for scripts, with the same exit code', async () => {
    const r = await emu.run(['doctor', '--json'], { env: { FCAST_BASE_URL: '' } });
    expect(r.code).toBe(3);
    const body = JSON.parse(r.stdout) as {
      ok: boolean;
      checks: Array<{ name: string; status: string; ok: boolean; detail: string; hint: string | null }>;
    };
    expect(body.ok).toBe(false);
    const base = body.checks.find((c) => c.name === 'base URL')!;
    expect(base).toEqual({
      name: 'base URL',
      status: 'fail',
      ok: false,
      detail: expect.stringMatching(/^not set/),
      hint: expect.stringContaining('FCAST_BASE_URL'),
    });
    expect(body.checks.find((c) => c.name === 'node')).toMatchObject(
      NODE_MARK === '✓' ? { status: 'pass', ok: true, hint: null } : { status: 'warn', ok: true },
    );
    const passing = await emu.runWithKey(['--json', 'doctor']);
    expect(passing.code).toBe(0);
    expect(JSON.parse(passing.stdout).ok).toBe(true);
  });

  it('--dry-run checks the local setup and sends nothing', async () => {
    const r = await emu.runWithKey(['doctor', '--dry-run']);
    expect(r.code).toBe(0);
    expect(lines(r.stdout).get('service')!.text).toMatch(/skipped: --dry-run/);
    expect(emu.server.requests).toHaveLength(0);
  });
});

describe('fcast doctor on a terminal', () => {
  it.each([60, 80])('wraps between words under %i columns, carried-over lines under the detail', async (columns) => {
    const port = await closedPort();
    // A path and a proxy URL longer than the room beside the names (38 columns at 60).
    const configDir = join(tempDir(), 'a-directory-with-a-long-name', 'and-another-one-below-it');
    const proxy = 'http://someone:secret@proxy.corp.example:3128';
    const r = await emu.run(['doctor', '--no-color'], {
      tty: true,
      columns,
      configDir,
      env: { FCAST_BASE_URL: `http://127.0.0.1:${port}`, HTTP_PROXY: proxy, NO_PROXY: '127.0.0.1' },
    });
    expect(r.code).toBe(6);
    const lines = r.stdout.trimEnd().split('\n');
    const indent = lines[0]!.search(/ {2}\S/) + 2;
    // Nothing passes the width, so the terminal never cuts a word: a path or URL longer than the
    // room is carried over after one of its separators, under the detail's column.
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(columns);
    const detail = (name: string) =>
      lines
        .slice(lines.findIndex((l) => l.startsWith(`✓ ${name} `)))
        .filter((l, i) => i === 0 || !/^[✓✗!] /.test(l))
        .map((l, i) => (i === 0 ? l.slice(indent) : l.trim()));
    // Joined back (neither holds a space), each reads whole.
    const unbroken = (name: string) => detail(name).join('').replaceAll(' ', '');
    expect(unbroken('config file')).toContain(join(configDir, 'config.json'));
    expect(unbroken('proxy')).toContain('HTTP_PROXY=http://***:***@proxy.corp.example:3128');
    for (const line of lines.filter((l) => !/^[✓✗!] /.test(l))) {
      expect(line.slice(0, indent).trim(), line).toBe('');
      expect(line[indent], line).not.toBe(' ');
    }
    // Words stay whole: joined back, the service's fix reads as one sentence.
    const service = lines.slice(lines.findIndex((l) => l.startsWith('✗ service')));
    const joined = service
      .slice(
        0,
        service.findIndex((l, i) => i > 0 && /^[✓✗!] /.test(l)),
      )
      .map((l) => l.trim())
      .join(' ');
    expect(joined).toContain(
      "fix: check the base URL (from FCAST_BASE_URL in the environment): the root of a running service, without /api/agent/v1/ ('fcast mock' serves one locally)",
    );
  });
});
