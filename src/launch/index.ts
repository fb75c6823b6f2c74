// What bin/fcast.js runs: scripts/build.js bundles this folder into dist/launch.cjs, CommonJS,
// small, loaded by every run before anything else (the fast paths answer from it alone).
// Nothing of src/ imports it; it imports only what the fast paths say (core/, the version
// document, the environment's secrets) and finds the bundle by its path at run time.
import { answered } from './fast-paths.js';
import type { Entry, Install } from './install.js';
import { loadSplit, type Require } from './loader.js';
import { compileCached } from './compile-cache.js';
import { run } from './run.js';
import { writeInternalError } from './stdio.js';

export { codeCacheHeader, loadSplit, WRAPPER, wrappedLoader } from './loader.js';

/** What bin/fcast.js hands over. */
export interface Shim {
  /** The command line, without node and the script. */
  argv: string[];
  /** The package's dist/. */
  dist: string;
  /** bin's own require. */
  require: Require;
  /** A file of dist/ by its full path, when `npm run build` made it after tsc's last output; else undefined. */
  fresh(file: string): string | undefined;
  /** The one way to end the process. */
  exit(code: number): never;
}

/** Runs fcast from the package or a clone. */
export function launch(shim: Shim): void {
  start(shim.argv, packageInstall(shim), shim.exit);
}

/** A fast path, or main: an error that escapes them ends the run with exit 1 and one line. */
export function start(argv: string[], install: Install, exit: (code: number) => never): void {
  if (answered(argv, install)) return;
  run(argv, install, exit).catch((err: unknown) => {
    writeInternalError(err);
    exit(1);
  });
}

/**
 * The package's parts. A bundle left stale by a bare `tsc -b` (the habit while developing) is
 * passed over for tsc's own modules; the npm package ships the bundles without tsc's output or
 * its build info, so an installed fcast always runs the bundle.
 */
function packageInstall({ dist, require, fresh }: Shim): Install {
  return {
    version: () => (require(`${dist}/../package.json`) as { version: string }).version,
    builtIn: false,
    tab: () => {
      const tab = fresh('tab.cjs');
      return tab === undefined ? undefined : (require(tab) as ReturnType<Install['tab']>);
    },
    help: () => {
      const help = fresh('split/help.txt');
      return help === undefined ? undefined : process.getBuiltinModule('node:fs').readFileSync(help);
    },
    entry: () => {
      const bundle = fresh('split/fcast.cjs');
      if (bundle !== undefined) return loadSplit(bundle, require) as Entry;
      compileCached();
      const { pathToFileURL } = process.getBuiltinModule('node:url');
      return import(pathToFileURL(`${dist}/entry.js`).href) as Promise<Entry>;
    },
  };
}
