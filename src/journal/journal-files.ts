// The journal's directory and its files: where it lives (<data dir>/journal/, by the config
// directory's rules: created 0700, refused when another user's or writable by group or others),
// the month files, the refusal of anything there that is not a regular file (a FIFO, a device, a
// symbolic link: never followed, O_NOFOLLOW), and the one way a line is written, appendLines
// (one write() of whole lines with O_APPEND, cut back on failure). store.ts runs these under
// the lock; readers (report, list, export) use them without it, and without loading the lock.
import {
  closeSync,
  constants,
  fstatSync,
  ftruncateSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  statSync,
  writeSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { redactText } from '../core/sinks.js';
import { dataDirProblem } from '../config/data-dir.js';
import { createMissingDirs, privateDirProblem, symlinkTarget, type PrivateDirNames } from '../config/private-dir.js';
import { ConfigError } from '../core/errors.js';
import { MONTH_FILE } from './months.js';

export function journalDirOf(dataDir: string): string {
  return join(dataDir, 'journal');
}

/** The error of a journal command: exit 3, like a config file that cannot be read or written. */
export function journalError(message: string, opts: { hint?: string; cause?: unknown } = {}): ConfigError {
  return new ConfigError(`journal: ${message}`, opts);
}

/** A file system refusal as the journal's error (exit 3), naming the path and what might help. */
export function failure(dir: string, err: unknown, doing = 'cannot write'): ConfigError {
  if (err instanceof ConfigError) return err;
  const e = err as NodeJS.ErrnoException;
  const why = `${e.code ? `${e.code} ` : ''}${e.message.replace(/^\w+: /, '')}`;
  const hint =
    e.code === 'ENOSPC'
      ? 'free some space; nothing was half-written'
      : e.code === 'EROFS' || e.code === 'EACCES' || e.code === 'EPERM'
        ? 'point FCAST_DATA_DIR at a directory you can write'
        : undefined;
  return journalError(`${doing} ${dir}: ${why}`, { hint, cause: err });
}

const dirNames = (dir: string): PrivateDirNames => ({
  what: 'journal directory',
  envVar: 'FCAST_DATA_DIR',
  holds: 'the journal',
  failure: (err) => failure(dir, err),
});

/**
 * The journal's directory, checked (and created, 0700, when `create`); undefined when it does
 * not exist and was not to be created (an empty journal).
 */
export function openJournalDir(dataDir: string, opts: { create: boolean }): string | undefined {
  const dir = resolve(journalDirOf(dataDir));
  if (opts.create) createMissingDirs(dir, dirNames(dir));
  // The data directory first, by the same rules: a journal of its own inside a directory
  // others may write is no safer than the directory (they can rename it away and plant another).
  const problem =
    dataDirProblem(dataDir, (err) => failure(resolve(dataDir), err, 'cannot read')) ??
    privateDirProblem(dir, dirNames(dir));
  if (problem) throw journalError(problem.message, { hint: problem.hint });
  try {
    statSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw failure(dir, err, 'cannot read');
  }
  return dir;
}

/** The month files, oldest first; a symbolic link among them is refused (never followed). */
export function monthFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw failure(dir, err, 'cannot read');
  }
  const files = names.filter((n) => MONTH_FILE.test(n)).sort();
  for (const name of files) refuseIrregular(join(dir, name));
  return files;
}

/**
 * A journal file (month file, index, lock) that is there but not a regular file is refused,
 * exit 3 naming it, before anything opens it: opening a FIFO waits for a writer (every command
 * hung in open()), a directory fails with EISDIR, a device is no journal, and a symbolic link
 * is never followed. Openers add O_NONBLOCK and check again (a file swapped in between).
 */
export function refuseIrregular(path: string): void {
  let stat: ReturnType<typeof lstatSync> | undefined;
  try {
    stat = lstatSync(path, { throwIfNoEntry: false });
  } catch (err) {
    throw failure(path, err, 'cannot read');
  }
  if (stat === undefined || stat.isFile()) return;
  if (stat.isSymbolicLink())
    throw journalError(
      `${path} is a symbolic link (to ${symlinkTarget(path) ?? '?'}); fcast does not read or write the journal through links`,
      { hint: 'replace the link with the file itself' },
    );
  const what = stat.isDirectory()
    ? 'a directory'
    : stat.isFIFO()
      ? 'a FIFO (named pipe)'
      : stat.isSocket()
        ? 'a socket'
        : stat.isCharacterDevice() || stat.isBlockDevice()
          ? 'a device'
          : 'not a file';
  throw journalError(`${path} is ${what}, not a regular file; fcast reads and writes only regular files there`, {
    hint: 'move it out of the journal directory',
  });
}

// --- appending ---------------------------------------------------------------------------------

/**
 * Appends `text` (whole lines) to `path` with one write, creating it 0600 without following a
 * link. A torn last line (a writer killed mid-write) is ended with a newline first, so it stays
 * one damaged line and the new ones start clean. On any failure the file is cut back to its
 * old length. Returns the file's new size; `masked` is called when the redactor changed the text
 * (a key in a record), before anything is written: the store then indexes what was written.
 */
export function appendLines(path: string, text: string, masked?: () => void): number {
  const fd = openSync(
    path,
    constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK,
    0o600,
  );
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw journalError(`${path} is not a regular file`);
    const safe = redactText(text);
    if (safe !== text) masked?.();
    let data = Buffer.from(safe, 'utf8');
    if (stat.size > 0) {
      const last = Buffer.alloc(1);
      readSync(fd, last, 0, 1, stat.size - 1);
      if (last[0] !== 10) data = Buffer.concat([Buffer.from('\n'), data]);
    }
    try {
      const written = writeSync(fd, data);
      if (written !== data.length) throw Object.assign(new Error('short write (disk full?)'), { code: 'ENOSPC' });
    } catch (err) {
      try {
        ftruncateSync(fd, stat.size);
      } catch {
        // Nothing more can be done; readers skip a torn line.
      }
      throw err;
    }
    return stat.size + data.length;
  } finally {
    closeSync(fd);
  }
}

/** A regular file's text, opened without following a link or waiting on a FIFO. */
export function readRegularFile(path: string): string {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    if (!fstatSync(fd).isFile()) throw journalError(`${path} is not a regular file`);
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/** A file's length, or 0 when it is not there. */
export function statSizeOr0(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
