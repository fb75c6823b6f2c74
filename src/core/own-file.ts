// Reading a file fcast keeps for itself (the config, the journal's index, the caches, the
// emulator's state) without trusting what lies at its path. A symbolic link is not followed, a
// FIFO is not waited on (O_NONBLOCK: an open of a FIFO with no writer returns at once), a device
// or directory is refused before anything is read (/dev/zero would grow memory for ever), and a
// regular file larger than the cap is refused rather than read into memory.
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, type Stats } from 'node:fs';

/** Why a file at a path fcast reads was not read. */
export class IrregularFileError extends Error {
  override readonly name = 'IrregularFileError';
  constructor(
    readonly path: string,
    readonly why: string,
  ) {
    super(`${path} ${why}`);
  }
}

/** What lies at a path, in the words a refusal uses. */
export function kindOf(info: Stats): string {
  if (info.isSymbolicLink()) return 'a symbolic link';
  if (info.isFIFO()) return 'a FIFO';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  if (info.isDirectory()) return 'a directory';
  if (info.isSocket()) return 'a socket';
  return 'not a regular file';
}

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;

/**
 * The text of the regular file at `path`, at most `maxBytes` long; undefined when nothing is
 * there. Anything else at the path, or a file larger than the cap, is an IrregularFileError;
 * other failures (EACCES...) are thrown as they are.
 */
export function readOwnFile(path: string, maxBytes: number): string | undefined {
  let before: Stats;
  try {
    before = lstatSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw err;
  }
  if (!before.isFile()) throw new IrregularFileError(path, `is ${kindOf(before)}; only a regular file is read`);
  if (before.size > maxBytes) throw tooLarge(path, maxBytes);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | NOFOLLOW | NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    // Swapped for a link between the lstat and the open.
    if (code === 'ELOOP' || code === 'EMLINK') throw new IrregularFileError(path, 'is a symbolic link; not followed');
    throw err;
  }
  try {
    const info = fstatSync(fd);
    // Swapped for something else between the lstat and the open: refused, not read. A regular
    // file renamed over it meanwhile (another fcast's atomic write) is read: it is as good.
    if (!info.isFile()) throw new IrregularFileError(path, `is ${kindOf(info)}; not read`);
    // One byte more than the cap tells a file that grew since the stat.
    const buffer = Buffer.allocUnsafe(Math.min(maxBytes, info.size) + 1);
    let length = 0;
    for (;;) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
      if (length > maxBytes) throw tooLarge(path, maxBytes);
      if (length === buffer.length) break;
    }
    return buffer.toString('utf8', 0, length);
  } finally {
    closeSync(fd);
  }
}

const tooLarge = (path: string, maxBytes: number) =>
  new IrregularFileError(path, `is larger than ${Math.round(maxBytes / 1024)} KiB; not read`);
