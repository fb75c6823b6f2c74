// `fcast mock` prints lines a shell can paste or eval: `export NAME=value`. With --print-env it
// prints only those and lets go of stdout, so `eval "$(fcast mock --print-env &)"` returns
// while the emulator keeps serving.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { alive, runCli, tempDir } from '../helpers/cli.js';

const BIN = fileURLToPath(new URL('../../bin/fcast.js', import.meta.url));
/** The environment of a spawned emulator: a data directory of its own, never the user's. */
const mockEnv = (dataDir = tempDir()) => ({ PATH: process.env.PATH ?? '', FCAST_DATA_DIR: dataDir });

describe('fcast mock --print-env', () => {
  it('prints export lines, closes stdout, and keeps serving', async () => {
    const mock = spawn(process.execPath, [BIN, 'mock', '--port', '0', '--print-env'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: mockEnv(),
    });
    let stdout = '';
    let stderr = '';
    mock.stdout!.setEncoding('utf8').on('data', (d) => (stdout += d));
    mock.stderr!.setEncoding('utf8').on('data', (d) => (stderr += d));
    try {
      // stdout ends while the process is still alive: that is what lets `$(...)` return.
      await once(mock.stdout!, 'end');
      expect(mock.exitCode).toBeNull();
      const lines = stdout.trimEnd().split('\n');
      expect(lines).toHaveLength(3);
      expect(lines[0]).toMatch(/^export FCAST_BASE_URL=http:\/\/127\.0\.0\.1:\d+$/);
      expect(lines[1]).toMatch(/^export FCAST_API_KEY=mfa_ag_[0-9a-f]+$/);
      // The pid, so that `kill "$FCAST_MOCK_PID"` stops an emulator started with `&`.
      expect(lines[2]).toBe(`export FCAST_MOCK_PID=${mock.pid}`);
      const base = lines[0]!.split('=')[1]!;
      const res = await fetch(`${base}/api/agent/v1/demo.php`);
      expect(res.status).toBe(200);
    } finally {
      mock.kill('SIGTERM');
      const [code] = (await once(mock, 'exit')) as [number];
      expect(code).toBe(0);
    }
    expect(stderr).toBe('');
  });
});

/** `fcast mock` in the foreground, once it serves: its base URL, its stderr so far, and a stop. */
async function serving(dataDir: string, ...flags: string[]) {
  const mock = spawn(process.execPath, [BIN, 'mock', '--port', '0', ...flags], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: mockEnv(dataDir),
  });
  let stdout = '';
  let stderr = '';
  mock.stdout!.setEncoding('utf8').on('data', (d) => (stdout += d));
  mock.stderr!.setEncoding('utf8').on('data', (d) => (stderr += d));
  while (!stderr.includes('FCAST_GATEWAY_KEY=')) await once(mock.stderr!, 'data');
  const url = /^export FCAST_BASE_URL=(\S+)$/m.exec(stdout)![1]!;
  return {
    url,
    /** The test key it printed. */
    key: /^export FCAST_API_KEY=(\S+)$/m.exec(stdout)![1]!,
    stderr: () => stderr,
    stop: async () => {
      mock.kill('SIGTERM');
      await once(mock, 'exit');
    },
  };
}

