// Node's own compile cache (22.1+; none on Node 20), for a bundle without the build's code
// cache, as the npm package is: written by the first run, of the code compiled while loading.
// Kept in the user's cache directory, never in Node's default of os.tmpdir(): a cache another
// user can create or write is code another user chooses (docs/decisions/2026-12-02-own-files.md).
import { lstatSync, mkdirSync, statSync } from 'node:fs';
import type { Env } from '../core/context.js';

/** Turns Node's compile cache on for what loads next; NODE_COMPILE_CACHE and NODE_DISABLE_COMPILE_CACHE=1 are Node's, and win. */
export function compileCached(env: Env = process.env): void {
  const { enableCompileCache } = process.getBuiltinModule('node:module') as {
    enableCompileCache?: (dir: string) => unknown;
  };
  if (!enableCompileCache || env.NODE_DISABLE_COMPILE_CACHE || env.NODE_COMPILE_CACHE) return;
  const dir = ownCacheDir(env);
  if (dir) enableCompileCache(dir);
}

/**
 * <user cache dir>/fcast/compile-cache ($XDG_CACHE_HOME, else ~/.cache; ~/Library/Caches on
 * macOS; %LOCALAPPDATA% on Windows), created 0700; undefined (no cache) when it, or the fcast
 * directory above it, is not a directory of this user's that no one else can write, or when
 * the cache directory itself may be replaced by others (writable by them without the sticky bit).
 */
export function ownCacheDir(env: Env = process.env, platform: NodeJS.Platform = process.platform): string | undefined {
  const home = env.HOME || process.getBuiltinModule('node:os').homedir();
  const xdg = env.XDG_CACHE_HOME?.startsWith('/') ? env.XDG_CACHE_HOME : undefined;
  const base =
    platform === 'win32'
      ? env.LOCALAPPDATA
      : platform === 'darwin'
        ? `${home}/Library/Caches`
        : (xdg ?? `${home}/.cache`);
  if (!base) return undefined;
  const ours = `${base}/fcast`;
  const dir = `${ours}/compile-cache`;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (platform === 'win32') return dir;
    const uid = process.getuid?.();
    const above = statSync(base);
    if ((above.mode & 0o002) !== 0 && (above.mode & 0o1000) === 0) return undefined;
    for (const level of [ours, dir]) {
      const info = lstatSync(level);
      if (!info.isDirectory() || info.uid !== uid || (info.mode & 0o022) !== 0) return undefined;
    }
    return dir;
  } catch {
    return undefined;
  }
}
