#!/usr/bin/env node
// `npm run build:sea`: fcast as one executable, Node's single executable application (SEA):
// this very `node` binary with fcast injected, which runs where no Node is installed.
//   1. esbuild bundles the launcher (src/launch/executable.ts: the fast paths, with the TAB
//      listing) into the main script;
//      a SEA's main script can require builtins only, so the main bundle, its code cache and
//      dist/undici.cjs become assets, compiled from there when a command runs, as are the
//      package's files fcast reads at run time (package.json, the completion templates;
//      src/core/package-files.ts reads them there).
//   2. On Node 25.5 or newer, `node --build-sea` writes the executable in one step (Node's own
//      injector: no postject); on older Nodes `node --experimental-sea-config` writes the blob and
//      postject (the tool Node's documentation names; a devDependency) injects it into a copy of
//      `node`, in a child process whose output is shown only when it fails (LIEF's warnings about
//      the ELF's sections are not the user's to interpret). Either way with V8's code cache of the
//      script (useCodeCache: compiled at build time, not at each start; only for the platform
//      building, as Node's cross-platform notes require) and the "experimental feature" warning off.
//   3. A checksum file beside it, for `sha256sum -c`.
// Written to dist/sea/: fcast and fcast.sha256. scripts/release.js builds the release's four with
// the newest Node LTS through the same script:
//   node scripts/build-sea.js --executable NODE_OF_TARGET --target linux-arm64 --output FILE
// run by that Node (the blob must be made by the Node it goes into). macOS executables are signed
// ad hoc (codesign) when built on macOS. docs/reference.md, "Standalone executable", has the steps.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const { values: opts } = parseArgs({
  options: { executable: { type: 'string' }, target: { type: 'string' }, output: { type: 'string' } },
});
const HOST = `${process.platform}-${process.arch}`;
const TARGET = opts.target ?? HOST;
const TARGET_OS = TARGET.split('-')[0];
const OUT = 'dist/sea';
const NAME = process.platform === 'win32' ? 'fcast.exe' : 'fcast';
/** The executable written: dist/sea/fcast, or --output (the release's file). */
const EXE = opts.output ?? join(OUT, NAME);
/** The node binary the blob goes into: this one, or the target's (--executable), of this very version. */
const BASE = opts.executable ?? process.execPath;
const [major, minor] = process.versions.node.split('.').map(Number);
const BUILT_IN = major > 25 || (major === 25 && minor >= 5);
/** The files the package ships that fcast reads at run time, by their path from the package root. */
const ASSETS = [
  'package.json',
  'src/completion/template.bash',
  'src/completion/template.zsh',
  'src/completion/template.fish',
  'dist/fcast.cjs',
  'dist/fcast.cjs.cache',
  'dist/undici.cjs',
];
/** Node's documented fuse: postject flips it so that the binary looks for its blob. */
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

const started = Date.now();
if (!opts.output) rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
mkdirSync(dirname(EXE), { recursive: true });

// The executable's main script: the launcher as bin runs it (its fast paths, TAB with the
// listing inlined), and for everything else the main bundle from the assets
// (src/launch/executable.ts). Inlined into the main script instead, the whole bundle would be
// loaded by every start, --version too (measured slower: docs/decisions/2026-11-27-package.md).
// The exit is the script's own, as bin's is.
const MAIN_SCRIPT = `import { launchExecutable } from './src/launch/executable.ts';
launchExecutable(require, (code) => process.exit(code));
`;

// The build's cache must be of this very bundle, made by this Node (its first line says so).
const header = readFileSync('dist/fcast.cjs.cache').subarray(0, 200).toString('latin1').split('\n')[0];
const expected = `fcast code cache ${statSync('dist/fcast.cjs').size} `;
if (!header.startsWith(expected) || !header.endsWith(` ${process.version}`))
  throw new Error(`build-sea: dist/fcast.cjs.cache is not of this bundle and Node (${header}): npm run build`);

const main = join(OUT, 'main.cjs');
await build({
  stdin: { contents: MAIN_SCRIPT, resolveDir: process.cwd(), sourcefile: 'sea-main.ts', loader: 'ts' },
  outfile: main,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: `node${process.versions.node.split('.')[0]}`,
  logLevel: 'warning',
});

/** Runs a step of the build, its chatter ("Wrote single executable…", LIEF's warnings) shown only when it fails. */
function quiet(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status === 0) return;
  process.stderr.write(r.stdout + r.stderr);
  throw new Error(`build-sea: ${[cmd, ...args].join(' ').slice(0, 200)} failed (exit ${r.status ?? r.signal})`);
}

const config = join(OUT, 'sea-config.json');
const blob = join(OUT, 'sea-prep.blob');
const seaConfig = {
  main,
  disableExperimentalSEAWarning: true,
  useCodeCache: TARGET === HOST,
  assets: Object.fromEntries(ASSETS.map((path) => [path, path])),
};
const darwin = TARGET_OS === 'darwin';
const signing = darwin && process.platform === 'darwin';
const exe = EXE;
rmSync(exe, { force: true });
/** A copy of the target's node with its signature off (macOS): the blob changes the binary. */
let base = BASE;
if (signing) {
  base = join(OUT, 'node-unsigned');
  copyFileSync(BASE, base);
  execFileSync('codesign', ['--remove-signature', base]);
}
if (BUILT_IN) {
  writeFileSync(config, JSON.stringify({ ...seaConfig, executable: base, output: exe }));
  quiet(process.execPath, ['--build-sea', config]);
} else {
  writeFileSync(config, JSON.stringify({ ...seaConfig, output: blob }));
  quiet(process.execPath, ['--experimental-sea-config', config]);
  copyFileSync(base, exe);
  chmodSync(exe, 0o755);
  const postject = createRequire(import.meta.url).resolve('postject');
  const injector = `require(${JSON.stringify(postject)}).inject(${JSON.stringify(exe)}, 'NODE_SEA_BLOB',
    require('fs').readFileSync(${JSON.stringify(blob)}), ${JSON.stringify({ sentinelFuse: FUSE, ...(darwin && { machoSegmentName: 'NODE_SEA' }) })})
    .catch((err) => { console.error(err); process.exit(1); });`;
  quiet(process.execPath, ['-e', injector]);
  rmSync(blob);
}
chmodSync(exe, 0o755);
if (signing) {
  execFileSync('codesign', ['--sign', '-', exe]);
  rmSync(base);
}
for (const file of [main, config]) rmSync(file);

// Which launcher, bundle and Node it carries, so that a test or the bench can tell it is of the
// current ones (a rebuild of the same sources makes the same bundles, with a newer time).
const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');
if (!opts.output) {
  writeFileSync(
    join(OUT, 'built-from'),
    `${sha256('dist/launch.cjs')} ${sha256('dist/fcast.cjs')} ${process.version}\n`,
  );
  writeFileSync(join(OUT, `${NAME}.sha256`), `${sha256(exe)}  ${NAME}\n`);
}
process.stdout.write(
  `built ${exe} (Node ${process.versions.node}, ${TARGET}${darwin && !signing ? ', not signed: macOS needs codesign --sign -' : ''}) in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
);