describe('fcast mock keeps the keys it issued', () => {
  it('across a restart, in its data directory; --fresh forgets them, and a 401 then says what brings a key back, for a key in the config file or in FCAST_API_KEY', async () => {
    const data = tempDir();
    // The key register saves in this config directory, and uses in FCAST_API_KEY too.
    const configDir = tempDir();
    const first = await serving(data);
    let key: string;
    try {
      const reg = await runCli(['register', '--email', 'kept@example.com', '--json'], {
        configDir,
        env: { FCAST_BASE_URL: first.url },
      });
      expect(reg.code).toBe(0);
      key = JSON.parse(reg.stdout).api_key as string;
    } finally {
      await first.stop();
    }
    const second = await serving(data);
    try {
      expect(second.stderr()).toContain(
        `fcast mock: 1 key registered in earlier runs still works (kept in ${data}/mock/state.json; --fresh forgets them)\n`,
      );
      const r = await runCli(['symbols'], { env: { FCAST_BASE_URL: second.url, FCAST_API_KEY: key } });
      expect(r.code).toBe(0);
      // The address is remembered too: registered once, as the service does.
      const again = await runCli(['register', '--email', 'kept@example.com', '--no-save'], {
        env: { FCAST_BASE_URL: second.url },
      });
      expect(again.code).toBe(9);
    } finally {
      await second.stop();
    }
    const fresh = await serving(data, '--fresh');
    try {
      expect(fresh.stderr()).not.toContain('earlier runs');
      const forgot = "; if this is 'fcast mock', it may have been restarted with --fresh and forgot the key: ";
      // In FCAST_API_KEY, which no register replaces: the key the emulator printed works.
      const env = await runCli(['symbols'], { env: { FCAST_BASE_URL: fresh.url, FCAST_API_KEY: key } });
      expect(env.code).toBe(3);
      expect(env.stderr).toMatch(/; the API key comes from FCAST_API_KEY in the environment\n/);
      expect(env.stderr).toContain(`${forgot}export the FCAST_API_KEY it printed, or a newly registered one\n`);
      expect(env.stderr).not.toContain('--force');
      const printed = await runCli(['symbols'], { env: { FCAST_BASE_URL: fresh.url, FCAST_API_KEY: fresh.key } });
      expect(printed.code).toBe(0);
      // In the config file: register --force replaces it, as the hint says, and the key works again.
      const file = await runCli(['symbols'], { configDir, env: { FCAST_BASE_URL: fresh.url } });
      expect(file.code).toBe(3);
      expect(file.stderr).toContain(`; the API key comes from the config file ${configDir}/config.json\n`);
      expect(file.stderr).toContain(`${forgot}'fcast register --force --email ADDRESS' replaces it\n`);
      const replaced = await runCli(['register', '--force', '--email', 'kept@example.com'], {
        configDir,
        env: { FCAST_BASE_URL: fresh.url },
      });
      expect(replaced.code, replaced.stderr).toBe(0);
      const again = await runCli(['symbols'], { configDir, env: { FCAST_BASE_URL: fresh.url } });
      expect(again.code, again.stderr).toBe(0);
    } finally {
      await fresh.stop();
    }
  });
});

describe('fcast mock keeps its clock with its keys', () => {
  it('resumes it where it stood, and says so; --clock sets it, --fresh starts it anew', async () => {
    const data = tempDir();
    const first = await serving(data, '--clock', '2026-03-01T10:00Z', '--speed', '0');
    try {
      // Moved by a script, as docs/journal.md does: the move is what the next run resumes.
      await fetch(`${first.url}/__mock/clock`, { method: 'POST', body: '{"advance": 7200}' });
    } finally {
      await first.stop();
    }
    const second = await serving(data, '--speed', '60');
    try {
      expect(second.stderr()).toContain(
        `fcast mock: resumed the emulated clock at 2026-03-01T12:00:00.000Z, 60x real time, where it stood when the emulator last stopped (kept in ${data}/mock/state.json; --clock sets it, --fresh starts it anew)\n`,
      );
      expect(second.stderr()).not.toContain('fcast mock: emulated clock at');
    } finally {
      await second.stop();
    }
    const set = await serving(data, '--clock', '2026-04-01T00:00Z');
    try {
      expect(set.stderr()).not.toContain('resumed');
      // Set, at the speed kept (the banner's clock line comes after the lines serving() waits for).
      const { now, speed } = (await (await fetch(`${set.url}/__mock/clock`)).json()) as { now: string; speed: number };
      expect(speed).toBe(60);
      expect(Date.parse(now) - Date.UTC(2026, 3, 1)).toBeGreaterThanOrEqual(0);
      expect(Date.parse(now) - Date.UTC(2026, 3, 1)).toBeLessThan(3_600_000);
    } finally {
      await set.stop();
    }
    const fresh = await serving(data, '--fresh');
    try {
      expect(fresh.stderr()).not.toContain('resumed');
      const { now } = (await (await fetch(`${fresh.url}/__mock/clock`)).json()) as { now: string };
      expect(Math.abs(Date.parse(now) - Date.now())).toBeLessThan(60_000);
    } finally {
      await fresh.stop();
    }
  });
});

