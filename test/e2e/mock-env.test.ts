// `fcast mock` prints lines a shell can paste or eval: `export NAME=value`. With --print-env it
// prints only those and lets go of stdout, so `eval "$(fcast mock --print-env &)"` returns
// while the emulator keeps serving.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';

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
    stderr: () => stderr,
    stop: async () => {
      mock.kill('SIGTERM');
      await once(mock, 'exit');
    },
  };
}

describe('fcast mock keeps the keys it issued', () => {
  it('across a restart, in its data directory; --fresh forgets them, and a 401 then says why', async () => {
    const data = tempDir();
    const first = await serving(data);
    let key: string;
    try {
      const reg = await runCli(['register', '--email', 'kept@example.com', '--no-save', '--json'], {
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
        `fcast mock: 1 key registered in earlier runs still work (kept in ${data}/mock/state.json; --fresh forgets them)\n`,
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
      const r = await runCli(['symbols'], { env: { FCAST_BASE_URL: fresh.url, FCAST_API_KEY: key } });
      expect(r.code).toBe(3);
      expect(r.stderr).toContain(
        "; if this is 'fcast mock', it was restarted with --fresh (or another data directory) and forgot the key: 'fcast register --force --email ADDRESS' replaces it\n",
      );
    } finally {
      await fresh.stop();
    }
  });
});

describe('fcast mock --print-env & ends with its shell', () => {
  it('a shell that evals it in the background and exits leaves no emulator behind', async () => {
    // Detached: the shell leads its own process group, as an interactive shell's job control does.
    const shell = spawn(
      'bash',
      ['-c', `eval "$("${process.execPath}" "${BIN}" mock --print-env &)"; echo "$FCAST_MOCK_PID"`],
      {
        stdio: ['ignore', 'pipe', 'ignore'],
        env: mockEnv(),
        detached: true,
      },
    );
    let out = '';
    shell.stdout!.setEncoding('utf8').on('data', (d) => (out += d));
    await once(shell, 'close');
    const pid = Number(out.trim());
    expect(pid).toBeGreaterThan(0);
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    // It looks for its shell once a second: gone within a few (ten, on a loaded machine).
    const deadline = Date.now() + 10_000;
    while (alive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const survived = alive();
    if (survived) process.kill(pid, 'SIGTERM');
    expect(survived).toBe(false);
  });
});

describe('fcast mock & without --print-env outlives its shell', () => {
  it('a plain background emulator keeps serving after the detached shell that started it ends', async () => {
    // The --print-env one is watched: started alongside, it is gone once the shell ends.
    const shell = spawn(
      'sh',
      [
        '-c',
        `"${process.execPath}" "${BIN}" mock --port 0 >/dev/null 2>&1 & echo $!; ` +
          `"${process.execPath}" "${BIN}" mock --port 0 --print-env >/dev/null 2>&1 & echo $!; sleep 0.5`,
      ],
      { stdio: ['ignore', 'pipe', 'ignore'], env: mockEnv(), detached: true },
    );
    let out = '';
    shell.stdout!.setEncoding('utf8').on('data', (d) => (out += d));
    await once(shell, 'close');
    const [plain, printEnv] = out.trim().split('\n').map(Number);
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    try {
      expect(plain).toBeGreaterThan(0);
      expect(printEnv).toBeGreaterThan(0);
      // It looks for its shell once a second: the watched one is gone within ~3 s.
      const deadline = Date.now() + 3_500;
      while (alive(printEnv!) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(alive(printEnv!)).toBe(false);
      expect(alive(plain!)).toBe(true);
    } finally {
      for (const pid of [plain, printEnv]) if (pid! > 0 && alive(pid!)) process.kill(pid!, 'SIGTERM');
    }
  });

  it.runIf(process.platform === 'linux')('a --print-env emulator under setsid outlives its shell', async () => {
    const shell = spawn(
      'sh',
      [
        '-c',
        `setsid "${process.execPath}" "${BIN}" mock --port 0 --print-env >/dev/null 2>&1 & echo $!; ` +
          `"${process.execPath}" "${BIN}" mock --port 0 --print-env >/dev/null 2>&1 & echo $!; sleep 0.5`,
      ],
      { stdio: ['ignore', 'pipe', 'ignore'], env: mockEnv(), detached: true },
    );
    let out = '';
    shell.stdout!.setEncoding('utf8').on('data', (d) => (out += d));
    await once(shell, 'close');
    const pids = out.trim().split('\n').map(Number);
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    try {
      expect(pids).toHaveLength(2);
      const [setsid, watched] = pids as [number, number];
      const deadline = Date.now() + 3_500;
      while (alive(watched) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(alive(watched)).toBe(false);
      expect(alive(setsid)).toBe(true);
    } finally {
      for (const pid of pids) if (pid > 0 && alive(pid)) process.kill(pid, 'SIGTERM');
    }
  });
});
