#!/usr/bin/env node
// `npm run build` (and `prepare`), after `tsc -b` has emitted dist/: two CommonJS bundles
// that bin/fcast.js loads without starting Node's ES module loader, and without resolving
// and compiling ~40 files one by one (together ~30% of a `fcast demo --json`):
//   dist/fcast.cjs  everything (src/entry.ts); the dynamic imports of command actions stay lazy
//   dist/tab.cjs    the TAB listing alone (src/completion/tab.ts), for `__complete-symbols`
// Both sit directly in dist/; their import.meta.url is that of a file in dist/core/, as deep as
// src/core/package-files.ts, whose paths relative to its own URL (../../bin/fcast.js) must hold
// in a bundle as in tsc's output.
//   dist/undici.cjs undici alone, which only a proxied connection needs (direct ones use
//                   node:http): its own file, so that no other run reads or parses it, and in the
//                   package, so that an installed fcast needs nothing from node_modules (the
//                   package has no runtime dependencies: it installs offline).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Script } from 'node:vm';
import { build } from 'esbuild';

// commander requires node:child_process at its top (~10 ms of CPU per run) for external
// subcommands, which fcast has none of: the bundle loads it on the first spawn instead.
const CHILD_PROCESS = "const childProcess = require('node:child_process');";
const lazyCommanderSpawn = {
  name: 'lazy-commander-spawn',
  setup(b) {
    b.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes(CHILD_PROCESS)) throw new Error(`${args.path}: no '${CHILD_PROCESS}' to make lazy`);
      const lazy = "const childProcess = { spawn: (...a) => require('node:child_process').spawn(...a) };";
      return { contents: source.replace(CHILD_PROCESS, lazy), loader: 'js' };
    });
  },
};

// The shape predicates of every schema, written from the schemas by quick-accept.ts and put in
// place of src/api/accept-table.ts (empty in the sources): a body of the documented shape is
// then checked without loading zod (~8% of a `demo --json`). Made from tsc's output of the same
// sources, which `tsc -b` has just written.
const { SCHEMAS } = await import('../dist/api/schemas.js');
const { acceptorTableSource } = await import('../dist/api/quick-accept.js');
const ACCEPT_TABLE = `export const PRECOMPILED = ${acceptorTableSource(SCHEMAS)};\n`;
let tablesPlaced = 0;
const precompiledShapes = {
  name: 'precompiled-shapes',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]api[\\/]accept-table\.ts$/ }, () => {
      tablesPlaced++;
      return { contents: ACCEPT_TABLE, loader: 'js' };
    });
  },
};

// The main bundle's `import('undici')` becomes a require of dist/undici.cjs by its path from the
// bundle's own directory: bin/fcast.js runs the bundle with bin's `require`, so a relative
// specifier would resolve from bin/.
const undiciBeside = {
  name: 'undici-beside',
  setup(b) {
    b.onResolve({ filter: /^undici$/ }, () => ({ path: 'undici', namespace: 'undici-beside' }));
    b.onLoad({ filter: /.*/, namespace: 'undici-beside' }, () => ({
      contents: "module.exports = require(require('node:path').join(__dirname, 'undici.cjs'));",
      loader: 'js',
    }));
  },
};

await build({
  entryPoints: { undici: 'node_modules/undici/index.js' },
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
});