/**
 * Runs `script` in a detached shell (leading its own process group, as an interactive shell's
 * job control makes it) and returns the pids it echoed, one a line, once the shell has ended.
 */
async function pidsFromShell(shell: string, script: string): Promise<number[]> {
  const child = spawn(shell, ['-c', script], { stdio: ['ignore', 'pipe', 'ignore'], env: mockEnv(), detached: true });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (d) => (out += d));
  await once(child, 'close');
  return out.trim().split('\n').map(Number);
}

/**
 * Whether `pid` ends within a few seconds: the emulator looks for its shell once a second
 * (ten seconds allowed, for a loaded machine). One still running is stopped here.
 */
async function endsAlone(pid: number): Promise<boolean> {
  const deadline = Date.now() + 10_000;
  while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (!alive(pid)) return true;
  process.kill(pid, 'SIGTERM');
  return false;
}

const fcastLine = (flags: string) => `"${process.execPath}" "${BIN}" mock --port 0 ${flags}`;

/**
 * A shell line that waits until a --print-env emulator has written its export lines to `file`.
 * The emulator looks for its shell when it starts; a shell that had already ended by then (a
 * fixed sleep on a loaded machine) would leave it nothing to watch, as `(fcast mock &)` does on
 * purpose. A shell that evals the lines is waiting for them, so it is always there.
 */
const untilPrinted = (file: string) =>
  `i=0; until grep -q FCAST_MOCK_PID "${file}" 2>/dev/null || [ $i -ge 600 ]; do sleep 0.05; i=$((i+1)); done`;

describe('fcast mock --print-env & ends with its shell', () => {
  it('a shell that evals it in the background and exits leaves no emulator behind', async () => {
    const [pid] = await pidsFromShell('bash', `eval "$(${fcastLine('--print-env')} &)"; echo "$FCAST_MOCK_PID"`);
    expect(pid).toBeGreaterThan(0);
    expect(await endsAlone(pid!)).toBe(true);
  });
});

describe('fcast mock & without --print-env outlives its shell', () => {
  it('a plain background emulator keeps serving after the detached shell that started it ends', async () => {
    // The --print-env one is watched: started alongside, it is gone once the shell ends.
    const env = join(tempDir(), 'env');
    const pids = await pidsFromShell(
      'sh',
      `${fcastLine('>/dev/null 2>&1')} & echo $!; ${fcastLine(`--print-env >${env} 2>/dev/null`)} & echo $!; ${untilPrinted(env)}`,
    );
    try {
      expect(pids).toHaveLength(2);
      const [plain, printEnv] = pids as [number, number];
      expect(await endsAlone(printEnv)).toBe(true);
      expect(alive(plain)).toBe(true);
    } finally {
      for (const pid of pids) if (pid > 0 && alive(pid)) process.kill(pid, 'SIGTERM');
    }
  });

  it.runIf(process.platform === 'linux')('a --print-env emulator under setsid outlives its shell', async () => {
    const env = join(tempDir(), 'env');
    const pids = await pidsFromShell(
      'sh',
      `setsid ${fcastLine('--print-env >/dev/null 2>&1')} & echo $!; ${fcastLine(`--print-env >${env} 2>/dev/null`)} & echo $!; ${untilPrinted(env)}`,
    );
    try {
      expect(pids).toHaveLength(2);
      const [setsid, watched] = pids as [number, number];
      expect(await endsAlone(watched)).toBe(true);
      expect(alive(setsid)).toBe(true);
    } finally {
      for (const pid of pids) if (pid > 0 && alive(pid)) process.kill(pid, 'SIGTERM');
    }
  });
});
