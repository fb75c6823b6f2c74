// `journal prune --before DATE`: the records dated before DATE (a forecast and its settlement
// by the forecast's ts, a price by its t) go; the rest stays byte for byte. Whole months before
// DATE are removed as files; the month holding DATE is rewritten atomically (temp file, fsync,
// rename). The one operation that rewrites the journal, and only when asked to, a file at a time
// under the lock (read and decided without it); lines that cannot be dated are kept: a damaged
// line, and a torn last line (a write cut short by a crash), which stays last and torn, as
// readers and the next writer expect it. The index then learns of each file rewritten (store.ts,
// rewriteJournal).
import { closeSync, openSync, readdirSync, readSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { TEMP_MARK, writeAtomically } from '../config/atomic-write.js';
import { removeStaleTempFiles } from '../config/file-lock.js';
import { ConfigError } from '../core/errors.js';
import { cutShort, forEachLine, MAX_LINE, parseLine } from './lines.js';
import { MONTH_FILE, monthEnd, monthStart } from './months.js';
import { monthFiles, openJournalDir } from './journal-files.js';
import { rewriteJournal } from './store.js';

export interface PruneSummary {
  before: number;
  removed: number;
  kept: number;
  files_removed: string[];
  files_rewritten: string[];
}

/** What one month file before DATE becomes: its kept lines (bytes), read at (inode, size). */
interface Plan {
  ino: number;
  size: number;
  kept: Buffer[];
  removed: number;
}

/** Reads a month file and decides what of it stays: what is dated before `before` goes. */
function plan(path: string, before: number): Plan {
  const { ino } = statSync(path);
  // Bytes, not text: a damaged line that is not even UTF-8 stays as it was too.
  const kept: Buffer[] = [];
  let removed = 0;
  const end = forEachLine(path, 0, (buf, start, stop) => {
    // Its copy would cut such a line short and join it to the next line. Nobody's record, but
    // not prune's to shorten.
    if (cutShort(buf, stop))
      throw new ConfigError(
        `journal: ${path} holds a line longer than ${MAX_LINE / (1 << 20)} MiB; prune leaves the file as it is`,
        {
          hint: 'remove that line by hand, then prune again',
        },
      );
    const r = parseLine(buf, start, stop);
    // An alert goes with the forecast (or price) it fired on: by its ts.
    const t = typeof r === 'string' ? undefined : r.kind === 'price' ? r.t : r.kind === 'alert' ? (r.ts ?? r.t) : r.ts;
    if (t !== undefined && t < before) removed++;
    else kept.push(Buffer.from(buf.subarray(start, stop + 1)));
  });
  const torn = tornTail(path, end);
  if (torn) kept.push(torn);
  return { ino, size: end + (torn?.length ?? 0), kept, removed };
}
/** A month file another prune removed while this one waited for the lock: nothing to count. */
const GONE: Plan = { ino: 0, size: 0, kept: [], removed: 0 };

/** What `read` gives, or undefined when the file it reads is not there (ENOENT). */
function ifThere<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Attempts at a month file that others append to meanwhile, before it is read under the lock. */
const ATTEMPTS = 3;

/**
 * What a prune would do (dryRun) or did. Each month file is read and decided on without the
 * lock, then rewritten (or removed) in a step of its own under the lock, if it is still the file
 * that was read (its inode and length: the journal only grows, and only a prune replaces a
 * file); if not (a recorder appended meanwhile), it is read again, and after ATTEMPTS, under
 * the lock. So a recorder waits for one file's rename at most, not for the whole prune.
 */
export async function pruneJournal(dataDir: string, before: number, dryRun: boolean): Promise<PruneSummary> {
  const summary: PruneSummary = { before, removed: 0, kept: 0, files_removed: [], files_rewritten: [] };
  const dir = openJournalDir(dataDir, { create: !dryRun });
  if (!dryRun)
    await rewriteJournal(dataDir, (d) => {
      removeDeadRewrites(d);
      return { result: undefined, rewrote: [] };
    });
  for (const file of dir === undefined ? [] : monthFiles(dir)) {
    const path = join(dir!, file);
    if (monthStart(file) >= before) {
      const end = forEachLine(path, 0, () => summary.kept++);
      if (statSync(path).size > end) summary.kept++;
      continue;
    }
    // A month wholly before DATE with nothing left is removed; any other that loses a line, rewritten.
    const whole = monthEnd(file) <= before;
    const acts = (p: Plan) => p.removed > 0 || (whole && p.kept.length === 0);
    let done: Plan | undefined;
    for (let attempt = 1; !done; attempt++) {
      // Another prune may remove a month between the listing and here, or while this one waits
      // for the lock: that file has nothing left to do.
      const read = ifThere(() => plan(path, before));
      if (read === undefined) break;
      if (dryRun || !acts(read)) {
        done = read;
        break;
      }
      done = await rewriteJournal(dataDir, (d) => {
        const here = join(d, file);
        const now = statSync(here, { throwIfNoEntry: false });
        if (now === undefined) return { result: GONE, rewrote: [] };
        const changed = now.ino !== read.ino || now.size !== read.size;
        if (changed && attempt < ATTEMPTS) return { result: undefined, rewrote: [] };
        const p = changed ? plan(here, before) : read;
        if (!acts(p)) return { result: p, rewrote: [] };
        if (whole && p.kept.length === 0) unlinkSync(here);
        else writeAtomically(here, Buffer.concat(p.kept), 0o600);
        return { result: p, rewrote: [file] };
      });
    }
    if (done === undefined || done === GONE) continue;
    summary.removed += done.removed;
    summary.kept += done.kept.length;
    if (!acts(done)) continue;
    if (whole && done.kept.length === 0) summary.files_removed.push(file);
    else summary.files_rewritten.push(file);
  }
  return summary;
}

/** The bytes after the last complete line (from `end`), if any: a torn last line, kept as it is. */
function tornTail(path: string, end: number): Buffer | undefined {
  const size = statSync(path).size;
  if (size <= end) return undefined;
  const fd = openSync(path, 'r');
  try {
    const tail = Buffer.alloc(size - end);
    readSync(fd, tail, 0, tail.length, end);
    return tail;
  } finally {
    closeSync(fd);
  }
}

/**
 * The temp files of month rewrites whose prune was killed before its rename, of any month: the
 * month it was rewriting may be removed whole, or never rewritten again, by the next prune.
 */
function removeDeadRewrites(dir: string): void {
  const months = new Set<string>();
  for (const name of readdirSync(dir)) {
    const at = name.indexOf(TEMP_MARK);
    if (at > 0 && MONTH_FILE.test(name.slice(0, at))) months.add(name.slice(0, at));
  }
  for (const month of months) removeStaleTempFiles(join(dir, month));
}
