// bin/fcast.js over the launcher (src/launch/, dist/launch.cjs): the root's help written from
// the build's text only when main would write the same, and tsc's own modules of the launcher
// when a bare `tsc -b` left the bundles stale.
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, symlinkSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { expectExit, spawnFcast, tempDir } from '../helpers/cli.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const HELP = readFileSync(join(ROOT, 'dist/split/help.txt'), 'utf8');
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

describe('the help fast path', () => {
  it("writes the build's help on a pipe", async () => {
    const r = await spawnFcast(['--help']);
    expectExit(r, 0);
    expect(r.stdout).toBe(HELP);
  });

  it('leaves it to main, whose redactor masks it, when a key of the environment shows in it', async () => {
    const word = /\b[a-z]{9,}\b/.exec(HELP)![0];
    const r = await spawnFcast(['--help'], { FCAST_API_KEY: word });
    expectExit(r, 0);
    expect(r.stdout).not.toContain(word);
    expect(r.stdout).toBe(HELP.replace(new RegExp(word, 'gi'), '<redacted>'));
  });
});

describe('a clone after a bare tsc -b', () => {
  it("runs tsc's modules of the launcher and of the bundle", () => {
    const copy = tempDir();
    for (const part of ['bin', 'dist', 'package.json']) cpSync(join(ROOT, part), join(copy, part), { recursive: true });
    // tsc's modules import their dependencies, as a clone has them.
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(copy, 'dist/tsconfig.tsbuildinfo'), later, later);
    const env = { PATH: process.env.PATH ?? '', FCAST_CONFIG_DIR: tempDir(), NODE_DISABLE_COMPILE_CACHE: '1' };
    const run = (args: string[]) => {
      const r = spawnSync(process.execPath, [join(copy, 'bin/fcast.js'), ...args], { env, encoding: 'utf8' });
      return { code: r.status, stdout: r.stdout, stderr: r.stderr };
    };
    const v = run(['--version']);
    expectExit(v, 0);
    expect(v.stdout).toBe(`${version}\n`);
    const help = run(['--help']);
    expectExit(help, 0);
    expect(help.stdout).toBe(HELP);
    expectExit(run(['config', 'list']), 0);
  });
});
