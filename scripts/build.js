#!/usr/bin/env node
// `npm run build` (and `prepare`), after `tsc -b` has emitted dist/: two CommonJS bundles
// that bin/fcast.js loads without starting Node's ES module loader, and without resolving
// and compiling ~40 files one by one (together ~30% of a `fcast demo --json`):
//   dist/fcast.cjs  everything (src/entry.ts); the dynamic imports of command actions stay lazy
//   dist/tab.cjs    the TAB listing alone (src/completion/tab.ts), for `__complete-symbols`
// Both sit directly in dist/, as deep as src/context.ts and src/package-files.ts, whose
// paths relative to their own URL (../package.json, ../bin/fcast.js) must hold in a bundle.
// Left out of the bundle and loaded from node_modules when used: undici, which only a
// proxied connection needs (direct ones use node:http), so no other run parses it.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import Module from 'node:module';
import { dirname, resolve } from 'node:path';
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

await build({
  entryPoints: { fcast: 'src/entry.ts', tab: 'src/completion/tab.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external: ['undici'],
  define: { 'import.meta.url': '__fcastModuleUrl' },
  banner: { js: "const __fcastModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
  plugins: [lazyCommanderSpawn],
  logLevel: 'warning',
});

// V8's code cache of the main bundle, for bin/fcast.js (loadBundle): compiling the bundle is
// about half of loading it. Made after running its top level, so that the functions that
// ran are in the cache too; bin/fcast.js wraps the source the same way. The header ties the
// cache to this very bundle and Node version (V8 itself checks only the source's length).
const bundle = resolve('dist/fcast.cjs');
const script = new Script(Module.wrap(readFileSync(bundle, 'utf8')), { filename: bundle });
const module = { exports: {} };
script
  .runInThisContext()
  .call(module.exports, module.exports, Module.createRequire(bundle), module, bundle, dirname(bundle));
const { size, mtimeMs } = statSync(bundle);
const header = Buffer.from(`fcast code cache ${size} ${mtimeMs} ${process.version}\n`);
writeFileSync(`${bundle}.cache`, Buffer.concat([header, script.createCachedData()]));
