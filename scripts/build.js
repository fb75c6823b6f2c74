#!/usr/bin/env node
// `npm run build` (and `prepare`), after `tsc -b` has emitted dist/: CommonJS bundles that
// bin/fcast.js loads without starting Node's ES module loader, and without resolving and
// compiling tsc's files one by one (what that cost: docs/decisions/2026-11-23-startup-figures.md):
//   dist/launch.cjs what bin requires first in every run: src/launch/ (the fast paths, the
//                   stdio writer, the loader of dist/split/), small (docs/decisions/2026-12-02-launcher.md)
//   dist/split/     what bin runs: src/entry.ts split at every dynamic import into an entry
//                   (fcast.cjs) and a file per dynamic import, loaded when a command runs it,
//                   each with the code cache made here (docs/decisions/2026-11-27-startup.md);
//                   help.txt, the root's help, which the launcher writes itself
//   dist/fcast.cjs  the same in one file (src/entry.ts), for a consumer that takes one script
//   dist/tab.cjs    the TAB listing alone (src/completion/tab.ts), for `__complete-symbols`
// Their import.meta.url is that of a file in dist/core/, as deep as src/core/package-files.ts,
// whose paths relative to its own URL (../../bin/fcast.js) must hold in a bundle as in tsc's output.
//   dist/scan-worker.cjs the thread that reads a large journal ahead (src/journal/scan-ahead.ts)
//   dist/compare-worker.cjs the thread that computes half a large comparison (src/journal/compare-threads.ts)
//   dist/undici.cjs undici alone, which only a proxied connection needs (direct ones use
//                   node:http): its own file, so that no other run reads or parses it, and in the
//                   package, so that an installed fcast needs nothing from node_modules (the
//                   package has no runtime dependencies: it installs offline).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Script } from 'node:vm';
import { build, transform } from 'esbuild';

// commander requires node:child_process at its top (a cost in every run: the start-up figures
// note, docs/decisions/2026-11-23-startup-figures.md) for external subcommands, which fcast has
// none of: the bundle loads it on the first spawn instead.
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

// picocolors decides at its top whether its default export colours, reading process.stdout.isTTY:
// that builds Node's stdout stream (for a pipe, a socket and the net and stream modules: the
// dearest part of a short command, docs/decisions/2026-11-27-startup.md) in every run, before
// the launcher could write without it. fcast never uses that
// default (output/io.ts and output/journal-report.ts call createColors(enabled) with fcast's own
// choice), so in the bundles it is made without asking the terminal.
const PICOCOLORS_TTY = '((p.stdout || {}).isTTY && env.TERM !== "dumb")';
const picocolorsWithoutStdout = {
  name: 'picocolors-without-stdout',
  setup(b) {
    b.onLoad({ filter: /[\\/]picocolors[\\/]picocolors\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes(PICOCOLORS_TTY)) throw new Error(`${args.path}: no '${PICOCOLORS_TTY}' to take out`);
      return { contents: source.replace(PICOCOLORS_TTY, 'false'), loader: 'js' };
    });
  },
};

// The shape predicates of every schema, written from the schemas by quick-accept.ts and put in
// place of src/api/accept-table.ts (empty in the sources): a body of the documented shape is
// then checked without loading zod (docs/decisions/2026-11-25-shape-predicates-over-zod4.md
// has what that saves). Made from tsc's output of the same sources, which `tsc -b` has just written.
const { SCHEMAS } = await import('../dist/schema/bodies.js');
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
// bundle's own directory (`up`: '..' from dist/split/): the launcher runs the bundle with a
// `require` of its own, so a relative specifier would not resolve from the bundle.
const undiciBeside = (up) => ({
  name: 'undici-beside',
  setup(b) {
    b.onResolve({ filter: /^undici$/ }, () => ({ path: 'undici', namespace: 'undici-beside' }));
    b.onLoad({ filter: /.*/, namespace: 'undici-beside' }, () => ({
      contents: `module.exports = require(require('node:path').join(__dirname, ${JSON.stringify(up)}, 'undici.cjs'));`,
      loader: 'js',
    }));
  },
});

