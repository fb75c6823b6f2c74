// The writable side of the config file. It holds keys that the service can never show again,
// so every write is:
// - checked first: config.json must not be a symlink (a key must not land in a file that lives
//   elsewhere), and the directory it resolves to must be the user's own and not writable by
//   group or others, as ssh insists for its key files;
// - serialised: read-modify-write under an exclusive lock file (O_EXCL), so concurrent writers
//   never lose one another's changes;
// - atomic: a temp file in the same directory (0600, fsynced), renamed over config.json
//   (atomic-write.ts).
// No library: conf brought ajv and semver, slow to load, and cannot lock (file-lock.ts; the
// figures: docs/decisions/2026-11-22-config-writes-without-conf.md).
import { closeSync, existsSync, openSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { TEMP_MARK, unlinkQuietly, writeAtomically } from './atomic-write.js';
import { acquireLock, removeStaleTempFiles } from './file-lock.js';
import { configDirNames, configLocationProblem as locationProblem } from './config-location.js';
import { createMissingDirs } from './private-dir.js';
import { ConfigError, failureReason } from '../core/errors.js';
import { shellQuote } from '../core/shell-quote.js';
import { configFilePath } from './directories.js';
import { readConfigFile, type ConfigData } from './settings.js';

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

/** Any other failure in the config directory (EACCES, ELOOP...), told as one to write config.json. */
const failureIn = (dir: string) => (err: unknown) => writeFailure(configFilePath(dir), err);

/**
 * Makes sure the config directory exists and may hold keys, and that config.json is no link;
 * returns config.json's path. Throws ConfigError (exit 3) naming what is wrong.
 */
export function prepareConfigDir(dir: string): string {
  createMissingDirs(resolve(dir), configDirNames(failureIn(dir)));
  const problem = configLocationProblem(dir);
  if (problem) throw problem;
  return configFilePath(dir);
}

/** Why keys must not be written in `dir` (none while it does not exist yet): what commands refuse and doctor reports. */
export function configLocationProblem(dir: string): ConfigError | undefined {
  return locationProblem(dir, failureIn(dir));
}

/**
 * Throws (exit 3) unless a file can be made in the config directory: its modes, a read-only
 * or full file system. `register` asks before its request, since a key issued into a
 * directory that refuses it could only be copied from the screen. The probe is named as
 * atomic-write names its temp files, so one a crash leaves behind goes with the next write.
 */
export function checkConfigDirWritable(dir: string): void {
  const path = configFilePath(dir);
  const probe = `${path}${TEMP_MARK}${process.pid}-probe`;
  try {
    closeSync(openSync(probe, 'wx', 0o600));
  } catch (err) {
    throw writeFailure(path, err);
  }
  unlinkQuietly(probe);
}

/** Read-modify-write of config.json under the lock. */
export async function updateConfig(dir: string, change: (data: ConfigData) => void): Promise<void> {
  const path = prepareConfigDir(dir);
  let release: (() => void) | undefined;
  try {
    // Taking the lock is the first write: a directory that refuses it is told as one.
    release = await acquireLock(`${path}.lock`, 'the config file');
    removeStaleTempFiles(path);
    const data = readConfigFile(path);
    change(data);
    writeAtomically(path, `${JSON.stringify(data, null, '\t')}\n`, 0o600);
  } catch (err) {
    throw writeFailure(path, err);
  } finally {
    release?.();
  }
}

function writeFailure(path: string, err: unknown): ConfigError {
  if (err instanceof ConfigError) return err;
  const e = err as NodeJS.ErrnoException;
  const dir = dirname(path);
  return new ConfigError(
    `cannot write config file ${path}: ${failureReason(err)}`,
    e.code === 'EACCES' || e.code === 'EPERM'
      ? {
          // A directory that could not be made (its parent refused) has no mode to change.
          hint: existsSync(dir)
            ? `chmod 700 ${shellQuote(dir)}, or point FCAST_CONFIG_DIR at a private directory`
            : 'point FCAST_CONFIG_DIR at a directory you can write',
        }
      : {},
  );
}
