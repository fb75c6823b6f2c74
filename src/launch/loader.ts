// The loader of the split bundle (dist/split/, scripts/build.js): each file compiled with the
// V8 code cache the build left beside it. The one loader of those files: here, in the build's
// warm-up (which makes the caches over the very text this compiles) and in the standalone
// executable (executable.ts, its assets).
import { readFileSync, statSync } from 'node:fs';
import type { Script } from 'node:vm';
import { compileCached } from './compile-cache.js';

/**
 * Node's CommonJS wrapper (what `Module.wrap` adds), written out: `node:module` would load
 * Node's ES module loader and its source-map support with it. scripts/build.js checks it is Node's.
 */
export const WRAPPER = ['(function (exports, require, module, __filename, __dirname) { ', '\n});'] as const;

/** A require: Node's own (bin's), or one of this loader's. */
export type Require = (id: string) => unknown;

export interface LoaderOptions {
  /** A file's text. */
  read(file: string): string;
  /** Its code cache, or undefined. */
  cachedData?(file: string): Buffer | undefined;
  /** What serves anything but './…': builtins, dist/undici.cjs by its absolute path. */
  require: Require;
  /** Each file's Script, compiled once for all the loaders that share the map (the build's warm-up). */
  scripts?: Map<string, Script>;
}

type Wrapped = (
  this: unknown,
  exports: unknown,
  require: Require,
  module: { exports: unknown },
  filename: string,
  dirname: string,
) => void;

/**
 * A loader of CommonJS files as Node wraps them (WRAPPER), each compiled by vm.Script with
 * its code cache and run once: its require serves './…' from the file's own directory through
 * the loader, and anything else through `require`.
 */
export function wrappedLoader({ read, cachedData = () => undefined, require: other, scripts }: LoaderOptions) {
  const { Script } = process.getBuiltinModule('node:vm');
  const modules = new Map<string, { exports: unknown }>();
  function load(file: string): unknown {
    let module = modules.get(file);
    if (module) return module.exports;
    module = { exports: {} };
    modules.set(file, module);
    const dir = file.slice(0, file.lastIndexOf('/'));
    const script =
      scripts?.get(file) ??
      new Script(WRAPPER[0] + read(file) + WRAPPER[1], { filename: file, cachedData: cachedData(file) });
    scripts?.set(file, script);
    const chunkRequire = (spec: string) => (spec.startsWith('./') ? load(`${dir}/${spec.slice(2)}`) : other(spec));
    (script.runInThisContext() as Wrapped).call(module.exports, module.exports, chunkRequire, module, file, dir);
    return module.exports;
  }
  return load;
}

/**
 * A file of the split bundle and the chunks it asks for, compiled with the caches `npm run
 * build` made (`X.cjs.cache`: compiling is half of what loading code costs). Without a valid
 * cache of the entry (the npm package ships none) the file is required, through Node's own
 * compile cache where there is one; V8 itself refuses a cache of another V8 or other flags.
 */
export function loadSplit(entry: string, require: Require): unknown {
  const entryCache = codeCache(entry);
  if (entryCache === undefined) {
    compileCached();
    return require(entry);
  }
  // The entry's cache, read once.
  const cachedData = (file: string) => (file === entry ? entryCache : codeCache(file));
  return wrappedLoader({ read: (file) => readFileSync(file, 'utf8'), cachedData, require })(entry);
}

/**
 * The code cache `npm run build` made for this file and this Node, without its header line,
 * which names the file's size and time and the Node version it was made for (V8 itself checks
 * only the source's length).
 */
export function codeCache(file: string): Buffer | undefined {
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat) return undefined;
  let cache: Buffer;
  try {
    cache = readFileSync(`${file}.cache`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException)?.code === 'ENOENT') return undefined;
    throw err;
  }
  const header = Buffer.from(codeCacheHeader(stat.size, stat.mtimeMs));
  return cache.subarray(0, header.length).equals(header) ? cache.subarray(header.length) : undefined;
}

/** The first line of a code cache of a file of this size and time, for this Node. */
export const codeCacheHeader = (size: number, mtimeMs: number): string =>
  `fcast code cache ${size} ${mtimeMs} ${process.version}\n`;
