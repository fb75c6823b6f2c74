// The standalone executable's main script (scripts/build-sea.js bundles it, with the TAB
// listing inlined): the fast paths as bin's, and for everything else the main bundle read from
// the executable's assets and compiled with the code cache `npm run build` made beside it (same
// Node), by the one loader of the split bundle. Inlined into the main script instead, the whole
// bundle would be loaded by every start, --version too (docs/decisions/2026-11-27-package.md).
import { completeSymbols } from '../completion/tab.js';
import { start } from './index.js';
import type { Entry } from './install.js';
import { type Require, wrappedLoader } from './loader.js';

interface Sea {
  getAsset(key: string): ArrayBuffer;
  getAsset(key: string, encoding: string): string;
}

/** Runs fcast from the executable; `require` and `exit` are its main script's. */
export function launchExecutable(require: Require, exit: (code: number) => never): void {
  const sea = require('node:sea') as Sea;
  const { version } = JSON.parse(sea.getAsset('package.json', 'utf8')) as { version: string };
  start(
    process.argv.slice(2),
    {
      version: () => version,
      builtIn: true,
      tab: () => ({ completeSymbols }),
      help: () => undefined,
      entry: () => assetBundle(sea, require),
    },
    exit,
  );
}

/** The main bundle (dist/fcast.cjs) from the assets, with its code cache. */
function assetBundle(sea: Sea, require: Require): Entry {
  const { dirname, join } = process.getBuiltinModule('node:path');
  const dir = join(dirname(process.execPath), 'dist');
  const cache = Buffer.from(sea.getAsset('dist/fcast.cjs.cache'));
  const load = wrappedLoader({
    read: (file) => sea.getAsset(`dist/${file.slice(dir.length + 1)}`, 'utf8'),
    cachedData: (file) => (file === `${dir}/fcast.cjs` ? cache.subarray(cache.indexOf(10) + 1) : undefined),
    // The bundle asks for builtins, and for dist/undici.cjs (behind a proxy): an asset too.
    require: (id) => (/[\\/]undici\.cjs$/.test(id) ? load(`${dir}/undici.cjs`) : require(id)),
  });
  return load(`${dir}/fcast.cjs`) as Entry;
}
