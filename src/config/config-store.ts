// The writable side of the config file. It holds keys that the service can never show again,
// so every write is:
// - checked first: config.json must not be a symlink (a key must not land in a file that lives
//   elsewhere), and the directory it resolves to must be the user's own and not writable by
//   group or others, as ssh insists for its key files;
// - serialised: read-modify-write under an exclusive lock file (O_EXCL), so concurrent writers
//   never lose one another's changes;
// - atomic: a temp file in the same directory (0600, fsynced), renamed over config.json
//   (atomic-write.ts).
// No library: conf brought ajv and semver (~120 ms to load) and cannot lock; proper-lockfile
// keeps a lock alive with timers and judges staleness by age only, where a lock held for a few
// milliseconds by a process that is alive or dead is simpler to judge by its pid.
import {
  closeSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  statSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { TEMP_MARK, unlinkQuietly, writeAtomically } from './atomic-write.js';
import { ConfigError } from '../core/errors.js';
import { configFilePath, readConfigFile, type ConfigData } from './settings.js';

export interface ConfigStore {
  readonly path: string;
  /** The value as the file holds it now (re-read on every call). */
  get(key: string): unknown;
  /**
   * Sets `key`. With `ifStill`, only if the file still holds that value (undefined: none) when
   * the lock is taken: a key checked, or confirmed for replacing, before the lock must not be
   * replaced by a write that another process made meanwhile. Else ConfigError (exit 3).
   */
  set(key: string, value: unknown, guard?: { ifStill: unknown }): Promise<void>;
  delete(key: string): Promise<void>;
}

/** Checks (and creates, 0700) the directory before anything else happens: `register` calls this before its request. */
export async function openConfigStore(dir: string): Promise<ConfigStore> {
  const path = prepareConfigDir(dir);
  // A corrupt file is reported with its path and never touched.
  readConfigFile(path);
  return {
    path,
    get: (key) => readConfigFile(path)[key],
    set: (key, value, guard) =>
      updateConfig(dir, (data) => {
        if (guard && data[key] !== guard.ifStill) {
          throw new ConfigError(`another process changed ${key} in ${path} meanwhile; nothing was replaced`, {
            hint: 'run the command again to see what is stored now (--force replaces it)',
          });
        }
        data[key] = value;
      }),
    delete: (key) =>
      updateConfig(dir, (data) => {
        delete data[key];
      }),
  };
}

const SAME_USER_ONLY = process.platform !== 'win32' && typeof process.getuid === 'function';

/**
 * Makes sure the config directory exists and may hold keys, and that config.json is no link;
 * returns config.json's path. Throws ConfigError (exit 3) naming what is wrong.
 */
export function prepareConfigDir(dir: string): string {
  createMissing(resolve(dir));
  const problem = configLocationProblem(dir);
  if (problem) throw problem;
  return configFilePath(dir);
}

/** Why keys must not be written in `dir` (none while it does not exist yet): what commands refuse and doctor reports. */
export function configLocationProblem(dir: string): ConfigError | undefined {
  const absolute = resolve(dir);
  let real: string;
  try {
    real = realpathSync(absolute);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : writeFailure(configFilePath(dir), err);
  }
  const info = statSync(real);
  if (!info.isDirectory()) return new ConfigError(`the config directory ${dir} is not a directory`);
  const shownDir = real === absolute ? dir : `${dir} (which resolves to ${real})`;
  if (SAME_USER_ONLY) {
    if (info.uid !== process.getuid!()) {
      return new ConfigError(`the config directory ${shownDir} belongs to another user (uid ${info.uid}); not used`, {
        hint: 'point FCAST_CONFIG_DIR at a directory of your own',
      });
    }
    if ((info.mode & 0o022) !== 0) {
      const mode = (info.mode & 0o7777).toString(8).padStart(4, '0');
      return new ConfigError(
        `the config directory ${shownDir} is writable by ${info.mode & 0o002 ? 'others' : 'its group'} (mode ${mode}); not used for keys`,
        { hint: `chmod 700 '${real}', or point FCAST_CONFIG_DIR at a private directory` },
      );
    }
  }
  return linkProblem(configFilePath(dir));
}

/** A config.json that is a symlink would carry the key into the file it points to. */
function linkProblem(path: string): ConfigError | undefined {
  let target: string;
  try {
    if (!lstatSync(path).isSymbolicLink()) return undefined;
    target = readlinkSync(path);
  } catch {
    return undefined; // no file yet
  }
  return new ConfigError(`${path} is a symbolic link (to ${target}); fcast does not write keys through links`, {
    hint: 'replace the link with a file of its own, or point FCAST_CONFIG_DIR elsewhere',
  });
}

/**
 * Creates the missing tail of `dir`, each level with mode 0700, one mkdir at a time: a
 * recursive mkdir loops for ever under /proc. Directories that exist are left as they are.
 */
function createMissing(dir: string): void {
  const missing: string[] = [];
  for (let at = dir; ; at = dirname(at)) {
    try {
      const info = statSync(at);
      if (!info.isDirectory()) {
        throw new ConfigError(`cannot create the config directory ${dir}: ${at} is not a directory (ENOTDIR)`, {
          hint: 'point FCAST_CONFIG_DIR at a directory',
        });
      }
      break;
    } catch (err) {
      if (err instanceof ConfigError) throw err;
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' || dirname(at) === at) throw writeFailure(configFilePath(dir), err);
      missing.unshift(at);
    }
  }
  for (const level of missing) {
    try {
      mkdirSync(level, { mode: 0o700 });
    } catch (err) {
      // Another fcast made it in the meantime: then it is checked like any existing directory.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw writeFailure(configFilePath(dir), err);
    }
  }
}

/** Read-modify-write of config.json under the lock. */
export async function updateConfig(dir: string, change: (data: ConfigData) => void): Promise<void> {
  const path = prepareConfigDir(dir);
  const release = await acquireLock(`${path}.lock`);
  try {
    removeStaleTempFiles(path);
    const data = readConfigFile(path);
    change(data);
    writeAtomically(path, `${JSON.stringify(data, null, '\t')}\n`, 0o600);
  } catch (err) {
    throw writeFailure(path, err);
  } finally {
    release();
  }
}

/**
 * Temp files left by a writer killed before its rename. Called under the lock, so none of
 * them is being written. The key one held is not lost with it: `register` prints a key
 * before saving it, and `auth login` was given it.
 */
function removeStaleTempFiles(path: string): void {
  const prefix = `${basename(path)}${TEMP_MARK}`;
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    // Only a dead writer's: should a broken stale lock ever leave two holders, the other's
    // temp file is its write in progress (atomic-write.ts names it by pid).
    const pid = Number(name.slice(prefix.length).split('-')[0]);
    if (pid === process.pid || !isAlive(pid)) unlinkQuietly(join(dirname(path), name));
  }
}

