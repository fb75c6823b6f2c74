// `fcast mock` prints lines a shell can paste or eval: `export NAME=value`. With --print-env it
// prints only those and lets go of stdout, so `eval "$(fcast mock --print-env &)"` returns
// while the emulator keeps serving.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../bin/fcast.js', import.meta.url));

describe('fcast mock --print-env', () => {
  it('prints export lines, closes stdout, and keeps serving', async () => {
    const mock = spawn(process.execPath, [BIN, 'mock', '--port', '0', '--print-env'], {
      stdio: ['ignore', 'pipe', 'pipe'],
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
