import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectExit, runCli, tempDir } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { racingRegistration } from '../helpers/register-race.js';
import { useTamperedServer } from '../helpers/tampered.js';

const emu = useEmulator();

const KEY_IN_TEXT = /\b[A-Za-z0-9]+_ag_[0-9a-f]{40}\b/g;
let counter = 0;
/** Each test registers its own address: the emulator remembers every one for the whole file. */
const freshEmail = (tag: string) => `${tag}-${process.pid}-${++counter}@example.com`;
const configPath = (dir: string) => join(dir, 'config.json');
const storedKey = (dir: string): unknown => JSON.parse(readFileSync(configPath(dir), 'utf8'))['api-key'];
const mode = (path: string) => statSync(path).mode & 0o777;

describe('fcast register', () => {
  it.each([60, 80])(
    'never breaks an endpoint URL at %i columns: a long one gets a line of its own',
    async (columns) => {
      const r = await emu.run(['register', '--email', freshEmail('url'), '--no-save', '--json']);
      const endpoints = Object.values(JSON.parse(r.stdout).endpoints as Record<string, string>);
      const table = await emu.run(['register', '--email', freshEmail('url'), '--no-save', '--no-color'], {
        tty: true,
        columns,
      });
      expect(table.code).toBe(0);
      const lines = table.stdout.split('\n');
      for (const url of endpoints)
        expect(
          lines.some((l) => l.includes(url)),
          `${url} whole in\n${table.stdout}`,
        ).toBe(true);
    },
  );

  it('saves the key (0600 in a 0700 dir), then prints it once with the note, tier, limits, endpoints and where it went', async () => {
    const email = freshEmail('ok');
    const r = await emu.run(['register', '--email', email]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const keys = r.stdout.match(KEY_IN_TEXT) ?? [];
    expect(keys).toHaveLength(1);
    expect(storedKey(r.configDir)).toBe(keys[0]);
    expect(mode(configPath(r.configDir))).toBe(0o600);
    expect(mode(r.configDir)).toBe(0o700);
    expect(r.stdout).toMatch(/shown only once/i);
    expect(r.stdout).toMatch(/^Tier\s+free$/m);
    expect(r.stdout).toMatch(/^Limits\s+requests_per_minute 60/m);
    expect(r.stdout).toMatch(/^Endpoints\s+predictions\s+http/m);
    expect(r.stdout).toContain(`Saved      ${configPath(r.configDir)} (mode 0600)`);
    const tail = r.stdout.trimEnd().split('\n').slice(-3).join('\n');
    expect(tail).toContain('Market Forecast Agent (forecast-agent.example)');
    expect(tail).toMatch(/free · data delayed 15 min/);
    expect(emu.server.requests).toHaveLength(1);
    expect(emu.server.requests[0]).toMatchObject({
      method: 'POST',
      path: '/api/agent/v1/register.php',
      body: { email },
    });
    expect(emu.server.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('stores a key that the key-protected endpoints accept', async () => {
    const dir = tempDir();
    expect((await emu.run(['register', '--email', freshEmail('works')], { configDir: dir })).code).toBe(0);
    const r = await emu.run(['symbols', '--json'], { configDir: dir });
    expect(r.code).toBe(0);
    expect(emu.server.requests.at(-1)!.headers.authorization).toBe(`Bearer ${storedKey(dir)}`);
  });

  it('--json prints the registration body as received and still saves the key', async () => {
    const r = await emu.run(['register', '--email', freshEmail('json'), '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const body = JSON.parse(r.stdout);
    expect(Object.keys(body)).toEqual(['ok', 'api_key', 'important', 'tier', 'limits', 'endpoints', 'meta']);
    expect(r.stdout).toBe(`${JSON.stringify(body, null, 2)}\n`);
    expect(storedKey(r.configDir)).toBe(body.api_key);
  });

  it('checks the e-mail locally: a bad one exits 2 and sends nothing', async () => {
    for (const email of ['not-an-address', 'a b@example.com', `${'x'.repeat(179)}@example.com`]) {
      const r = await emu.run(['register', '--email', email]);
      expect(r.code, email).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^fcast: /);
    }
    expect((await emu.run(['register', '--email', `${'x'.repeat(179)}@example.com`])).stderr).toMatch(
      /191 characters long; at most 190/,
    );
    expect((await emu.run(['register'])).code).toBe(2);
    expect(emu.server.requests).toHaveLength(0);
  });

  it('accepts an address of exactly 190 characters', async () => {
    const email = `${'y'.repeat(178 - String(process.pid).length)}${process.pid}@example.com`;
    expect(email).toHaveLength(190);
    expect((await emu.run(['register', '--email', email, '--no-save'])).code).toBe(0);
  });

  it('refuses to replace a stored key without --force: exit 2, no request, the old key kept', async () => {
    const dir = tempDir();
    const old = `mfa_ag_${'ab'.repeat(20)}`;
    writeFileSync(configPath(dir), JSON.stringify({ 'api-key': old }));
    const r = await emu.run(['register', '--email', freshEmail('refuse')], { configDir: dir });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/already stored/);
    expect(r.stderr).toMatch(/cannot be shown again/);
    expect(r.stderr).toMatch(/--force/);
    expect(r.stderr).not.toContain(old);
    expect(emu.server.requests).toHaveLength(0);
    expect(storedKey(dir)).toBe(old);

    const forced = await emu.run(['register', '--email', freshEmail('force'), '--force'], { configDir: dir });
    expect(forced.code).toBe(0);
    const [fresh] = forced.stdout.match(KEY_IN_TEXT) ?? [];
    expect(storedKey(dir)).toBe(fresh);
    expect(forced.stdout).toContain(`(mode 0600), replacing mfa_ag_abab...abab`);
    expect(fresh).not.toBe(old);
  });

  it('--no-save prints the key and writes nothing, even with a key stored', async () => {
    const r = await emu.run(['register', '--email', freshEmail('nosave'), '--no-save']);
    expect(r.code).toBe(0);
    expect(r.stdout.match(KEY_IN_TEXT)).toHaveLength(1);
    expect(r.stdout).toMatch(/--no-save/);
    expect(existsSync(configPath(r.configDir))).toBe(false);

    const dir = tempDir();
    writeFileSync(configPath(dir), JSON.stringify({ 'api-key': `mfa_ag_${'cd'.repeat(20)}` }));
    const kept = await emu.run(['register', '--email', freshEmail('nosave2'), '--no-save'], { configDir: dir });
    expect(kept.code).toBe(0);
    expect(storedKey(dir)).toBe(`mfa_ag_${'cd'.repeat(20)}`);
  });

  it('refuses before any request, exit 3, when the config directory cannot be made', async () => {
    // A path under a regular file: mkdir fails with ENOTDIR, even for root; and /proc refuses
    // mkdir (a recursive mkdir loops there for ever).
    const file = join(tempDir(), 'not-a-dir');
    writeFileSync(file, '');
    for (const dir of [join(file, 'fcast'), '/proc/nope/fcast']) {
      const r = await emu.run(['register', '--email', freshEmail('ro')], { configDir: dir });
      expect(r.code, dir).toBe(3);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^fcast: cannot (write config file|create the config directory)/m);
    }
    expect(emu.server.requests).toHaveLength(0);
  });

  it('refuses before any request, exit 3, when the config directory will not take a file', async () => {
    // Directories of the user's own, not writable by others, where no file can be made, even by
    // root: a process's fdinfo (ENOENT), and for root, who owns it, sysfs (EACCES). A key issued
    // there could only have been copied from the screen.
    const root = process.getuid?.() === 0;
    const dirs = ['/proc/self/fdinfo', ...(root ? ['/sys/kernel/mm'] : [])].filter((d) => existsSync(d));
    expect(dirs.length).toBeGreaterThan(0);
    for (const dir of dirs) {
      const r = await emu.run(['register', '--email', freshEmail('unwritable')], { configDir: dir });
      expect(r.code, dir).toBe(3);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(new RegExp(`^fcast: cannot write config file ${dir}/config\\.json: `));
      if (dir.startsWith('/sys/')) {
        expect(r.stderr).toBe(
          `fcast: cannot write config file ${dir}/config.json: permission denied (EACCES)\n  hint: chmod 700 '${dir}', or point FCAST_CONFIG_DIR at a private directory\n`,
        );
      }
    }
    expect(emu.server.requests).toHaveLength(0);
  });

  it('prints the key and exits 3 when saving fails after the request', async () => {
    // Another fcast (this live process, as far as the lock says) holds the lock for longer than
    // a writer waits (10 s): the directory checks pass, the save fails.
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json.lock'), JSON.stringify({ pid: process.pid, host: hostname(), token: 'x' }));
    const r = await emu.run(['register', '--email', freshEmail('late')], { configDir: dir });
    expect(r.code).toBe(3);
    expect(r.stdout.match(KEY_IN_TEXT)).toHaveLength(1);
    expect(r.stdout).toMatch(/could not be saved/);
    expect(r.stderr).toMatch(/^fcast: the new key was printed but not saved: the config file is locked/m);
    expect(r.stderr).toMatch(/cannot be shown again/);
    expect(r.stderr).not.toMatch(KEY_IN_TEXT);
    expect(emu.server.requests).toHaveLength(1);
  }, 30_000);

  it('a key stored by another process while the request was out is not replaced: the new key is printed, exit 3', async () => {
    // A genuine answer, served by a server that, as the request arrives, lets another process
    // (here: this test) store a key in the very config file fcast checked a moment before.
    const other = `mfa_ag_${'ab'.repeat(20)}`;
    for (const json of [false, true]) {
      const dir = tempDir();
      const race = await racingRegistration(emu.server.url, freshEmail('race'), dir, other);
      try {
        const r = await runCli(['register', '--email', 'a@example.com', ...(json ? ['--json'] : [])], {
          configDir: dir,
          env: { FCAST_BASE_URL: race.url },
        });
        expect(r.code, r.stderr).toBe(3);
        // The one copy of the new key reached stdout; the other process's key is untouched.
        expect(r.stdout).toContain(race.issued);
        if (json) expect(JSON.parse(r.stdout).api_key).toBe(race.issued);
        expect(r.stderr).toMatch(/another process changed api-key in .*config\.json meanwhile; nothing was replaced/);
        expect(storedKey(dir)).toBe(other);
      } finally {
        await race.close();
      }
    }
  });

  it('409 for an address already registered exits 9 with the server detail', async () => {
    const email = freshEmail('twice');
    expect((await emu.run(['register', '--email', email, '--no-save'])).code).toBe(0);
    const r = await emu.run(['register', '--email', email]);
    expect(r.code).toBe(9);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^fcast: HTTP 409 E-mail already registered: a key was already issued for this e-mail address/,
    );
    expect(existsSync(configPath(r.configDir))).toBe(false);

    const json = await emu.run(['register', '--email', email, '--json']);
    expect(json.code).toBe(9);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 409, title: 'E-mail already registered' });
  });

  it('retries a 429, waiting what the server asks', async () => {
    emu.server.setFaults([{ kind: '429', times: 1, path: 'register.php', retryAfter: 2 }]);
    const r = await emu.run(['register', '--email', freshEmail('429'), '--no-save']);
    expect(r.code).toBe(0);
    expect(r.sleeps).toEqual([2000]);
    expect(r.stderr).toMatch(/HTTP 429.*retrying in 2s/);
    expect(emu.server.requests).toHaveLength(2);
  });

  it('does not retry a 503', async () => {
    emu.server.setFaults([{ kind: '503', times: 1, path: 'register.php' }]);
    const r = await emu.run(['register', '--email', freshEmail('503')]);
    expect(r.code).toBe(6);
    expect(emu.server.requests).toHaveLength(1);
    expect(r.sleeps).toEqual([]);
  });

  it('does not retry after a reset, and says a key may have been issued and what to do', async () => {
    emu.server.setFaults([{ kind: 'reset', times: 1, path: 'register.php' }]);
    const email = freshEmail('reset');
    const r = await emu.run(['register', '--email', email]);
    expect(r.code).toBe(6);
    expect(emu.server.requests).toHaveLength(1);
    expect(r.stderr).toMatch(/may have reached the server and was not retried/);
    expect(r.stderr).toContain(`a key may have been issued for ${email}`);
    expect(r.stderr).toMatch(/409/);
    expect(existsSync(configPath(r.configDir))).toBe(false);
  });

  it('does not retry after a timeout either', async () => {
    emu.server.setFaults([{ kind: 'slow', times: 1, path: 'register.php', delayMs: 3000 }]);
    const r = await emu.run(['register', '--email', freshEmail('slow'), '--timeout', '0.3']);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/timed out/);
    expect(r.stderr).toMatch(/a key may have been issued/);
    expect(emu.server.requests).toHaveLength(1);
  });

  it('says no key was issued when the connection was refused', async () => {
    const r = await emu.run(['register', '--email', freshEmail('refused')], {
      env: { FCAST_BASE_URL: 'http://127.0.0.1:1' },
    });
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/refused/);
    expect(r.stderr).toMatch(/nothing was sent, so no key was issued/);
    expect(r.sleeps).toEqual([]);
  });

  it('--dry-run prints the request and neither sends nor saves anything', async () => {
    const email = freshEmail('dry');
    const r = await emu.run(['register', '--email', email, '--dry-run']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^POST http:\/\/127\.0\.0\.1:\d+\/api\/agent\/v1\/register\.php$/m);
    expect(r.stdout).toContain(`"email": "${email}"`);
    expect(emu.server.requests).toHaveLength(0);
    expect(existsSync(configPath(r.configDir))).toBe(false);
  });

  it('--verbose logs the exchange but never the key', async () => {
    const r = await emu.run(['register', '--email', freshEmail('verbose'), '--verbose']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/> POST .*register\.php/);
    expect(r.stderr).toMatch(/< 201/);
    const [key] = r.stdout.match(KEY_IN_TEXT) ?? [];
    expect(key).toBeDefined();
    expect(r.stderr).not.toContain(key);
    expect(r.stdout.split(key!)).toHaveLength(2);
  });

  it('warns when FCAST_API_KEY will shadow the key it saved', async () => {
    const r = await emu.runWithKey(['register', '--email', freshEmail('shadow')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/FCAST_API_KEY is set in the environment and takes precedence/);
    expect(r.stderr).not.toContain(emu.server.testKey);
  });
});

