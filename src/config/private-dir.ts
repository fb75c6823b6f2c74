// A directory of the user's own, as ssh insists for its key files: created 0700 level by level
// when missing, and refused when it resolves to one owned by another user or writable by group
// or others. The config directory (keys) and the journal's data directory follow the same rules.
import { lstatSync, mkdirSync, readdirSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ConfigError } from '../core/errors.js';
import { shellQuote } from '../core/shell-quote.js';

/** How the messages name the directory and what the user can do about it. */
export interface PrivateDirNames {
  /** `config directory`, `journal directory`. */
  what: string;
  /** The variable that moves it: `FCAST_CONFIG_DIR`. */
  envVar: string;
  /** What it must not be used for when unsafe: `keys`, `the journal`. */
  holds: string;
  /** Any other failure (EACCES, EROFS...), worded by the caller. */
  failure(err: unknown): ConfigError;
  /**
   * The names fcast itself puts in it (the data directory: `journal`). A directory holding
   * anything else was not made for fcast, and is not chmod-ed on fcast's advice.
   */
  owns?: (name: string) => boolean;
}

const SAME_USER_ONLY = process.platform !== 'win32' && typeof process.getuid === 'function';

/**
 * Creates the missing tail of `dir`, each level with mode 0700, one mkdir at a time: a
 * recursive mkdir loops for ever under /proc. Directories that exist are left as they are.
 */
export function createMissingDirs(dir: string, names: PrivateDirNames): void {
  const missing: string[] = [];
  for (let at = dir; ; at = dirname(at)) {
    try {
      const info = statSync(at);
      if (!info.isDirectory()) {
        throw new ConfigError(`cannot create the ${names.what} ${dir}: ${at} is not a directory (ENOTDIR)`, {
          hint: `point ${names.envVar} at a directory`,
        });
      }
      break;
    } catch (err) {
      if (err instanceof ConfigError) throw err;
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' || dirname(at) === at) throw names.failure(err);
      missing.unshift(at);
    }
  }
  for (const level of missing) {
    try {
      mkdirSync(level, { mode: 0o700 });
    } catch (err) {
      // Another fcast made it in the meantime: then it is checked like any existing directory.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw names.failure(err);
    }
  }
}

/** Why `dir` must not hold what it is for (none while it does not exist yet). */
export function privateDirProblem(dir: string, names: PrivateDirNames): ConfigError | undefined {
  const absolute = resolve(dir);
  let real: string;
  try {
    real = realpathSync(absolute);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : names.failure(err);
  }
  const info = statSync(real);
  if (!info.isDirectory())
    return new ConfigError(`the ${names.what} ${dir} is not a directory`, {
      hint: `point ${names.envVar} at a directory`,
    });
  const shownDir = real === absolute ? dir : `${dir} (which resolves to ${real})`;
  if (SAME_USER_ONLY) {
    if (info.uid !== process.getuid!()) {
      return new ConfigError(`the ${names.what} ${shownDir} belongs to another user (uid ${info.uid}); not used`, {
        hint: `point ${names.envVar} at a directory of your own`,
      });
    }
    if ((info.mode & 0o022) !== 0) {
      const mode = (info.mode & 0o7777).toString(8).padStart(4, '0');
      return new ConfigError(
        `the ${names.what} ${shownDir} is writable by ${info.mode & 0o002 ? 'others' : 'its group'} (mode ${mode}); not used for ${names.holds}`,
        {
          hint: madeForFcast(real, info.mode, names)
            ? `chmod 700 ${shellQuote(real)}, or point ${names.envVar} at a private directory`
            : `point ${names.envVar} at a private directory of its own (fcast creates it, mode 0700); ${shellQuote(real)} is shared, and a chmod would change it for everything else it holds`,
        },
      );
    }
  }
  return undefined;
}

/**
 * Whether a directory looks made for fcast, so that chmod-ing it is fcast's business: not a
 * shared one (the sticky bit, as /tmp has) and holding nothing but what fcast puts there.
 */
function madeForFcast(dir: string, mode: number, names: PrivateDirNames): boolean {
  // The config directory's advice is as it was: only a directory that says what it owns is judged.
  if (!names.owns) return true;
  if ((mode & 0o1000) !== 0) return false;
  try {
    return readdirSync(dir).every(names.owns);
  } catch {
    return false;
  }
}

/** The target of `path` when it is a symbolic link; undefined when it is not one, or does not exist. */
export function symlinkTarget(path: string): string | undefined {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : undefined;
  } catch {
    return undefined;
  }
}
