// The npm package as a user gets it: `npm pack`'s tarball, installed with `npm install -g
// ./fcast-VERSION.tgz --offline` into an empty prefix with the registry unreachable, by a
// normal user (a throwaway uid when the tests run as root), then run from that prefix: --version,
// completion, and a demo against the installed fcast's own emulator. The package has no
// runtime dependencies (the bundles carry commander, picocolors, undici, zod), so nothing is
// fetched. Needs the build (`node scripts/build.js`), as every e2e test does.
import { type SpawnOptions, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectExit, tempDir } from '../helpers/cli.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

/** What the package holds: what runs, the templates `fcast completion` fills, the ready-made completion scripts. */
const PACKED = [
  'README.md',
  'bin/fcast.js',
  'bin/package.json',
  'completions/_fcast',
  'completions/fcast.bash',
  'completions/fcast.fish',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
  // What bin runs: the launcher, then the split bundle, its entry and chunks (their names hashed by the build).
  'dist/launch.cjs',
  ...readdirSync(join(ROOT, 'dist/split'))
    .filter((name) => name.endsWith('.cjs'))
    .map((name) => `dist/split/${name}`),
  'dist/split/help.txt',
  // The thread that reads a large journal ahead (src/journal/scan-ahead.ts).
  'dist/scan-worker.cjs',
  'dist/compare-worker.cjs',
  'dist/tab.cjs',
  'dist/undici.cjs',
  'package.json',
  'src/completion/template.bash',
  'src/completion/template.fish',
  'src/completion/template.zsh',
].sort();

/**
 * As root, the install and the runs are a throwaway user's (a uid and gid no account has, no
 * supplementary groups: Node's spawn drops them, as setpriv --clear-groups does): npm as root is
 * not what a user meets, and a fresh uid owns nothing on the machine.
 */
const THROWAWAY = 60_000 + (process.pid % 5_000);
const asUser: Pick<SpawnOptions, 'uid' | 'gid'> = process.getuid?.() === 0 ? { uid: THROWAWAY, gid: THROWAWAY } : {};

