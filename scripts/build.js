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
import { build } from 'esbuild';

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
  logLevel: 'warning',
});
