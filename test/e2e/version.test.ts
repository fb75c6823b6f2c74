// `fcast --version --json`: from bin/fcast.js's fast path and from main alike.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { expectExit, runCli, spawnFcast } from '../helpers/cli.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};
const expected = `${JSON.stringify(
  { fcast: version, node: process.versions.node, platform: `${process.platform}-${process.arch}` },
  null,
  2,
)}\n`;

describe('fcast --version --json', () => {
  it.each([
    ['--version', '--json'],
    ['--json', '-V'],
  ])('%s %s: fcast, Node and the platform, from the executable and from main alike', async (...argv) => {
    const spawned = await spawnFcast(argv);
    expectExit(spawned, 0);
    expect(spawned.stdout).toBe(expected);
    expect(spawned.stderr).toBe('');
    const inProcess = await runCli(argv);
    expectExit(inProcess, 0);
    expect(inProcess.stdout).toBe(expected);
    expect(inProcess.stderr).toBe('');
  });

  it('--version alone stays the bare version', async () => {
    const r = await spawnFcast(['--version']);
    expect(r.stdout).toBe(`${version}\n`);
  });
});