function run(cmd: string, args: string[], env: Record<string, string>, cwd: string) {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', ...asUser });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** man-db's man (CI installs it: .ci/run, .github/workflows/ci.yml); skipped where missing, failed under CI=true. */
const MAN = spawnSync('man', ['-w', 'man'], { stdio: 'ignore' }).status === 0;
if (!MAN && process.env.CI === 'true') throw new Error('man (man-db) is missing, and CI=true: .ci/run installs it');
if (!MAN) console.warn('skipped the man page test of test/e2e/package.test.ts: no man (man-db)');

/** npm pack, an offline npm install -g and runs of what it installed: generous, for a loaded CI machine (the default is 20 s). */
const PACKAGE_TIMEOUT = 120_000;

describe('the npm package', () => {
  it(
    'holds the bundles, bin/ and the completion files, and no dependency',
    () => {
      const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' });
      expectExit({ code: r.status, stdout: r.stdout, stderr: r.stderr }, 0);
      const [pack] = JSON.parse(r.stdout) as Array<{ files: Array<{ path: string }> }>;
      expect(pack!.files.map((f) => f.path).sort()).toEqual(PACKED);
      const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
      expect(pkg.dependencies).toBeUndefined();
      expect(pkg.optionalDependencies).toBeUndefined();
    },
    PACKAGE_TIMEOUT,
  );

  describe('installed offline into an empty prefix', () => {
    let home: string;
    let env: Record<string, string>;
    let fcast: string;
    let installedRoot: string;
    let binDir: string;

    beforeAll(() => {
      home = tempDir('fcast-install-');
      chmodSync(home, 0o777);
      // The run's temporary root (test/helpers/temp-root.ts) is root's alone: nobody must pass through it.
      const root = tmpdir();
      if (asUser.uid !== undefined && (statSync(root).mode & 0o001) === 0) chmodSync(root, statSync(root).mode | 0o011);
      // As the release packs it (scripts/release.js, through scripts/pack.js).
      const packed = spawnSync(process.execPath, ['scripts/pack.js', home], { cwd: ROOT, encoding: 'utf8' });
      expectExit({ code: packed.status, stdout: packed.stdout, stderr: packed.stderr }, 0);
      expect(packed.stdout).toBe(`fcast-${version}.tgz\n`);
      env = {
        PATH: process.env.PATH ?? '',
        HOME: home,
        npm_config_cache: join(home, 'npm-cache'),
        npm_config_registry: 'http://127.0.0.1:9/',
        npm_config_update_notifier: 'false',
        FCAST_CONFIG_DIR: join(home, 'config'),
        FCAST_DATA_DIR: join(home, 'data'),
        NO_COLOR: '1',
        // The installed package has no build caches: Node's compile cache (22.1+) goes to
        // os.tmpdir(), which must be the run's own temporary directory, not /tmp.
        TMPDIR: tmpdir(),
      };
      const prefix = join(home, 'prefix');
      const installed = run(
        'npm',
        ['install', '-g', `./fcast-${version}.tgz`, '--offline', '--prefix', prefix, '--no-audit', '--no-fund'],
        env,
        home,
      );
      expectExit(installed, 0);
      expect(installed.stdout).toMatch(/^\nadded 1 package in [\d.]+m?s\n$/);
      // No warning: the packed package.json has no install script for npm to ask about.
      expect(installed.stderr).toBe('');
      fcast = join(prefix, 'bin', 'fcast');
      installedRoot = join(prefix, 'lib', 'node_modules', 'fcast');
      binDir = join(prefix, 'bin');
    }, 120_000);

    it(
      'has a package.json with no scripts and no devDependencies',
      () => {
        const pkg = JSON.parse(readFileSync(join(installedRoot, 'package.json'), 'utf8')) as Record<string, unknown>;
        expect(pkg.scripts).toBeUndefined();
        expect(pkg.devDependencies).toBeUndefined();
        expect(pkg.allowScripts).toBeUndefined();
        expect(pkg.version).toBe(version);
      },
      PACKAGE_TIMEOUT,
    );

    it.skipIf(!MAN)(
      'shows its man pages with man, found from the bin directory on PATH',
      () => {
        const manEnv = { ...env, PATH: `${binDir}:${env.PATH}`, MANPAGER: 'cat', PAGER: 'cat', MANWIDTH: '80' };
        const r = run('man', ['fcast-predict'], manEnv, home);
        expectExit(r, 0);
        expect(r.stdout).toMatch(/^FCAST-PREDICT\(1\) +fcast manual +FCAST-PREDICT\(1\)$/m);
        expect(r.stdout).toMatch(/^ +fcast-predict - latest forecasts for symbols/m);
        expect(r.stdout).toContain('Usage: fcast predict [options] [symbol...]');
        const nested = run('man', ['fcast-journal-report'], manEnv, home);
        expectExit(nested, 0);
        expect(nested.stdout).toContain('Usage: fcast journal report [options]');
      },
      PACKAGE_TIMEOUT,
    );

    it(
      'points its help at what is installed: the docs it names are there, the repository is not named',
      () => {
        const r = run(fcast, ['--help'], env, home);
        expectExit(r, 0);
        expect(r.stdout).not.toContain('repository');
        expect(r.stdout).toContain('~/.local/lib/node_modules/fcast/docs');
        for (const doc of ['reference.md', 'journal.md', 'formats.md'])
          expect(statSync(join(installedRoot, 'docs', doc)).isFile()).toBe(true);
      },
      PACKAGE_TIMEOUT,
    );

    it(
      'prints its version',
      () => {
        const r = run(fcast, ['--version'], env, home);
        expectExit(r, 0);
        expect(r.stdout).toBe(`${version}\n`);
        expect(r.stderr).toBe('');
      },
      PACKAGE_TIMEOUT,
    );

    it(
      'prints the completion script the clone has',
      () => {
        const r = run(fcast, ['completion', 'bash'], env, home);
        expectExit(r, 0);
        expect(r.stdout).toBe(readFileSync(join(ROOT, 'completions/fcast.bash'), 'utf8'));
        expect(r.stderr).toBe('');
      },
      PACKAGE_TIMEOUT,
    );

    it(
      'reaches undici (behind a proxy) from its own bundle: nothing comes from a node_modules',
      () => {
        const r = run(
          fcast,
          ['--base-url', 'https://example.com', '--retries', '0', 'demo', '--json'],
          { ...env, HTTPS_PROXY: 'http://127.0.0.1:9' },
          home,
        );
        expectExit(r, 6);
        expect(r.stdout).toBe('');
        expect(r.stderr).toBe(
          'fcast: request to example.com through the proxy http://127.0.0.1:9 failed: it refused the connection (ECONNREFUSED)\n' +
            '  hint: check HTTPS_PROXY / HTTP_PROXY, or list the host in NO_PROXY to go direct\n',
        );
      },
      PACKAGE_TIMEOUT,
    );

    it(
      'runs the demo against its own emulator',
      async () => {
        const mock = spawn(fcast, ['mock', '--port', '0', '--print-env'], {
          env,
          cwd: home,
          stdio: ['ignore', 'pipe', 'pipe'],
          ...asUser,
        });
        let printed = '';
        mock.stdout!.setEncoding('utf8').on('data', (d) => (printed += d));
        try {
          await once(mock.stdout!, 'end');
          const base = /^export FCAST_BASE_URL=(\S+)$/m.exec(printed)?.[1];
          expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
          const r = run(fcast, ['demo', '--json'], { ...env, FCAST_BASE_URL: base! }, home);
          expectExit(r, 0);
          expect(r.stderr).toBe('');
          expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, symbol: 'BTC/USD' });
        } finally {
          mock.kill('SIGTERM');
          await once(mock, 'exit');
        }
      },
      PACKAGE_TIMEOUT,
    );
  });
});