// What every CommonJS bundle of the build shares.
const cjsBundle = {
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
};

await build({ ...cjsBundle, entryPoints: { undici: 'node_modules/undici/index.js' } });

// dist/scan-worker.cjs: the thread that reads a large journal ahead of a report or comparison
// (src/journal/scan-ahead.ts), alone, so that it starts without the rest of fcast.
await build({ ...cjsBundle, entryPoints: { 'scan-worker': 'src/journal/scan-worker.ts' } });
// dist/compare-worker.cjs: the thread that computes some of a large comparison's timeframes
// (src/journal/compare-threads.ts), alone for the same reason.
await build({ ...cjsBundle, entryPoints: { 'compare-worker': 'src/journal/compare-worker.ts' } });

// dist/launch.cjs: every run reads and compiles it, whatever the command, `--version` too: minified,
// names and all (docs/decisions/2026-12-02-launcher.md). What it may import is held by
// .dependency-cruiser.cjs (launch-stays-small).
await build({ ...cjsBundle, entryPoints: { launch: 'src/launch/index.ts' }, minify: true });

// The listing the root's help shows, from the tree tsc just emitted, before the bundles take it
// in: a command added since the last build is in this build's help (and dist/split/help.txt).
{
  const { writeCommandList } = await import('./command-list.js');
  if (await writeCommandList()) console.log('build: wrote src/cli/command-list.ts from the command tree');
}

// dist/fcast.cjs: everything in one file, which no command of the package runs any more (bin
// runs dist/split/) but which a single-file consumer (the standalone executable) can take whole.
await build({
  ...cjsBundle,
  entryPoints: { fcast: 'src/entry.ts', tab: 'src/completion/tab.ts' },
  define: { 'import.meta.url': '__fcastModuleUrl' },
  banner: {
    js: "const __fcastModuleUrl = require('node:url').pathToFileURL(require('node:path').join(__dirname, 'core', 'bundle.cjs')).href;",
  },
  plugins: [lazyCommanderSpawn, picocolorsWithoutStdout, precompiledShapes, undiciBeside('.')],
});

