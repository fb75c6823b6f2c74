// The executable's two code caches. `npm run build` leaves V8's cache of each file of the split
// bundle beside it (dist/split/fcast.cjs.cache, ...), made for that Node version; the npm package ships none, and a cache
// of another Node version is refused. Without one, Node 22+ compiles the bundle through its own
// compile cache (module.enableCompileCache, in the user's cache directory: XDG_CACHE_HOME here, never
// os.tmpdir(), which another user may have made first: docs/decisions/2026-12-02-own-files.md); Node 20 has none and
// simply requires it. Either way the command's output is the same. (NODE_COMPILE_CACHE would
// turn Node's cache on for the whole process, whatever the launcher asks: not set here.)
import { spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const emu = useEmulator();
// enableCompileCache came in Node 22.1.
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const hasCompileCache = major > 22 || (major === 22 && minor >= 1);

/** bin/ and the bundle as the npm package installs them: no build cache beside the bundle. */
function installedPackage(): string {
  const dir = tempDir('fcast-package-');
  cpSync(join(ROOT, 'bin'), join(dir, 'bin'), { recursive: true });
  mkdirSync(join(dir, 'dist/split'), { recursive: true });
  copyFileSync(join(ROOT, 'dist/launch.cjs'), join(dir, 'dist/launch.cjs'));
  for (const name of readdirSync(join(ROOT, 'dist/split')).filter((n) => n.endsWith('.cjs')))
    copyFileSync(join(ROOT, 'dist/split', name), join(dir, 'dist/split', name));
  copyFileSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  return dir;
}

/** `fcast demo --json` run by the given bin, its stdout once checked. */
async function demo(bin: string, tmp: string): Promise<string> {
  const env = { PATH: process.env.PATH ?? '', FCAST_CONFIG_DIR: tempDir(), FCAST_BASE_URL: emu.server.url };
  const child = spawn(process.execPath, [bin, 'demo', '--json'], {
    // The user's cache directory is `tmp` too, so that one directory says where each cache went.
    env: { ...env, TMPDIR: tmp, XDG_CACHE_HOME: tmp },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
  const code = await new Promise((resolve) => child.on('close', resolve));
  expect(stderr).toBe('');
  expect(code).toBe(0);
  expect(JSON.parse(stdout)).toMatchObject({ ok: true, symbol: 'BTC/USD' });
  return stdout;
}

/** Whether Node's compile cache was written in the user's cache directory (`tmp`), and never in TMPDIR's default place. */
const cached = (tmp: string) => {
  expect(existsSync(join(tmp, 'node-compile-cache'))).toBe(false);
  const dir = join(tmp, 'fcast', 'compile-cache');
  return existsSync(dir) && readdirSync(dir).length > 0;
};

describe('code caches', () => {
  it("with the build's cache, Node's own is not asked for", async () => {
    const tmp = tempDir();
    await demo(join(ROOT, 'bin/fcast.js'), tmp);
    expect(cached(tmp)).toBe(false);
  });

  it(`without it (the npm package), Node's compile cache is ${hasCompileCache ? 'written, then used' : 'not there (Node 20)'}`, async () => {
    const pkg = installedPackage();
    const tmp = tempDir();
    const first = await demo(join(pkg, 'bin/fcast.js'), tmp);
    expect(cached(tmp)).toBe(hasCompileCache);
    const second = await demo(join(pkg, 'bin/fcast.js'), tmp);
    expect(second).toBe(first);
  });

  it("a cache made for another Node version is passed over for Node's own", async () => {
    const pkg = installedPackage();
    writeFileSync(join(pkg, 'dist/split/fcast.cjs.cache'), 'fcast code cache 1 2 v0.0.0\nnot a cache');
    const tmp = tempDir();
    await demo(join(pkg, 'bin/fcast.js'), tmp);
    expect(cached(tmp)).toBe(hasCompileCache);
  });
});