// --- the lock --------------------------------------------------------------------------------

/** Longer than any write takes: a writer holds the lock for a few milliseconds. */
const LOCK_WAIT_MS = 10_000;
/** A lock file whose owner cannot be told (empty, another host) is stale after this. */
const UNKNOWN_OWNER_STALE_MS = 30_000;

interface LockOwner {
  pid: number;
  host: string;
  token: string;
}

let tokens = 0;

async function acquireLock(lockPath: string): Promise<() => void> {
  const me: LockOwner = { pid: process.pid, host: hostname(), token: `${process.pid}-${Date.now()}-${++tokens}` };
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    if (tryCreateLock(lockPath, me)) return () => releaseLock(lockPath, me);
    if (breakStaleLock(lockPath)) continue;
    if (Date.now() - started > LOCK_WAIT_MS) {
      const owner = readOwner(lockPath);
      throw new ConfigError(
        `the config file is locked by another fcast${owner ? ` (pid ${owner.pid})` : ''} for more than ${LOCK_WAIT_MS / 1000}s`,
        { hint: `if no fcast is running, remove ${lockPath}` },
      );
    }
    // A few ms at first, then up to 50 ms, with jitter so waiting writers spread out.
    const ms = Math.min(50, 2 + attempt * 2) * (0.5 + Math.random());
    await new Promise((done) => setTimeout(done, ms));
  }
}

function tryCreateLock(lockPath: string, me: LockOwner): boolean {
  let fd: number;
  try {
    fd = openSync(lockPath, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    writeSync(fd, JSON.stringify(me));
  } finally {
    closeSync(fd);
  }
  return true;
}

function readOwner(lockPath: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(readFileSync(lockPath, 'utf8')) as LockOwner;
    return typeof owner.pid === 'number' && typeof owner.token === 'string' ? owner : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function isStale(lockPath: string, owner: LockOwner | undefined): boolean {
  if (owner && owner.host === hostname()) return !isAlive(owner.pid);
  try {
    return Date.now() - statSync(lockPath).mtimeMs > UNKNOWN_OWNER_STALE_MS;
  } catch {
    return false; // gone already: try again
  }
}

/**
 * Removes a lock whose owner died. Several waiters may find the same stale lock: each moves it
 * aside under a name of its own (only one rename can take that file), and one that finds it
 * took a live lock by mistake (someone broke the stale one and locked anew in between) puts it
 * back with link(), which never overwrites.
 */
function breakStaleLock(lockPath: string): boolean {
  const owner = readOwner(lockPath);
  if (!isStale(lockPath, owner)) return false;
  const aside = `${lockPath}.stale-${process.pid}-${++tokens}`;
  try {
    renameSync(lockPath, aside);
  } catch {
    return true; // someone else moved it: try to lock again
  }
  const taken = readOwner(aside);
  if (taken && owner && taken.token !== owner.token && !isStale(aside, taken)) {
    try {
      linkSync(aside, lockPath);
    } catch {
      // The lock was taken again meanwhile; its new owner goes on.
    }
  }
  unlinkQuietly(aside);
  return true;
}

function releaseLock(lockPath: string, me: LockOwner): void {
  // Only our own lock: if it was broken as stale (we were stopped for a long time), it is not ours to remove.
  if (readOwner(lockPath)?.token === me.token) unlinkQuietly(lockPath);
}

function writeFailure(path: string, err: unknown): ConfigError {
  if (err instanceof ConfigError) return err;
  const e = err as NodeJS.ErrnoException;
  return new ConfigError(
    `cannot write config file ${path}: ${e.code ? `${e.code} ` : ''}${e.message.replace(/^\w+: /, '')}`,
  );
}
