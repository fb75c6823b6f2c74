// The config file under pressure, with the real executable (run `npx tsc -p .` first, as for
// the smoke test): concurrent writers, interrupted registrations, links, others' directories,
// stale locks and temp files.
import { type ChildProcess, spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type Spawned, spawnFcast, tempDir } from '../helpers/cli.js';

const KEY_IN_TEXT = /[A-Za-z0-9]+_ag_[0-9a-f]{40}/g;
const key = (n: number) => `mfa_ag_${n.toString(16).padStart(8, '0').repeat(5)}`;
const config = (dir: string): Record<string, unknown> => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
const mode = (path: string) => statSync(path).mode & 0o777;

const fcast = (args: string[], env: Record<string, string>, stdin?: string, onSpawn?: (c: ChildProcess) => void) =>
  spawnFcast(args, env, { stdin, onSpawn });

describe('concurrent writers', () => {
  it('20 processes of config set and auth login --force lose none of one another’s changes (3 rounds)', async () => {
    for (let round = 0; round < 3; round++) {
      const dir = tempDir();
      const env = { FCAST_CONFIG_DIR: dir };
      // Every setting there is, each written by several processes at once with distinct values.
      const writers = Array.from({ length: 20 }, (_, i) => {
        switch (i % 6) {
          case 0:
            return { expect: ['api-key', key(i)], run: () => fcast(['auth', 'login', '--force'], env, key(i)) };
          case 1:
            return {
              expect: ['gateway-key', `gw-${i}-secret-token`],
              run: () => fcast(['auth', 'login', '--gateway', '--force'], env, `gw-${i}-secret-token`),
            };
          case 2:
            return { expect: ['timeout', 10 + i], run: () => fcast(['config', 'set', 'timeout', String(10 + i)], env) };
          case 3:
            return { expect: ['retries', i % 10], run: () => fcast(['config', 'set', 'retries', String(i % 10)], env) };
          case 4:
            return { expect: ['max-wait', i], run: () => fcast(['config', 'set', 'max-wait', String(i)], env) };
          default:
            return {
              expect: ['base-url', `https://h${i}.example`],
              run: () => fcast(['config', 'set', 'base-url', `https://h${i}.example`], env),
            };
        }
      });
      const results = await Promise.all(writers.map((w) => w.run()));
      for (const r of results) expect(r.code, r.stderr).toBe(0);
      const file = config(dir);
      // No write lost: every key written is there, holding one of the values written to it.
      for (const name of ['api-key', 'gateway-key', 'timeout', 'retries', 'max-wait', 'base-url']) {
        const written = writers.filter((w) => w.expect[0] === name).map((w) => w.expect[1]);
        expect(written, name).toContain(file[name]);
      }
      expect(readdirSync(dir)).toEqual(['config.json']);
    }
  }, 120_000);

  it('20 writers of distinct keys through the store: every one of them lands (3 rounds)', async () => {
    const store = new URL('../../dist/config/config-store.js', import.meta.url).href;
    for (let round = 0; round < 3; round++) {
      const dir = tempDir();
      const script = (i: number) =>
        `const { updateConfig } = await import(${JSON.stringify(store)});` +
        `await updateConfig(${JSON.stringify(dir)}, (d) => { d['writer-${i}'] = ${i}; });`;
      const runs = Array.from({ length: 20 }, (_, i) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', script(i)], { stdio: 'ignore' });
        return new Promise<number | null>((resolve) => child.on('close', resolve));
      });
      expect(await Promise.all(runs)).toEqual(Array(20).fill(0));
      const file = config(dir);
      expect(Object.keys(file)).toHaveLength(20);
      for (let i = 0; i < 20; i++) expect(file[`writer-${i}`]).toBe(i);
    }
  }, 120_000);
});

