// The standalone executable (`npm run build:sea`, scripts/build-sea.js) run with no Node on
// PATH: --version, completion, and a demo against the emulator. Building it takes ~25 s (a
// copy of node and the injection), so the default test run uses an executable already built
// from the current bundle and otherwise skips, saying so; `npm run test:sea` (FCAST_TEST_SEA=1)
// builds it once for this file. A Node without single executable applications skips, saying so.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectExit, tempDir } from '../helpers/cli.js';
import { REPO } from '../helpers/docs.js';
import { useEmulator } from '../helpers/emulator.js';

const EXE = join(REPO, 'dist/sea/fcast');
const CARRIED = join(REPO, 'dist/sea/built-from');
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
/** Built from the current launcher and bundle by this Node: scripts/build-sea.js writes down which. */
const fresh =
  existsSync(EXE) &&
  existsSync(CARRIED) &&
  readFileSync(CARRIED, 'utf8') ===
    `${sha256(join(REPO, 'dist/launch.cjs'))} ${sha256(join(REPO, 'dist/fcast.cjs'))} ${process.version}\n`;
const requested = process.env.FCAST_TEST_SEA === '1';
const supported = (process.config.variables as Record<string, unknown>).single_executable_application !== false;
const linuxX64 = process.platform === 'linux' && process.arch === 'x64';

const reason = !linuxX64
  ? `the executable is built and tested on linux-x64 only, not ${process.platform}-${process.arch}`
  : !supported
    ? `Node ${process.version} was built without single executable applications`
    : !fresh && !requested
      ? 'no executable of the current bundle and Node: npm run build:sea, or npm run test:sea'
      : undefined;
if (reason) console.warn(`skipped test/e2e/sea.test.ts: ${reason}`);

const emu = useEmulator();
const { version } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string };

/** The executable with an environment that has no node anywhere: PATH names no directory. */
function run(args: string[], env: Record<string, string> = {}) {
  const home = tempDir('fcast-sea-');
  const child = spawn(EXE, args, {
    env: { PATH: '/nonexistent', HOME: home, FCAST_CONFIG_DIR: join(home, 'config'), NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
}

describe.skipIf(reason !== undefined)('the standalone executable', () => {
  beforeAll(() => {
    if (fresh) return;
    const built = spawnSync(process.execPath, ['scripts/build-sea.js'], { cwd: REPO, encoding: 'utf8' });
    if (built.status !== 0) throw new Error(`npm run build:sea failed:\n${built.stderr}`);
  }, 300_000);

  it('prints its version with no node on PATH', async () => {
    const r = await run(['--version']);
    expectExit(r, 0);
    expect(r.stdout).toBe(`${version}\n`);
    expect(r.stderr).toBe('');
  });

  it('names the Node inside it', async () => {
    const r = await run(['--version', '--json']);
    expectExit(r, 0);
    expect(JSON.parse(r.stdout)).toEqual({
      fcast: version,
      node: process.versions.node,
      platform: 'linux-x64',
      node_built_in: true,
    });
  });

  it("says in doctor that its Node is built in, not the user's to upgrade", async () => {
    const r = await run(['doctor'], { FCAST_BASE_URL: emu.server.url });
    expect(r.stdout).toContain(`${process.versions.node}, built into this executable`);
    expect(r.stdout).not.toContain('install a maintained line');
  });

  it('runs the demo against the emulator', async () => {
    const r = await run(['demo', '--json'], { FCAST_BASE_URL: emu.server.url });
    expectExit(r, 0);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, symbol: 'BTC/USD' });
  });

  it('prints the completion script from its own assets', async () => {
    const r = await run(['completion', 'bash']);
    expectExit(r, 0);
    expect(r.stdout).toBe(readFileSync(join(REPO, 'completions/fcast.bash'), 'utf8'));
  });

  it('has its checksum beside it', () => {
    expect(existsSync(`${EXE}.sha256`)).toBe(true);
    expect(readFileSync(`${EXE}.sha256`, 'utf8')).toBe(`${sha256(EXE)}  fcast\n`);
  });
});
