// The emulator and the caches keep to the user's own files (docs/decisions/2026-12-02-own-files.md):
// what a hostile local user tries on a shared machine, with a second user where the attack needs
// one (uid 65534 through setpriv, when the suite runs as root, as it does on CI).
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, expectExit, spawnFcast, tempDir } from '../helpers/cli.js';

const ROOT = process.getuid?.() === 0;
const OTHER = 65534;
const mode = (path: string) => statSync(path).mode & 0o7777;

/** Runs `script` in sh as another user (uid and gid 65534, no groups). */
function asOther(script: string, cwd: string): void {
  const r = spawnSync('setpriv', [`--reuid=${OTHER}`, `--regid=${OTHER}`, '--clear-groups', 'sh', '-c', script], {
    cwd,
    encoding: 'utf8',
  });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
}

/** A directory anyone may create in, as /tmp is. */
function sharedDir(): string {
  const dir = tempDir();
  chmodSync(dir, 0o1777);
  return dir;
}

/** `fcast mock` started in the background; resolves once it serves (or ends first). */
async function startMock(env: Record<string, string>) {
  const child = spawn(process.execPath, [BIN, 'mock', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d) => (stderr += d));
  const ended = once(child, 'exit');
  while (!stderr.includes('FCAST_GATEWAY_KEY=') && child.exitCode === null) {
    await Promise.race([once(child.stderr!, 'data'), ended]);
  }
  return {
    child,
    url: /^export FCAST_BASE_URL=(\S+)$/m.exec(stdout)?.[1],
    stderr: () => stderr,
    stop: async () => {
      const started = Date.now();
      if (child.exitCode === null) child.kill('SIGTERM');
      await ended;
      return Date.now() - started;
    },
  };
}

describe("fcast mock's directory and state file", () => {
  it.runIf(ROOT)(
    'refuses a mock directory another user made in a shared data directory, and writes nothing there',
    async () => {
      const shared = sharedDir();
      asOther('mkdir -p fcast/mock && chmod 777 fcast fcast/mock', shared);
      const data = join(shared, 'fcast');
      const r = await spawnFcast(['mock', '--port', '0'], { FCAST_DATA_DIR: data });
      expectExit(r, 3);
      expect(r.stderr).toContain(`fcast: the data directory ${data} belongs to another user (uid ${OTHER}); not used`);
      expect(r.stdout).toBe('');
      expect(readdirSync(join(data, 'mock'))).toEqual([]);
    },
  );

  it('refuses a mock directory of its own that others can write, naming it and the fix', async () => {
    const data = tempDir();
    mkdirSync(join(data, 'mock'), { mode: 0o700 });
    chmodSync(join(data, 'mock'), 0o777);
    const r = await spawnFcast(['mock', '--port', '0'], { FCAST_DATA_DIR: data });
    expectExit(r, 3);
    expect(r.stderr).toBe(
      `fcast: the emulator's directory ${data}/mock is writable by others (mode 0777); not used for the emulator's keys\n` +
        `  hint: chmod 700 '${data}/mock', or point FCAST_DATA_DIR at a private directory\n`,
    );
  });

  it('writes state.json through no link planted at the temp names a registration would use', async () => {
    const data = tempDir();
    const victim = join(tempDir(), '.bashrc');
    writeFileSync(victim, 'echo hello\n');
    const mock = await startMock({ FCAST_DATA_DIR: data });
    try {
      expect(mock.url).toBeDefined();
      const dir = join(data, 'mock');
      expect(mode(dir)).toBe(0o700);
      // The name the old writer used, and the same with every millisecond suffix of the next seconds.
      symlinkSync(victim, join(dir, `state.json.tmp-${mock.child.pid}`));
      const res = await fetch(`${mock.url}/api/agent/v1/register.php`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: '$(id>/tmp/pwned)@a.b' }),
      });
      expect(res.status).toBe(201);
      const state = join(dir, 'state.json');
      expect(lstatSync(state).isFile()).toBe(true);
      expect(mode(state)).toBe(0o600);
      expect(JSON.parse(readFileSync(state, 'utf8')).registeredEmails).toEqual(['$(id>/tmp/pwned)@a.b']);
      expect(readFileSync(victim, 'utf8')).toBe('echo hello\n');
    } finally {
      await mock.stop();
    }
  });

  for (const [what, plant] of [
    ['a FIFO', (path: string) => spawnSync('mkfifo', [path])],
    ['a link to /dev/zero', (path: string) => symlinkSync('/dev/zero', path)],
    ['a link to a file elsewhere', (path: string) => symlinkSync(join(dirname(path), '..', 'elsewhere'), path)],
    ['a directory', (path: string) => mkdirSync(path)],
  ] as const) {
    it(`refuses ${what} at state.json at once (exit 3), with and without --fresh, and leaves it`, async () => {
      const data = tempDir();
      mkdirSync(join(data, 'mock'), { mode: 0o700 });
      const state = join(data, 'mock', 'state.json');
      plant(state);
      for (const flags of [[], ['--fresh']]) {
        const started = Date.now();
        const r = await spawnFcast(['mock', '--port', '0', ...flags], { FCAST_DATA_DIR: data });
        expectExit(r, 3);
        expect(Date.now() - started).toBeLessThan(10_000);
        expect(r.stderr).toMatch(new RegExp(`^fcast: the emulator's state file ${state} is `));
        expect(r.stderr).toContain(`hint: remove it (rm -- '${state}') if you did not put it there`);
        expect(existsSync(state) || lstatSync(state).isSymbolicLink()).toBe(true);
      }
    });
  }

  it('ends on SIGTERM within seconds while serving', async () => {
    const mock = await startMock({ FCAST_DATA_DIR: tempDir() });
    expect(mock.url).toBeDefined();
    expect(await mock.stop()).toBeLessThan(5000);
    expect(mock.child.exitCode).toBe(0);
  });
});

