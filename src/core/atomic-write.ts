// One way to replace a file so that a reader, or a crash, sees the old file or the new one and
// never half of either: a temp file beside it (created exclusively, so a planted file or
// symlink of that name is refused, not followed), written and fsynced, renamed over the
// target, then the directory fsynced. The config file (settings, not output) writes this way
// directly; a file written for people (`--save`) through sinks.ts, which redacts it first.
import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** What a temp file's name holds after the target's own name: config-store finds leftovers by it. */
export const TEMP_MARK = '.tmp-';

/** Replaces `path` with `data`: text, or bytes written as they are (journal prune keeps lines byte for byte). */
export function writeAtomically(path: string, data: string | Uint8Array, mode: number): void {
  const temp = `${path}${TEMP_MARK}${process.pid}-${Date.now().toString(36)}`;
  const fd = openSync(temp, 'wx', mode);
  try {
    try {
      // writeSync may write less than it is given (a large file on some file systems): loop.
      const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
      for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (err) {
    unlinkQuietly(temp);
    throw err;
  }
  syncDir(dirname(path));
}

/** After a rename, the directory entry itself must reach the disk for the file to survive a crash. */
function syncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some filesystems (and Windows) cannot fsync a directory; the rename is still atomic.
  }
}

export function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