describe('fcast register against a server that answers with a key fcast already holds', () => {
  const tampered = useTamperedServer();
  const HELD = `mfa_ag_${'5e'.repeat(20)}`;
  const GATEWAY = 'gw-secret-TOKEN-0123456789';

  /** A registration body as the emulator writes it, with the given api_key. */
  async function answeringWith(key: string): Promise<string> {
    const real = await emu.run(['register', '--email', freshEmail('held'), '--no-save', '--json']);
    const body = { ...JSON.parse(real.stdout), api_key: key, important: `store ${key} now` };
    return tampered.serve(() => ({ status: 201, body }));
  }

  it('with the REST key of the environment: exit 7, the key masked in --json, nothing saved', async () => {
    const url = await answeringWith(HELD);
    const r = await runCli(['register', '--email', 'held@example.com', '--json'], {
      env: { FCAST_BASE_URL: url, FCAST_API_KEY: HELD },
    });
    expectExit(r, 7);
    expect(JSON.parse(r.stdout).api_key).toBe('mfa_ag_5e5e...5e5e');
    expect(r.stdout + r.stderr).not.toContain(HELD);
    expect(r.stderr).toMatch(/answered with a key fcast already holds, not a new one: not shown, not saved/);
    expect(existsSync(configPath(r.configDir))).toBe(false);
  });

  it("with a held key's secret part under another prefix: exit 7, never shown whole", async () => {
    const url = await answeringWith(`zz_ag_${HELD.slice(7)}`);
    const r = await runCli(['register', '--email', 'held@example.com', '--no-save'], {
      env: { FCAST_BASE_URL: url, FCAST_GATEWAY_KEY: HELD },
    });
    expectExit(r, 7);
    expect(r.stdout + r.stderr).not.toContain(HELD.slice(7, 19));
  });

  it('with the gateway key, as a table and with --no-save: exit 7, never shown whole', async () => {
    const url = await answeringWith(GATEWAY);
    for (const flags of [[], ['--no-save']]) {
      const r = await runCli(['register', '--email', 'held@example.com', ...flags], {
        env: { FCAST_BASE_URL: url, FCAST_GATEWAY_KEY: GATEWAY },
      });
      expectExit(r, 7);
      expect(r.stdout + r.stderr).not.toContain(GATEWAY);
      expect(existsSync(configPath(r.configDir))).toBe(false);
    }
  });
});