describe('stale leftovers', () => {
  it('a lock left by a dead process is broken, and a killed writer’s temp file removed', async () => {
    const dir = tempDir();
    // A pid that is certainly dead: a child that has exited.
    const dead = spawn(process.execPath, ['-e', '0']);
    await new Promise((resolve) => dead.on('close', resolve));
    const { hostname } = await import('node:os');
    writeFileSync(join(dir, 'config.json.lock'), JSON.stringify({ pid: dead.pid, host: hostname(), token: 't' }));
    writeFileSync(join(dir, `config.json.tmp-${dead.pid}-x`), JSON.stringify({ 'api-key': key(7) }));
    const r = await runCli(['config', 'set', 'retries', '1'], { configDir: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(dir)).toEqual(['config.json']);
    expect(config(dir)).toEqual({ retries: 1 });
  });

  it('a live writer’s temp file is left alone: should a broken lock ever leave two holders, it is their write', async () => {
    const dir = tempDir();
    // The parent of this test process is alive for as long as the test runs.
    const live = join(dir, `config.json.tmp-${process.ppid}-x`);
    writeFileSync(live, '{}');
    const r = await runCli(['config', 'set', 'retries', '1'], { configDir: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(live)).toBe(true);
  });
});

describe('a value checked before the lock', () => {
  it('is replaced only if the file still holds it when the lock is taken (exit 3 otherwise, nothing written)', async () => {
    const dir = tempDir();
    const { openConfigStore } = await import('../../src/config/config-store.js');
    const store = await openConfigStore(dir);
    await store.set('api-key', key(1), { ifStill: undefined });
    // Another process writes between this one's check and its write.
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ 'api-key': key(2) }));
    await expect(store.set('api-key', key(3), { ifStill: key(1) })).rejects.toMatchObject({
      exitCode: 3,
      message: expect.stringMatching(/another process changed api-key in .* meanwhile; nothing was replaced/),
    });
    expect(config(dir)).toEqual({ 'api-key': key(2) });
    await store.set('api-key', key(3), { ifStill: key(2) });
    expect(config(dir)).toEqual({ 'api-key': key(3) });
  });
});

describe('where keys are written', () => {
  it('refuses a symlinked config.json (exit 3, naming the path and its target) and leaves the target as it was', async () => {
    const dir = tempDir();
    const target = join(tempDir(), 'dotfiles.json');
    writeFileSync(target, '{"theme": "dark"}\n', { mode: 0o644 });
    chmodSync(target, 0o644);
    symlinkSync(target, join(dir, 'config.json'));
    const attempts = [
      () => runCli(['auth', 'login', '--force'], { configDir: dir, stdin: key(1) }),
      () => runCli(['config', 'set', 'timeout', '5'], { configDir: dir }),
      () =>
        runCli(['register', '--email', 'a@example.com'], {
          configDir: dir,
          env: { FCAST_BASE_URL: 'http://127.0.0.1:9' },
        }),
    ];
    for (const attempt of attempts) {
      const r = await attempt();
      expect(r.stderr).toContain(`${join(dir, 'config.json')} is a symbolic link (to ${target})`);
      expect(r.code).toBe(3);
      expect(r.stdout).toBe('');
    }
    expect(readFileSync(target, 'utf8')).toBe('{"theme": "dark"}\n');
    expect(mode(target)).toBe(0o644);
    expect(lstatSync(join(dir, 'config.json')).isSymbolicLink()).toBe(true);
  });

  it('accepts a config directory linked to a private directory of the user’s own, and chmods nothing', async () => {
    const real = tempDir();
    chmodSync(real, 0o755);
    const link = join(tempDir(), 'fcast');
    symlinkSync(real, link);
    const r = await runCli(['config', 'set', 'timeout', '5'], { configDir: link });
    expect(r.code, r.stderr).toBe(0);
    expect(config(real)).toEqual({ timeout: 5 });
    expect(mode(real)).toBe(0o755);
  });

  it('refuses a directory writable by group or others, even behind a link, and writes nothing', async () => {
    const shared = tempDir();
    chmodSync(shared, 0o1777);
    const link = join(tempDir(), 'fcast');
    symlinkSync(shared, link);
    for (const dir of [shared, link]) {
      const r = await runCli(['auth', 'login', '--force'], { configDir: dir, stdin: key(2) });
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/is writable by others \(mode 1777\); not used for keys/);
      expect(r.stderr).toContain('hint: chmod 700');
    }
    expect(readdirSync(shared)).toEqual([]);
    expect(mode(shared)).toBe(0o777);
  });

  it.runIf(process.getuid?.() === 0)(
    'refuses a directory that belongs to another user, before register’s request',
    async () => {
      const theirs = tempDir();
      chownSync(theirs, 65534, 65534);
      let requests = 0;
      const server = createServer((_req, res) => {
        requests++;
        res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, api_key: key(3) }));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        const link = join(tempDir(), 'planted');
        symlinkSync(theirs, link);
        const r = await runCli(['register', '--email', 'a@example.com'], {
          configDir: link,
          env: { FCAST_BASE_URL: url },
        });
        expect(r.code).toBe(3);
        expect(r.stderr).toMatch(/belongs to another user \(uid 65534\)/);
        expect(requests).toBe(0);
        expect(readdirSync(theirs)).toEqual([]);
      } finally {
        server.close();
      }
    },
  );

  it('FCAST_CONFIG_DIR=/proc/nope exits 3 at once for every writer', async () => {
    for (const argv of [
      ['config', 'set', 'timeout', '5'],
      ['auth', 'login', '--force'],
    ]) {
      const r = await runCli(argv, { configDir: '/proc/nope', stdin: key(4) });
      expect(r.code, argv.join(' ')).toBe(3);
      expect(r.stderr).toMatch(/^fcast: cannot write config file \/proc\/nope\/config.json/);
    }
  });
});

