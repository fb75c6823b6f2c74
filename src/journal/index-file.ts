// The index on disk (index.json beside the month files): loaded and brought up to date with
// what the files hold beyond it, rebuilt from the two newest months when missing, damaged or
// outrun, and saved by a rename into place. The index itself (what it keeps, its format) is
// journal-index.ts; store.ts calls these under the lock.
import { renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEMP_MARK, unlinkQuietly } from '../config/atomic-write.js';
import type * as FileLock from '../config/file-lock.js';
import { redactText } from '../core/sinks.js';
import { monthFiles, readRegularFile, refuseIrregular } from './journal-files.js';
import { JournalIndex } from './journal-index.js';
import { noProblems, readRecords } from './lines.js';
import { monthEnd, monthStart, previousMonth } from './months.js';

const INDEX_FILE = 'index.json';

/** A file's inode, or undefined when it is not there. */
export function inodeOf(path: string): number | undefined {
  try {
    return statSync(path).ino;
  } catch {
    return undefined;
  }
}

/** Which index file is there (each save is a new file, renamed into place), or none. */
export function indexIdentity(dir: string): string | undefined {
  try {
    const { ino, mtimeMs } = statSync(join(dir, INDEX_FILE));
    return `${ino} ${mtimeMs}`;
  } catch {
    return undefined;
  }
}

/** The index as saved, brought up to date with the files; rebuilt when missing, damaged or outrun. */
export function loadIndex(dir: string): JournalIndex {
  const saved = readSavedIndex(dir);
  const files = monthFiles(dir);
  return (saved && catchUp(dir, saved, files)) || rebuild(dir, files);
}

/** The index as saved, not caught up; undefined when there is none or it is not one. */
export function readSavedIndex(dir: string): JournalIndex | undefined {
  const path = join(dir, INDEX_FILE);
  refuseIrregular(path);
  let text: string | undefined;
  try {
    text = readRegularFile(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  return text === undefined ? undefined : JournalIndex.parse(text);
}

/** Takes in what the files hold beyond the index; undefined when a file is shorter than the index says (rewritten, or lost in a crash). */
export function catchUp(dir: string, index: JournalIndex, files: string[]): JournalIndex | undefined {
  for (const file of [...index.files.keys()]) if (!files.includes(file)) index.files.delete(file);
  for (const file of files) {
    const path = join(dir, file);
    const size = statSync(path).size;
    const folded = index.files.get(file);
    if (folded !== undefined && size < folded) return undefined;
    if (folded === undefined && monthEnd(file) <= index.floor) {
      index.files.set(file, size);
      continue;
    }
    const from = folded ?? 0;
    if (size > from)
      index.files.set(
        file,
        readRecords(path, from, (r) => index.take(r), noProblems()),
      );
  }
  return index;
}

/** A new index from the two newest months' files; older ones are below its floor and looked up when asked. */
export function rebuild(dir: string, files: string[]): JournalIndex {
  const index = new JournalIndex();
  const newest = files.at(-1);
  if (newest) index.floor = monthStart(previousMonth(newest));
  return catchUp(dir, index, files) ?? index;
}

/**
 * Writes the index beside itself and renames it into place, so a reader (under the lock) or a
 * crash sees the old index or the new one, never half of one. Not fsynced, and the old one is
 * unlinked first: on ext4 a rename over an existing file flushes the new one to disk
 * (auto_da_alloc), a cost in every recording run (docs/decisions/2026-11-27-journal-internals.md)
 * for a cache that needs no such care. A crash
 * that loses it, or leaves it behind the files, costs a rebuild or a catch-up. `lock` is the
 * file lock's module, which the writer holding the lock has loaded (store.ts).
 */
export function saveIndex(dir: string, index: JournalIndex, lock: Pick<typeof FileLock, 'removeStaleTempFiles'>): void {
  const path = join(dir, INDEX_FILE);
  const temp = `${path}${TEMP_MARK}${process.pid}`;
  // Ours from an earlier save, and those of writers killed between writing and renaming theirs.
  lock.removeStaleTempFiles(path);
  try {
    // Its texts are the files' (store.ts indexes records as written); through the redactor all
    // the same, as every byte of the journal: a key that reached it by another way is masked.
    writeFileSync(temp, redactText(index.serialize()), { mode: 0o600, flag: 'wx' });
    unlinkQuietly(path);
    renameSync(temp, path);
  } catch (err) {
    unlinkQuietly(temp);
    throw err;
  }
}