// dist/split/: what bin/fcast.js runs. The same sources split by esbuild at every dynamic
// import (each command module, each action's heavy part) into an entry, fcast.cjs, and chunks
// that the entry and each other load only when a command runs them: `config list` no longer
// reads the HTTP stack, `--help` no command's action, and no run reads and compiles the whole
// bundle (the figures: docs/decisions/2026-11-27-startup.md).
// esbuild splits only ES modules: each file is then turned into CommonJS, its import() into
// a require() (`dynamic-import: false`), so that the launcher's vm.Script loader can serve it and no
// ES module loader starts. The files are then packed (below): the entry with every chunk it
// requires at its top, each dynamic import with the chunks it requires; a pack asks for the
// entry as './fcast.cjs', which under a plain require (the npm package, which ships no code
// cache) Node resolves beside the file and the launcher's loader serves itself, with its code cache.
const SPLIT = 'dist/split';
rmSync(SPLIT, { recursive: true, force: true });
const split = await build({
  entryPoints: { fcast: 'src/entry.ts' },
  outdir: SPLIT,
  outExtension: { '.js': '.cjs' },
  chunkNames: '[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  write: false,
  metafile: true,
  // Without comments and blanks (commander's JSDoc is much of its text): every run reads each
  // file as a string and V8 hashes and keeps it, at a cost per byte (docs/decisions/2026-11-27-startup.md).
  // Names are kept.
  minifyWhitespace: true,
  minifySyntax: true,
  define: { 'import.meta.url': '__fcastModule.url' },
  plugins: [lazyCommanderSpawn, picocolorsWithoutStdout, precompiledShapes, undiciBeside('..')],
  logLevel: 'warning',
});
mkdirSync(SPLIT, { recursive: true });
// The chunks that the entry requires at its top, directly or not: every command loads them.
// They go into the entry's own file (packed below), so that a run reads, compiles and
// deserializes one file where it did one per chunk (docs/decisions/2026-11-27-startup.md).
const name = (path) => path.split('/').pop();
const outputs = split.metafile.outputs;
const entryOut = Object.keys(outputs).find((path) => outputs[path].entryPoint === 'src/entry.ts');
const packed = new Set();
for (const pending = [entryOut]; pending.length > 0; ) {
  for (const { path, kind } of outputs[pending.pop()].imports) {
    if (kind !== 'import-statement' || !outputs[path] || packed.has(name(path))) continue;
    packed.add(name(path));
    pending.push(path);
  }
}
// Every other file is one of the dynamic imports (a command module, an action's heavy part),
// packed with the chunks it requires at its top, directly or not, the same way: `journal
// report` read a file per chunk of its action, each costing a stat, two reads and a Script,
// much of it whatever the file's size (docs/decisions/2026-11-27-startup.md, with the figures
// of every packing tried). A chunk that two packs need is in
// both, but runs once: each pack hands its chunks to the entry (__define), which keeps the
// first definition of each and one instance of each module, whichever pack asks first. The
// copies double dist/split/; a chunk shared by many packs kept as a file of its own made each
// command read more files, and measured slower (docs/decisions/2026-11-27-startup.md).
const dynamic = new Set(
  Object.values(outputs).flatMap(({ imports }) =>
    imports.filter(({ path, kind }) => kind === 'dynamic-import' && outputs[path]).map(({ path }) => name(path)),
  ),
);
const roots = Object.keys(outputs).filter(
  (path) => path !== entryOut && !packed.has(name(path)) && dynamic.has(name(path)),
);
/** A dynamic import's file and the chunks it requires at its top, not counting the entry's. */
const closure = (root) => {
  const chunks = new Set([name(root)]);
  for (const pending = [root]; pending.length > 0; ) {
    for (const { path, kind } of outputs[pending.pop()].imports) {
      const chunk = name(path);
      if (kind !== 'import-statement' || !outputs[path] || path === entryOut || packed.has(chunk) || chunks.has(chunk))
        continue;
      chunks.add(chunk);
      pending.push(path);
    }
  }
  return [...chunks];
};
const packs = new Map(roots.map((root) => [name(root), closure(root)]));
const reached = new Set([name(entryOut), ...packed, ...[...packs.values()].flat()]);
const unreached = Object.keys(outputs).filter((path) => !reached.has(name(path)));
if (unreached.length > 0) throw new Error(`build: no pack holds ${unreached.map(name).join(', ')}`);
// Which modules each file holds, for `npm run bench` (what a run loaded); not in the package.
const inputsOf = (chunk) =>
  Object.entries(outputs[`${SPLIT}/${chunk}`].inputs).map(([input, { bytesInOutput }]) => [input, bytesInOutput]);
const holds = {
  [name(entryOut)]: [name(entryOut), ...packed].flatMap(inputsOf),
  ...Object.fromEntries([...packs].map(([root, chunks]) => [root, chunks.flatMap(inputsOf)])),
};
writeFileSync('dist/split-modules.json', `${JSON.stringify(holds)}\n`);
const splitFiles = [];
const code = new Map();
// import.meta.url, only in the files that use it and only when read (a path.join and a URL,
// in the profile of a `config list`, whose run never asks for it: docs/decisions/2026-11-27-startup.md).
const MODULE_URL =
  "const __fcastModule={get url(){return require('node:url').pathToFileURL(require('node:path').join(__dirname,'..','core','bundle.cjs')).href}};\n";
for (const out of split.outputFiles) {
  const text = out.text.includes('__fcastModule.url') ? MODULE_URL + out.text : out.text;
  const result = await transform(text, {
    format: 'cjs',
    target: 'node20',
    supported: { 'dynamic-import': false },
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'warning',
  });
  // The exports object as it is, marked as an ES module's, rather than a copy of its getters
  // (__toCommonJS, in the profile of a `config list` too).
  const exported = /module\.exports=__toCommonJS\((\w+)\);/;
  code.set(name(out.path), result.code.replace(exported, 'module.exports=__defProp($1,"__esModule",{value:!0});'));
  splitFiles.push(out.path);
}
// A chunk as a function of Node's module wrapper's arguments, run once when first required.
const asFunction = (chunk) =>
  `${JSON.stringify(chunk)}:function(exports,require,module,__filename,__dirname){${code.get(chunk)}\n}`;