describe("Node's compile cache", () => {
  const hasCompileCache =
    typeof (createRequire(import.meta.url)('node:module') as { enableCompileCache?: unknown }).enableCompileCache ===
    'function';

  /** The package as npm installs it: no build caches beside the bundle, so Node's compile cache is what serves. */
  function installedCopy(): string {
    const root = dirname(dirname(BIN));
    const copy = tempDir();
    cpSync(join(root, 'bin'), join(copy, 'bin'), { recursive: true });
    cpSync(join(root, 'dist'), join(copy, 'dist'), {
      recursive: true,
      filter: (src) => !src.endsWith('.cache') && !src.includes('/dist/src') && !src.endsWith('.tsbuildinfo'),
    });
    cpSync(join(root, 'package.json'), join(copy, 'package.json'));
    return copy;
  }

  it.runIf(hasCompileCache)(
    "goes to the user's cache directory (0700), never to a node-compile-cache another user made in TMPDIR",
    () => {
      const copy = installedCopy();
      const shared = sharedDir();
      if (ROOT) asOther('mkdir node-compile-cache && chmod 777 node-compile-cache', shared);
      else mkdirSync(join(shared, 'node-compile-cache'), { mode: 0o777 });
      const home = tempDir();
      const env = { PATH: process.env.PATH ?? '', HOME: home, TMPDIR: shared, FCAST_CONFIG_DIR: tempDir() };
      for (let i = 0; i < 2; i++) {
        const r = spawnSync(process.execPath, [join(copy, 'bin', 'fcast.js'), 'config', 'list'], {
          env,
          encoding: 'utf8',
        });
        expectExit({ code: r.status, stdout: r.stdout, stderr: r.stderr }, 0);
      }
      expect(readdirSync(join(shared, 'node-compile-cache'))).toEqual([]);
      const mine = join(home, '.cache', 'fcast', 'compile-cache');
      expect(mode(join(home, '.cache', 'fcast'))).toBe(0o700);
      expect(mode(mine)).toBe(0o700);
      expect(readdirSync(mine).length).toBeGreaterThan(0);
    },
  );

  it.runIf(hasCompileCache && ROOT)('is not used when the fcast cache directory is another user’s', () => {
    const copy = installedCopy();
    const cache = sharedDir();
    asOther('mkdir -m 777 fcast', cache);
    const env = { PATH: process.env.PATH ?? '', HOME: tempDir(), XDG_CACHE_HOME: cache, FCAST_CONFIG_DIR: tempDir() };
    const r = spawnSync(process.execPath, [join(copy, 'bin', 'fcast.js'), 'config', 'list'], { env, encoding: 'utf8' });
    expectExit({ code: r.status, stdout: r.stdout, stderr: r.stderr }, 0);
    // The directory fcast would have made in it: made (the mkdir cannot be told apart), never used.
    const made = join(cache, 'fcast', 'compile-cache');
    expect(existsSync(made) ? readdirSync(made) : []).toEqual([]);
  });
});

describe('a hint for a hostile directory name, pasted', () => {
  const NAME = "x'$(touch HINT-PWN)'y";
  const shells = ['bash', 'zsh', 'fish'].filter(
    (s) => process.env.CI === 'true' || spawnSync(s, ['-c', 'true'], { stdio: 'ignore' }).status === 0,
  );
  for (const shell of shells) {
    it(`does what it says in ${shell}, and nothing else`, async () => {
      const parent = mkdtempSync(join(tempDir(), 'p'));
      const data = join(parent, NAME);
      mkdirSync(data);
      chmodSync(data, 0o777);
      const r = await spawnFcast(['journal', 'list'], { FCAST_DATA_DIR: data });
      expectExit(r, 3);
      const command = /hint: (chmod 700 .*), or point FCAST_DATA_DIR/.exec(r.stderr)?.[1];
      expect(command, r.stderr).toBeDefined();
      const pasted = spawnSync(shell, ['-c', command!], { cwd: parent, encoding: 'utf8' });
      expect(pasted.stderr).toBe('');
      expect(pasted.status).toBe(0);
      expect(mode(data)).toBe(0o700);
      expect(readdirSync(parent)).toEqual([NAME]);
      rmSync(parent, { recursive: true });
    });
  }
});
