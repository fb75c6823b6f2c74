#!/usr/bin/env node
// fcast's command, a shim: it finds the launcher (src/launch/: the fast paths, the stdio
// writer, the loader of the bundle), hands it the command line, bin's require and the one
// way to end the process, and holds nothing else. `npm run build` bundles the launcher into
// dist/launch.cjs, CommonJS, so that no run starts Node's ES module loader; after a bare
// `tsc -b` (the habit while developing) the bundles are stale, and tsc's modules run instead.
'use strict';
const { statSync } = require('node:fs');
const { join } = require('node:path');

const dist = join(__dirname, '..', 'dist');
let compiled;

/** A file of dist/ by its full path, when `npm run build` made it after tsc's last output. */
function fresh(file) {
  const built = statSync(join(dist, file), { throwIfNoEntry: false });
  compiled ??= statSync(join(dist, 'tsconfig.tsbuildinfo'), { throwIfNoEntry: false }) ?? false;
  return built && (!compiled || built.mtimeMs >= compiled.mtimeMs) ? join(dist, file) : undefined;
}

/** The only place that ends the process. */
function exit(code) {
  process.exit(code);
}

const shim = { argv: process.argv.slice(2), dist, require, fresh, exit };
const launcher = fresh('launch.cjs');
if (launcher) require(launcher).launch(shim);
else
  import('../dist/launch/index.js').then(
    (tsc) => tsc.launch(shim),
    (err) => {
      process.stderr.write(`fcast: internal error: ${err?.message ?? err}\n`);
      exit(1);
    },
  );