// The entry's file: the packed chunks, each run once when first required (by the entry or by
// any chunk), then the entry itself with that require; __define takes a pack's chunks. A
// chunk's require of another, packed or not, is the entry's: one instance of each module.
code.set(
  name(entryOut),
  `const __fcastPack=((own)=>{const chunks={${[...packed].map(asFunction).join(',\n')}};const done=new Map();const req=(spec)=>{const chunk=spec.startsWith('./')?spec.slice(2):'';if(!Object.hasOwn(chunks,chunk))return own(spec);let m=done.get(chunk);if(!m){m={exports:{}};done.set(chunk,m);chunks[chunk].call(m.exports,m.exports,req,m,__dirname+'/'+chunk,__dirname)}return m.exports};req.define=(defs)=>{for(const chunk of Object.keys(defs))if(!Object.hasOwn(chunks,chunk))chunks[chunk]=defs[chunk]};return req})(require);\n` +
    `(function(require){${code.get(name(entryOut))}\n})(__fcastPack);\nmodule.exports.__packed=(chunk)=>__fcastPack('./'+chunk);module.exports.__define=__fcastPack.define;\n`,
);
// A dynamic import's file: its chunks handed to the entry, then its own module through the
// entry's require (already loaded, whichever loader runs them).
for (const [root, chunks] of packs) {
  code.set(
    root,
    `const __fcast=require("./${name(entryOut)}");__fcast.__define({${chunks.map(asFunction).join(',\n')}});\nmodule.exports=__fcast.__packed(${JSON.stringify(root)});\n`,
  );
}
splitFiles.splice(0, Infinity, ...splitFiles.filter((path) => name(path) === name(entryOut) || packs.has(name(path))));
for (const path of splitFiles) writeFileSync(path, code.get(name(path)));
// The launcher runs the bundle through vm.Script (for its code cache), where a real dynamic
// import() has no loader and throws ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING: esbuild turns every
// import() of a bundled module into a require, but an import() of a builtin (`node:path`) or of
// anything external would stay one and break its command at run time. Better a failed build.
// The same holds for every chunk of dist/split/, whose import()s the transform above made requires.
for (const file of ['dist/fcast.cjs', 'dist/tab.cjs', ...splitFiles]) {
  const left = /\bimport\(\s*["'`]/.exec(readFileSync(file, 'utf8'));
  if (left) throw new Error(`build: ${file} keeps a dynamic import() (${left[0]}...): import it statically`);
}
// A moved or renamed accept-table.ts would leave the bundle checking every body with zod:
// slower, and silently so. Better a failed build.
if (tablesPlaced === 0) throw new Error('build: src/api/accept-table.ts was not replaced by the precompiled shapes');

// V8's code cache of each file of dist/split/, for the launcher (loadSplit): compiling is
// much of loading code (docs/decisions/2026-11-25-code-cache.md). Made after a few real runs
// against the emulator (demo and
// predict, --json and table, predict --record, config list, an empty journal report, --help),
// loaded as a run loads them, so that the functions they compile lazily are in the caches too
// (a cache of the top level alone costs more CPU per run: docs/decisions/2026-11-27-startup.md);
// a chunk no warm-up loaded
// gets a cache of its top level. Should the warm-up fail, the caches still hold what ran.
// They are loaded by the launcher's own loader (dist/launch.cjs, wrappedLoader), so that each
// cache is made over the very text a run compiles. The header ties a cache to its very file and
// Node version (V8 itself checks only the source's length).
const { WRAPPER, wrappedLoader, codeCacheHeader } = Module.createRequire(import.meta.url)('../dist/launch.cjs');
if (WRAPPER[0] !== Module.wrap('').slice(0, WRAPPER[0].length))
  throw new Error("build: src/launch/loader.ts's WRAPPER is not Node's");
const scripts = new Map();
const splitDir = resolve(SPLIT);
const read = (file) => readFileSync(file, 'utf8');
const wrapped = (file) => new Script(WRAPPER[0] + read(file) + WRAPPER[1], { filename: file });
// Each warm-up command runs in a module graph of its own, as in a process of its own: a chunk
// that several packs hold runs from the first pack its command loads, and it is that copy whose
// functions the command compiles. The Scripts are shared by the graphs, so each file's cache
// holds what every command compiled of it.
const freshEntry = () =>
  wrappedLoader({ read, require: Module.createRequire(join(splitDir, 'fcast.cjs')), scripts })(
    join(splitDir, 'fcast.cjs'),
  );
try {
  await warmUp(freshEntry);
} catch (err) {
  console.warn(`build: code cache without warm-up (${err?.message ?? err})`);
}
for (const file of splitFiles) writeCodeCache(file, scripts.get(file) ?? wrapped(file));
// The root's help, for the launcher to write without loading the bundle (fastHelp): what the
// bundle just made prints on a pipe, without colour, outside GitHub Actions, with no config.
const helpDir = mkdtempSync(join(tmpdir(), 'fcast-build-'));
try {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/^(FORCE_COLOR|CLICOLOR_FORCE|GITHUB_ACTIONS|FCAST_.*|.*_proxy)$/i.test(name),
    ),
  );
  const help = spawnSync(process.execPath, ['bin/fcast.js', '--help'], {
    env: { ...env, FCAST_CONFIG_DIR: helpDir, NODE_DISABLE_COMPILE_CACHE: '1' },
  });
  if (help.status !== 0 || help.stderr.length > 0 || help.stdout.length === 0)
    throw new Error(`build: fcast --help exited ${help.status}: ${help.stderr}`);
  writeFileSync(`${SPLIT}/help.txt`, help.stdout);
} finally {
  rmSync(helpDir, { recursive: true, force: true });
}
// The one-file bundle's cache, of its top level, for the standalone executable, which loads
// dist/fcast.cjs (not the split files) and checks this cache is of that bundle and this Node.
const whole = resolve('dist/fcast.cjs');
writeCodeCache(whole, wrapped(whole));

