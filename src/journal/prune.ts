// `journal prune --before DATE`: the records dated before DATE (a forecast and its settlement
// by the forecast's ts, a price by its t) go; the rest stays byte for byte. Whole months before
// DATE are removed as files; the month holding DATE is rewritten atomically (temp file, fsync,
// rename). The one operation that rewrites the journal, and only when asked to, under the lock;
// lines that cannot be dated are kept: a damaged line, and a torn last line (a write cut short
// by a crash), which stays last and torn, as readers and the next writer expect it. The index is
// then built afresh from the files (store.ts, rewriteJournal).
import { closeSync, openSync, readdirSync, readSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { TEMP_MARK, writeAtomically } from '../config/atomic-write.js';
import { removeStaleTempFiles } from '../config/file-lock.js';
import { forEachLine, parseLine } from './lines.js';
import { MONTH_FILE, monthEnd, monthFiles, monthStart, openJournalDir, rewriteJournal } from './store.js';

export interface PruneSummary {
  before: number;
  removed: number;
  kept: number;
  files_removed: string[];
  files_rewritten: string[];
}

/** What a prune would do (dryRun) or did. */
export async function pruneJournal(dataDir: string, before: number, dryRun: boolean): Promise<PruneSummary> {
  const summary: PruneSummary = { before, removed: 0, kept: 0, files_removed: [], files_rewritten: [] };
  const work = (dir: string, write: boolean) => {
    for (const file of monthFiles(dir)) {
      const path = join(dir, file);
      if (monthStart(file) >= before) {
        const end = forEachLine(path, 0, () => summary.kept++);
        if (statSync(path).size > end) summary.kept++;
        continue;
      }
      // Bytes, not text: a damaged line that is not even UTF-8 stays as it was too.
      const kept: Buffer[] = [];
      let removed = 0;
      const end = forEachLine(path, 0, (buf, start, stop) => {
        const r = parseLine(buf, start, stop);
        const t = typeof r === 'string' ? undefined : r.kind === 'price' ? r.t : r.ts;
        if (t !== undefined && t < before) removed++;
        else kept.push(Buffer.from(buf.subarray(start, stop + 1)));
      });
      const torn = tornTail(path, end);
      if (torn) kept.push(torn);
      summary.removed += removed;
      summary.kept += kept.length;
      if (monthEnd(file) <= before && kept.length === 0) {
        summary.files_removed.push(file);
        if (write) unlinkSync(path);
      } else if (removed > 0) {
        summary.files_rewritten.push(file);
        if (write) writeAtomically(path, Buffer.concat(kept), 0o600);
      }
    }
  };
  if (dryRun) {
    const dir = openJournalDir(dataDir, { create: false });
    if (dir) work(dir, false);
    return summary;
  }
  return rewriteJournal(dataDir, (dir) => {
    removeDeadRewrites(dir);
    work(dir, true);
    return { result: summary, rewrote: summary.files_removed.length > 0 || summary.files_rewritten.length > 0 };
  });
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
