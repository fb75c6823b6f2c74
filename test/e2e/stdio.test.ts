// bin/fcast.js writes a command's output to a pipe, a socket or a file with fs.writeSync,
// without building Node's process.stdout and process.stderr (for a pipe, a socket object and
// the net and stream modules); a terminal, /dev/full and anything else get Node's streams
// (test/e2e/deadlines.test.ts: a full disk, a reader that left).
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, tempDir } from '../helpers/cli.js';

/** A preload that writes, on exit, whether the net module and Node's stdout stream were built. */
function builtReport(dir: string): { preload: string; report: string } {
  const preload = join(dir, 'built.cjs');
  const report = join(dir, 'built.txt');
  writeFileSync(
    preload,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(report)},
      String(process.moduleLoadList.includes('NativeModule net'))));\n`,
  );
  return { preload, report };
}

function fcast(args: string[], stdio: ['ignore', 'pipe' | number, 'pipe' | number], preload?: string) {
  const dir = tempDir();
  return spawnSync(process.execPath, [...(preload ? ['-r', preload] : []), BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', FCAST_CONFIG_DIR: dir, FCAST_DATA_DIR: join(dir, 'data') },
    stdio,
    encoding: 'utf8',
  });
}

describe('stdout and stderr on a pipe or a file', () => {
  it('a command on pipes writes its output without building the net module (no socket stream)', () => {
    const { preload, report } = builtReport(tempDir());
    const r = fcast(['config', 'list'], ['ignore', 'pipe', 'pipe'], preload);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Key +Value +Source\n/);
    expect(readFileSync(report, 'utf8')).toBe('false');
  });

  it('the same bytes to a file as to a pipe, and the errors on stderr the same', () => {
    const dir = tempDir();
    const piped = fcast(['--help'], ['ignore', 'pipe', 'pipe']);
    const out = join(dir, 'out.txt');
    const err = join(dir, 'err.txt');
    const [outFd, errFd] = [openSync(out, 'w'), openSync(err, 'w')];
    try {
      expect(fcast(['--help'], ['ignore', outFd, errFd]).status).toBe(0);
    } finally {
      closeSync(outFd);
      closeSync(errFd);
    }
    expect(readFileSync(out, 'utf8')).toBe(piped.stdout);
    expect(piped.stdout).toMatch(/^Usage: fcast /);

    const wrongPiped = fcast(['demoo'], ['ignore', 'pipe', 'pipe']);
    const errFd2 = openSync(err, 'w');
    try {
      expect(fcast(['demoo'], ['ignore', 'pipe', errFd2]).status).toBe(2);
    } finally {
      closeSync(errFd2);
    }
    expect(wrongPiped.status).toBe(2);
    expect(readFileSync(err, 'utf8')).toBe(wrongPiped.stderr);
    expect(wrongPiped.stderr).toBe("fcast: unknown command 'demoo' (did you mean demo?)\n  hint: see 'fcast --help'\n");
  });

  it("past 16 KiB on a pipe, Node's stream takes over: it queues where a lagging reader would block a write", () => {
    const { preload, report } = builtReport(tempDir());
    const small = fcast(['completion', 'bash'], ['ignore', 'pipe', 'pipe'], preload);
    expect(small.status).toBe(0);
    expect(small.stdout.length).toBeLessThan(16 * 1024);
    expect(readFileSync(report, 'utf8')).toBe('false');
    const large = fcast(['completion', 'fish'], ['ignore', 'pipe', 'pipe'], preload);
    expect(large.status).toBe(0);
    expect(large.stdout.length).toBeGreaterThan(16 * 1024);
    expect(readFileSync(report, 'utf8')).toBe('true');
    expect(large.stdout).toBe(readFileSync(new URL('../../completions/fcast.fish', import.meta.url), 'utf8'));
  });
});
