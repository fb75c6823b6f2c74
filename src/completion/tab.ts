// `fcast __complete-symbols` as the launcher runs it on every TAB (src/launch/fast-paths.ts): scripts/build.js bundles
// this file into dist/tab.cjs, CommonJS with no dependencies, so a keystroke costs little
// more than starting node (no ES module loader, no commander, no command tree). The listing
// itself is the one `fcast __complete-symbols` runs through main (symbols-cache.ts).
import { configDir } from '../config/directories.js';
import { resolveSettings } from '../config/settings.js';
import { homeDirectory } from '../core/home-dir.js';
import { listSymbols } from './symbols-cache.js';

/** `write` is the launcher's (writeOut): a plain write to fd 1, without building process.stdout. */
export function completeSymbols(write: (text: string) => void): void {
  const ctx = { env: process.env, platform: process.platform, homedir: homeDirectory(process.env, process.platform) };
  listSymbols({
    configDir: configDir(ctx),
    env: ctx.env,
    nowMs: Date.now(),
    settings: () => resolveSettings(ctx, {}),
    write,
  });
}
