// `journal prune --before DATE`: the records dated before DATE (a forecast and its settlement
// by the forecast's ts, a price by its t) go; the rest stays byte for byte. Whole months before
// DATE are removed as files; the month holding DATE is rewritten atomically (temp file, fsync,
// rename). The one operation that rewrites the journal, and only when asked to, under the lock;
// lines that cannot be dated (damaged) are kept.
import { unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { writeAtomically } from '../config/atomic-write.js';
import { forEachLine, parseLine } from './lines.js';
import { monthEnd, monthFiles, monthStart, openJournalDir, withJournal } from './store.js';

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
        forEachLine(path, 0, () => summary.kept++);
        continue;
      }
      const kept: string[] = [];
      let removed = 0;
      forEachLine(path, 0, (buf, start, end) => {
        const r = parseLine(buf, start, end);
        const t = typeof r === 'string' ? undefined : r.kind === 'price' ? r.t : r.ts;
        if (t !== undefined && t < before) removed++;
        else kept.push(buf.toString('utf8', start, end));
      });
      summary.removed += removed;
      summary.kept += kept.length;
      if (monthEnd(file) <= before && kept.length === 0) {
        summary.files_removed.push(file);
        if (write) unlinkSync(path);
      } else if (removed > 0) {
        summary.files_rewritten.push(file);
        if (write) writeAtomically(path, kept.map((l) => `${l}\n`).join(''), 0o600);
      }
    }
  };
  if (dryRun) {
    const dir = openJournalDir(dataDir, { create: false });
    if (dir) work(dir, false);
    return summary;
  }
  return withJournal(dataDir, (tx) => {
    work(tx.dir, true);
    if (summary.files_removed.length > 0 || summary.files_rewritten.length > 0) tx.rebuildIndex();
    return summary;
  });
}