await build({
  entryPoints: { fcast: 'src/entry.ts', tab: 'src/completion/tab.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  define: { 'import.meta.url': '__fcastModuleUrl' },
  banner: {
    js: "const __fcastModuleUrl = require('node:url').pathToFileURL(require('node:path').join(__dirname, 'core', 'bundle.cjs')).href;",
  },
  plugins: [lazyCommanderSpawn, precompiledShapes, undiciBeside],
  logLevel: 'warning',
});
// bin/fcast.js runs the bundle through vm.Script (for its code cache), where a real dynamic
// import() has no loader and throws ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING: esbuild turns every
// import() of a bundled module into a require, but an import() of a builtin (`node:path`) or of
// anything external would stay one and break its command at run time. Better a failed build.
for (const file of ['dist/fcast.cjs', 'dist/tab.cjs']) {
  const left = /\bimport\(\s*["'`]/.exec(readFileSync(file, 'utf8'));
  if (left) throw new Error(`build: ${file} keeps a dynamic import() (${left[0]}...): import it statically`);
}
// A moved or renamed accept-table.ts would leave the bundle checking every body with zod:
// slower, and silently so. Better a failed build.
if (tablesPlaced === 0) throw new Error('build: src/api/accept-table.ts was not replaced by the precompiled shapes');

// V8's code cache of the main bundle, for bin/fcast.js (loadBundle): compiling the bundle is
// about half of loading it. Made after a few real runs against the emulator (demo and
// predict, --json and table, and predict --record), so that the functions they compile lazily are in the cache too
// (~10 ms of CPU more per run than a cache of the top level alone); should the warm-up fail,
// the cache still holds the top level. bin/fcast.js wraps the source the same way. The header
// ties the cache to this very bundle and Node version (V8 itself checks only the source's length).
const bundle = resolve('dist/fcast.cjs');
const [before, after] = binWrapper();
const script = new Script(before + readFileSync(bundle, 'utf8') + after, { filename: bundle });
const module = { exports: {} };
script
  .runInThisContext()
  .call(module.exports, module.exports, Module.createRequire(bundle), module, bundle, dirname(bundle));
try {
  await warmUp(module.exports);
} catch (err) {
  console.warn(`build: code cache without warm-up (${err?.message ?? err})`);
}
const { size, mtimeMs } = statSync(bundle);
const header = Buffer.from(`fcast code cache ${size} ${mtimeMs} ${process.version}\n`);
writeFileSync(`${bundle}.cache`, Buffer.concat([header, script.createCachedData()]));

/**
 * The wrapper bin/fcast.js puts around the bundle, read from its one line there: a cache made
 * over any other text would be refused at every run (V8 checks the source it was made for).
 */
function binWrapper() {
  const line = /^const WRAPPER = (\[.*\]);$/m.exec(readFileSync('bin/fcast.js', 'utf8'));
  if (!line) throw new Error('build: no WRAPPER line in bin/fcast.js');
  const wrapper = new Function(`return ${line[1]};`)();
  if (wrapper[0] !== Module.wrap('').slice(0, wrapper[0].length))
    throw new Error("build: bin/fcast.js's WRAPPER is not Node's");
  return wrapper;
}

/** Runs the commands most often timed, in-process, against an emulator in a child process. */
async function warmUp({ main, realContext }) {
  // The emulator runs from the bin in its own process, so that its code stays out of the cache.
  // The bundle has no cache of its own yet: Node's (22+) would leave a directory in /tmp.
  const mock = spawn(process.execPath, ['bin/fcast.js', 'mock', '--port', '0', '--print-env'], {
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { ...process.env, NODE_DISABLE_COMPILE_CACHE: '1' },
  });
  // An emulator that never prints its address must not hold the build: killed, its output ends.
  const stuck = setTimeout(() => mock.kill(), 20_000);
  try {
    let printed = '';
    for await (const chunk of mock.stdout) printed += chunk;
    const exported = Object.fromEntries([...printed.matchAll(/^export (\w+)=(\S+)$/gm)].map((m) => [m[1], m[2]]));
    if (!exported.FCAST_BASE_URL) throw new Error('the emulator printed no base URL');
    const configDir = mkdtempSync(join(tmpdir(), 'fcast-build-'));
    const sink = { write: () => true };
    const ctx = realContext(new AbortController().signal);
    // No proxy variables: the emulator is on loopback, and a proxy must never hold up a build.
    const own = Object.entries(process.env).filter(([name]) => !/_proxy$/i.test(name));
    const env = {
      ...Object.fromEntries(own),
      ...exported,
      FCAST_CONFIG_DIR: configDir,
      FCAST_DATA_DIR: join(configDir, 'data'),
      NO_COLOR: '1',
    };
    const warm = { ...ctx, env, io: { stdout: sink, stderr: sink, stdin: ctx.io.stdin } };
    try {
      for (const argv of [
        ['demo', '--json'],
        ['demo'],
        ['predict', '--json', 'BTC/USD', 'ETH/USD'],
        ['predict', 'BTC/USD'],
        // --record twice: a journal written, then one that holds the forecasts already.
        ['predict', '--json', 'BTC/USD', '--record'],
        ['predict', '--json', 'BTC/USD', '--record'],
      ]) {
        const code = await main(argv, warm);
        if (code !== 0) throw new Error(`fcast ${argv.join(' ')} exited ${code}`);
      }
    } finally {
      rmSync(configDir, { recursive: true, force: true });
    }
  } finally {
    clearTimeout(stuck);
    mock.kill();
  }
}
