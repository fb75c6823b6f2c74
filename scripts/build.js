#!/usr/bin/env node
// `npm run build` (and `prepare`), after `tsc -p .` has emitted dist/: bundles the TAB fast
// path (src/completion/tab.ts) into dist/fast/tab.cjs, one CommonJS file with no imports but
// node's own, which bin/fcast.js requires without starting the ES module loader.
import { build } from 'esbuild';

await build({
  entryPoints: { tab: 'src/completion/tab.ts' },
  outdir: 'dist/fast',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // symbols-cache.ts finds bin/fcast.js from its own URL; dist/fast/ is as deep as dist/completion/.
  define: { 'import.meta.url': '__fcastModuleUrl' },
  banner: { js: "const __fcastModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: 'warning',
});