describe('register and Ctrl-C', () => {
  let server: Server;
  let url: string;
  /** Called with the fcast process once the server has sent its 201 (or, for `early`, when the request came). */
  let onRequest: (res: import('node:http').ServerResponse) => void;

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => onRequest(res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => server.close());

  const answer201 = (res: import('node:http').ServerResponse, issued: string) =>
    res
      .writeHead(201, { 'content-type': 'application/json' })
      .end(JSON.stringify({ ok: true, api_key: issued, tier: 'free', meta: {} }));

  /**
   * Register, answered 201, with `signals` SIGINTs sent while the key is being kept: another
   * fcast (this process, as far as the lock says) holds the config lock when the answer goes
   * out, so the save waits. The signals start once the key is on stdout (printed, so the save
   * has begun: a fixed delay after the answer could land before fcast read it, on a loaded
   * machine, which is the other case below), 100 ms apart, and the lock is let go after them.
   */
  async function registerInterrupted(issued: string, signals: number): Promise<Spawned & { dir: string }> {
    const dir = tempDir();
    const lock = join(dir, 'config.json.lock');
    onRequest = (res) => {
      writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), token: 'held' }));
      answer201(res, issued);
    };
    const interrupt = async (child: ChildProcess) => {
      for (let i = 0; i < signals; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        child.kill('SIGINT');
      }
      setTimeout(() => rmSync(lock, { force: true }), 300);
    };
    const r = await fcast(
      ['register', '--email', 'a@example.com'],
      { FCAST_BASE_URL: url, FCAST_CONFIG_DIR: dir },
      undefined,
      (child) => {
        let printed = '';
        const onData = (d: Buffer) => {
          printed += d.toString();
          if (!printed.includes(issued)) return;
          child.stdout!.off('data', onData);
          void interrupt(child);
        };
        child.stdout!.on('data', onData);
      },
    );
    return { ...r, dir };
  }

  it.each([
    [1, 'one SIGINT'],
    [2, 'two SIGINTs'],
  ])(
    '%i: %s while the new key is being saved: printed and saved, then exit 130 (5 runs)',
    async (signals) => {
      for (let run = 0; run < 5; run++) {
        const issued = key(1000 * signals + run);
        const r = await registerInterrupted(issued, signals);
        expect(r.code, r.stderr).toBe(130);
        expect(r.stdout.match(KEY_IN_TEXT), r.stderr).toEqual([issued]);
        expect(config(r.dir)['api-key']).toBe(issued);
      }
    },
    60_000,
  );

  it('SIGINT while the answer is awaited waits for it (saying why), then exits 130 with the key kept', async () => {
    const dir = tempDir();
    const issued = key(3000);
    let child: ChildProcess | undefined;
    let stderr = '';
    onRequest = (res) => {
      child!.stderr!.on('data', (d) => {
        stderr += d;
        if (/waiting for the answer/.test(stderr) && !res.headersSent) answer201(res, issued);
      });
      child!.kill('SIGINT');
    };
    const r = await fcast(
      ['register', '--email', 'a@example.com'],
      { FCAST_BASE_URL: url, FCAST_CONFIG_DIR: dir },
      undefined,
      (c) => {
        child = c;
      },
    );
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/a key may be being issued for a@example\.com\); press Ctrl-C again to stop now/);
    expect(r.stdout.match(KEY_IN_TEXT)).toEqual([issued]);
    expect(config(dir)['api-key']).toBe(issued);
  });

  it('a second SIGINT while no answer has come stops at once (exit 130)', async () => {
    let child: ChildProcess | undefined;
    let pending: import('node:http').ServerResponse | undefined;
    let stderr = '';
    let sentSecond = false;
    onRequest = (res) => {
      pending = res;
      child!.stderr!.on('data', (d) => {
        stderr += d;
        if (/press Ctrl-C again/.test(stderr) && !sentSecond) {
          sentSecond = true;
          child!.kill('SIGINT');
        }
      });
      child!.kill('SIGINT');
    };
    const r = await fcast(
      ['register', '--email', 'a@example.com', '--timeout', '600'],
      { FCAST_BASE_URL: url, FCAST_CONFIG_DIR: tempDir() },
      undefined,
      (c) => {
        child = c;
      },
    );
    pending?.destroy();
    expect(r.code, r.stderr).toBe(130);
    expect(r.stdout).toBe('');
  });
});

