#!/usr/bin/env node
// `npm run build:sea`: fcast as one executable, Node's single executable application (SEA):
// this very `node` binary with fcast injected, which runs where no Node is installed.
//   1. esbuild bundles bin/fcast.js with the bundles `npm run build` made (dist/fcast.cjs,
//      dist/tab.cjs, dist/undici.cjs) into one CommonJS file: a SEA's main script can require
//      builtins only. The package's files fcast reads at run time (package.json, the completion
//      templates) become the executable's assets (src/core/package-files.ts reads them there).
//   2. `node --experimental-sea-config` writes the blob, with V8's code cache of the script
//      (useCodeCache: the script is compiled at build time, not at each start) and the
//      "experimental feature" warning off (disableExperimentalSEAWarning).
//   3. postject (the tool Node's documentation names; a devDependency) injects the blob into a
//      copy of `node`; then a checksum file beside it, for `sha256sum -c`.
// Written to dist/sea/: fcast and fcast.sha256. Linux here; docs/reference.md, "Standalone
// executable", has the steps and the signing for macOS and Windows.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { build } from 'esbuild';

const OUT = 'dist/sea';
const NAME = process.platform === 'win32' ? 'fcast.exe' : 'fcast';
/** The files the package ships that fcast reads at run time, by their path from the package root. */
const ASSETS = [
  'package.json',
  'src/completion/template.bash',
  'src/completion/template.zsh',
  'src/completion/template.fish',
];
/** Node's documented fuse: postject flips it so that the binary looks for its blob. */
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

const started = Date.now();
rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });

/** A replacement in a file's text that must happen: a changed bin/fcast.js fails the build, not the executable. */
function replaced(text, file, from, to) {
  if (!text.includes(from)) throw new Error(`build-sea: ${file} no longer holds: ${from}`);
  return text.replace(from, to);
}

// bin/fcast.js, with its bundles required by path at build time: no stale-bundle check, no
// code cache of its own (the SEA has V8's), dist/undici.cjs inlined where the bundle finds it
// from its directory at run time.
const forExecutable = {
  name: 'for-executable',
  setup(b) {
    b.onLoad({ filter: /[\\/]bin[\\/]fcast\.js$/ }, (args) => {
      let text = readFileSync(args.path, 'utf8').replace(/^#!.*\n/, '');
      text = replaced(
        text,
        'bin/fcast.js',
        "const tab = freshBundle('tab.cjs');\n  if (tab === undefined) return false;\n  require(tab).completeSymbols(writeOut);",
        "require('../dist/tab.cjs').completeSymbols(writeOut);",
      );
      text = replaced(
        text,
        'bin/fcast.js',
        "const bundle = freshBundle('fcast.cjs');\n  if (!bundle) compileCached();",
        '',
      );
      text = replaced(
        text,
        'bin/fcast.js',
        "bundle ? loadBundle(bundle) : await import('../dist/entry.js')",
        "require('../dist/fcast.cjs')",
      );
      return { contents: text, loader: 'js' };
    });
    b.onLoad({ filter: /[\\/]dist[\\/]fcast\.cjs$/ }, (args) => ({
      contents: replaced(
        readFileSync(args.path, 'utf8'),
        'dist/fcast.cjs',
        'require(require("node:path").join(__dirname, "undici.cjs"))',
        "require('./undici.cjs')",
      ),
      loader: 'js',
    }));
  },
};

const main = join(OUT, 'main.cjs');
await build({
  entryPoints: ['bin/fcast.js'],
  outfile: main,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: `node${process.versions.node.split('.')[0]}`,
  plugins: [forExecutable],
  logLevel: 'warning',
});

const config = join(OUT, 'sea-config.json');
const blob = join(OUT, 'sea-prep.blob');
writeFileSync(
  config,
  JSON.stringify({
    main,
    output: blob,
    disableExperimentalSEAWarning: true,
    useCodeCache: true,
    assets: Object.fromEntries(ASSETS.map((path) => [path, path])),
  }),
);
execFileSync(process.execPath, ['--experimental-sea-config', config], { stdio: ['ignore', 'ignore', 'inherit'] });

const exe = join(OUT, NAME);
copyFileSync(process.execPath, exe);
chmodSync(exe, 0o755);
if (process.platform === 'darwin') execFileSync('codesign', ['--remove-signature', exe]);
const { inject } = createRequire(import.meta.url)('postject');
await inject(exe, 'NODE_SEA_BLOB', readFileSync(blob), {
  sentinelFuse: FUSE,
  ...(process.platform === 'darwin' && { machoSegmentName: 'NODE_SEA' }),
});
if (process.platform === 'darwin') execFileSync('codesign', ['--sign', '-', exe]);
for (const file of [main, config, blob]) rmSync(file);

const sum = createHash('sha256').update(readFileSync(exe)).digest('hex');
writeFileSync(join(OUT, `${NAME}.sha256`), `${sum}  ${NAME}\n`);
process.stdout.write(
  `built ${exe} (Node ${process.versions.node}, ${process.platform}-${process.arch}) in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
);