/** `file`.cache: a header tying it to the file's size and time and to this Node, then V8's cache. */
function writeCodeCache(file, script) {
  const { size, mtimeMs } = statSync(file);
  const header = Buffer.from(codeCacheHeader(size, mtimeMs));
  writeFileSync(`${file}.cache`, Buffer.concat([header, script.createCachedData()]));
}

/** Runs the commands most often timed, in-process, against an emulator in a child process. */
async function warmUp(freshEntry) {
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
    // No proxy variables: the emulator is on loopback, and a proxy must never hold up a build.
    const own = Object.entries(process.env).filter(([name]) => !/_proxy$/i.test(name));
    const env = {
      ...Object.fromEntries(own),
      ...exported,
      FCAST_CONFIG_DIR: configDir,
      FCAST_DATA_DIR: join(configDir, 'data'),
      NO_COLOR: '1',
    };
    try {
      for (const argv of [
        ['demo', '--json'],
        ['demo'],
        ['predict', '--json', 'BTC/USD', 'ETH/USD'],
        ['predict', 'BTC/USD'],
        // --record twice: a journal written, then one that holds the forecasts already.
        ['predict', '--json', 'BTC/USD', '--record'],
        ['predict', '--json', 'BTC/USD', '--record'],
        ['config', 'list'],
        ['journal', 'report', '--offline'],
        ['--help'],
      ]) {
        const { main, realContext } = freshEntry();
        const ctx = realContext(new AbortController().signal);
        const code = await main(argv, { ...ctx, env, io: { stdout: sink, stderr: sink, stdin: ctx.io.stdin } });
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