describe('created directories', () => {
  it('are 0700; existing ones keep their mode', async () => {
    const base = tempDir();
    chmodSync(base, 0o755);
    const dir = join(base, 'x', 'fcast');
    const r = await runCli(['auth', 'login'], { configDir: dir, stdin: key(5) });
    expect(r.code, r.stderr).toBe(0);
    expect([mode(base), mode(join(base, 'x')), mode(dir)]).toEqual([0o755, 0o700, 0o700]);
    expect(existsSync(join(dir, 'config.json'))).toBe(true);
  });
});

describe('where settings are read from', () => {
  /** A server that records whether anything reached it: none may, when the config is refused. */
  async function listening(): Promise<{ url: string; hits: string[]; close(): Promise<void> }> {
    const hits: string[] = [];
    const server = createServer((req, res) => {
      hits.push(String(req.headers.authorization));
      res.writeHead(500).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}`, hits, close: () => new Promise((r) => server.close(() => r())) };
  }

  it('a config directory others can write is refused before any request: its base URL could collect the key', async () => {
    const server = await listening();
    try {
      const dir = tempDir();
      writeFileSync(join(dir, 'config.json'), JSON.stringify({ 'base-url': server.url }), { mode: 0o600 });
      chmodSync(dir, 0o777);
      for (const argv of [['predict', 'BTC/USD'], ['config', 'list'], ['demo']]) {
        const r = await runCli(argv, { configDir: dir, env: { FCAST_API_KEY: key(1) } });
        expect(r.code, argv.join(' ')).toBe(3);
        expect(r.stderr).toContain(`the config directory ${dir} is writable by others (mode 0777); not used for keys`);
        expect(r.stdout).toBe('');
      }
      expect(server.hits).toEqual([]);
      // The same directory made private again is used as before.
      chmodSync(dir, 0o700);
      const r = await runCli(['config', 'get', 'base-url'], { configDir: dir });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe(`${server.url}\n`);
    } finally {
      await server.close();
    }
  });

  it('a symlinked config.json is not read either (exit 3 naming the link), and a missing one costs nothing', async () => {
    const dir = tempDir();
    const target = join(tempDir(), 'elsewhere.json');
    writeFileSync(target, JSON.stringify({ timeout: 5 }));
    symlinkSync(target, join(dir, 'config.json'));
    const r = await runCli(['config', 'list'], { configDir: dir });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`${join(dir, 'config.json')} is a symbolic link (to ${target})`);
    // No config.json at all in a directory others could write: nothing is read, nothing refused.
    const open = tempDir();
    chmodSync(open, 0o777);
    const none = await runCli(['config', 'get', 'timeout'], { configDir: open });
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toBe('30\n');
  });
});
