// Where the journal lives and how it is written: append-only JSON Lines, one file per month
// (`2026-11.jsonl`, by the forecast's ts or the price's t, UTC) in <data dir>/journal/.
// - Why JSON Lines and not node:sqlite or a WASM SQLite: node:sqlite is experimental on Node 22
//   and absent from Node 20 (the floor is 20.18), a WASM build is a large load on every
//   recording run (docs/decisions/2026-11-27-journal-internals.md), and neither is readable with
//   jq; an append-only log of whole lines needs no
//   library and a crash can only ever cut its last line, which readers skip.
// - The directory, and the data directory holding it, follow the config directory's rules
//   (config/private-dir.ts, config/data-dir.ts): created 0700, refused when another user's or
//   writable by group or others; no file is followed through a symbolic link (O_NOFOLLOW), files
//   are created 0600.
// - Every write is one transaction under the lock file journal.lock (config/file-lock.ts): the
//   "not yet recorded?" check and the append are one step, so eight recorders at once neither
//   lose nor duplicate a line. Each file gets one write() of whole lines with O_APPEND; a write
//   that fails (disk full, read-only) is cut back to the file's old length, so a journal is
//   never left with half a line by a failure we see. A SIGKILL loses at most the write in flight;
//   a torn last line left by one is ended with a newline by the next writer and skipped by readers.
// - "Not yet recorded" must not read the journal (a million lines): index.json keeps the keys of
//   the last hours per symbol and timeframe, the recent price times, and the open forecasts a
//   response may settle, plus how many bytes of each file it has taken in. It is a cache: every
//   writer first takes in what the files hold beyond it (a writer killed before saving it), and
//   a missing, damaged or outrun index is rebuilt from the files. The index itself is
//   journal-index.ts, and on disk (load, catch up, rebuild, save) index-file.ts; the directory,
//   its files and the append, journal-files.ts; the month arithmetic of the files' names,
//   months.ts. This file holds the lock and the transactions run under it.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type * as FileLock from '../config/file-lock.js';
import { scanForReport } from './fast-lines.js';
import { catchUp, indexIdentity, inodeOf, loadIndex, readSavedIndex, rebuild, saveIndex } from './index-file.js';
import { appendLines, failure, monthFiles, openJournalDir, refuseIrregular } from './journal-files.js';
import type { JournalIndex, Series } from './journal-index.js';
import { WrittenKeys, writtenRecord } from './written.js';
import { monthEnd } from './months.js';
import { noProblems, readRecords } from './lines.js';
import {
  alertLine,
  type AlertRecord,
  forecastKey,
  priceKey,
  priceSeriesKey,
  seriesKey,
  monthOf,
  monthOfEpoch,
  recordLine,
  type ForecastRecord,
  type JournalRecord,
  type PriceRecord,
  type Settleable,
} from './record.js';

const LOCK_FILE = 'journal.lock';

// --- transactions ------------------------------------------------------------------------------

/** What a writer sees under the lock: the index brought up to date, and the way to append. */
export interface JournalTx {
  readonly dir: string;
  /** How long this writer waited for the lock, in milliseconds. */
  readonly waitedMs: number;
  /** Whether this forecast (origin, symbol, tf, ts) is already in the journal. */
  hasForecast(r: Pick<ForecastRecord, 'origin' | 'symbol' | 'tf' | 'ts'>): boolean;
  /** Whether a price observation of this origin and symbol at this time is already in the journal. */
  hasPrice(r: Pick<PriceRecord, 'origin' | 'symbol' | 't'>): boolean;
  /** The recorded forecasts of a symbol from an origin that the index still holds open (recent ones). */
  openForecasts(origin: string, symbol: string): Settleable[];
  /**
   * Appends the records, one write per month file, and takes them into the index; `lines` may
   * hold their lines made before the lock was taken (recordLine's, so an import serialises
   * outside it).
   */
  append(records: JournalRecord[], lines?: ReadonlyMap<JournalRecord, string>): void;
  /** Appends alerts' lines (record.ts, AlertRecord), each in its forecast's month file; the index takes in none. */
  appendAlerts(records: readonly AlertRecord[]): void;
}

/**
 * The lock's module, loaded by the first writer: a run that only reads the journal (a report,
 * a listing) does not load it (docs/decisions/2026-11-27-startup.md). What runs under the lock
 * (saveIndex, in index-file.ts) is handed it from here.
 */
let fileLock: typeof FileLock | undefined;

/**
 * Runs `work` on the journal's directory under its lock (waited for `waitedMs`). Throws
 * ConfigError (exit 3) when the journal cannot be opened, locked or written.
 */
async function underLock<T>(
  dataDir: string,
  work: (dir: string, waitedMs: number) => T | Promise<T>,
  manners?: FileLock.LockManners,
): Promise<T> {
  const { dir, lockPath } = lockOf(dataDir);
  fileLock ??= await import('../config/file-lock.js');
  const lock = fileLock;
  const asked = Date.now();
  let release: () => void;
  try {
    release = await lock.acquireLock(lockPath, `the journal in ${dir}`, undefined, manners);
  } catch (err) {
    throw failure(dir, err);
  }
  try {
    return await work(dir, Date.now() - asked);
  } catch (err) {
    throw writeFailure(dir, err);
  } finally {
    release();
  }
}

/**
 * underLock for a writer of many batches (journal import): it lets the recorders already
 * waiting for the lock write before each batch (file-lock.ts, yieldToWaiters).
 */
const underBulkLock = <T>(dataDir: string, work: (dir: string, waitedMs: number) => T): Promise<T> =>
  underLock(dataDir, work, { yieldToWaiters: true });

function lockOf(dataDir: string): { dir: string; lockPath: string } {
  const dir = openJournalDir(dataDir, { create: true })!;
  const lockPath = join(dir, LOCK_FILE);
  refuseIrregular(lockPath);
  return { dir, lockPath };
}

/** The file system's refusals (ENOSPC, EROFS, EACCES...) become the journal's error; a bug stays one. */
const writeFailure = (dir: string, err: unknown): unknown =>
  (err as NodeJS.ErrnoException).code === undefined ? err : failure(dir, err);

/**
 * Runs `work` under the journal's lock with the index brought up to date, then saves the index.
 * Throws ConfigError (exit 3) when the journal cannot be opened, locked or written.
 */
export function withJournal<T>(dataDir: string, work: (tx: JournalTx) => T | Promise<T>): Promise<T> {
  return underLock(dataDir, async (dir, waitedMs) => {
    const index = loadIndex(dir);
    const result = await work(transaction(dir, index, waitedMs));
    closeTransaction(dir, index);
    return result;
  });
}

/** Batches between two saves of the index by a writer of many (journal import), besides its last. */
const SAVE_EVERY = 10;

/** A writer of batch after batch (journal import): the index kept between them. */
export interface JournalBatches {
  /**
   * Runs `work` under the lock, as withJournal does. What others appended since this writer's
   * last batch (on the first, since the lengths it was opened with) is read once: taken into
   * the index and handed to `theirs`, in the files' order. A month file rewritten meanwhile (a
   * prune: another inode, or shorter) is handed over whole again, and the index loaded afresh.
   * The index is saved after the `last` batch, and after every batch while others write too
   * (one saved the index since this writer did, or appended, in the last SAVE_EVERY batches:
   * each would otherwise read this writer's unsaved batches under the lock on its next run);
   * alone, every SAVE_EVERY batches. A writer killed between two saves leaves the index behind the files,
   * which the next writer catches up on, as after any kill.
   */
  batch<T>(theirs: (r: JournalRecord) => void, work: (tx: JournalTx) => T, last: boolean): Promise<T>;
}

/** How much of a month file a writer read before its first batch, and which file that was. */
export interface ReadExtent {
  /** The offset past the last complete line read. */
  size: number;
  /** The inode of the file read (fstat of the descriptor it was read through). */
  ino: number;
}

/**
 * Batches on the journal of `dataDir`, whose month files the caller has read up to `read`
 * (each file's length then, and its inode: a prune replacing the file before the first batch
 * is then noticed however long the file has grown again). Each batch held the lock for its own catch-up, the index's
 * (loaded, parsed and caught up again) and the index's save: the lines others appended were
 * read twice, and a 1,000,000-row import saved the index 500 times.
 */
export function journalBatches(dataDir: string, read: ReadonlyMap<string, ReadExtent>): JournalBatches {
  let index: JournalIndex | undefined;
  // How much of each month file this writer has seen (read, or written itself), and its inode:
  // from the start, so that the first batch compares inodes too, not only lengths.
  const seen = new Map([...read].map(([file, { size }]) => [file, size] as const));
  const inodes = new Map([...read].map(([file, { ino }]) => [file, ino] as const));
  let unsaved = 0;
  let othersLately = 0;
  // The index file as this writer last saw it (at a batch, or its own save).
  let lookedAs: string | undefined;
  return {
    batch: (theirs, work, last) =>
      underBulkLock(dataDir, (dir, waitedMs) => {
        const files = monthFiles(dir);
        const stats = new Map(files.map((file) => [file, statSync(join(dir, file))] as const));
        // Another writer saved the index since this one last did: it is active, and would read
        // each batch this one leaves unsaved (thousands of lines, under the lock) on its next run.
        const identity = indexIdentity(dir);
        const others = lookedAs !== undefined && identity !== lookedAs;
        lookedAs = identity;
        const rewritten = (file: string) => {
          const stat = stats.get(file);
          const ino = inodes.get(file);
          return stat === undefined || stat.size < (seen.get(file) ?? 0) || (ino !== undefined && ino !== stat.ino);
        };
        // The index of the last batch is up to date with every file but what others appended
        // since, which is read below; the first batch's, or after a rewrite, is loaded.
        const fresh = index === undefined || [...seen.keys()].some(rewritten);
        if (fresh) index = loadIndex(dir);
        const ix = index!;
        let caught = 0;
        for (const file of files) {
          const { size, ino } = stats.get(file)!;
          const from = rewritten(file) ? 0 : (seen.get(file) ?? 0);
          inodes.set(file, ino);
          if (size <= from) {
            seen.set(file, from);
            continue;
          }
          // In step with the index (its last batch's length): one read for both.
          const inStep = !fresh && (ix.files.get(file) ?? 0) === from;
          const end = readRecords(
            join(dir, file),
            from,
            (r) => {
              theirs(r);
              if (inStep) ix.take(r);
            },
            noProblems(),
          );
          caught += end - from;
          seen.set(file, end);
          if (inStep) ix.files.set(file, end);
        }
        for (const file of seen.keys()) if (!stats.has(file)) seen.delete(file);
        const result = work(transaction(dir, ix, waitedMs));
        // What this batch appended: seen, as the index has taken it in; a month file it created
        // gets its inode now, so that a prune replacing it before the next batch is noticed.
        for (const [file, size] of ix.files) {
          if (size > (seen.get(file) ?? 0)) seen.set(file, size);
          if (!inodes.has(file)) {
            const ino = inodeOf(join(dir, file));
            if (ino !== undefined) inodes.set(file, ino);
          }
        }
        ix.trim();
        // Others seen in the last SAVE_EVERY batches count as still there: a recorder between
        // two runs (a request, its start-up) neither saves nor appends for a batch or two.
        if (others || caught > 0) othersLately = SAVE_EVERY;
        else if (othersLately > 0) othersLately--;
        if (last || othersLately > 0 || ++unsaved >= SAVE_EVERY) {
          unsaved = 0;
          try {
            saveIndex(dir, ix, fileLock!);
            lookedAs = indexIdentity(dir);
          } catch {
            // As closeTransaction: the next writer catches up.
          }
        }
        return result;
      }),
  };
}

function closeTransaction(dir: string, index: JournalIndex): void {
  index.trim();
  try {
    saveIndex(dir, index, fileLock!);
  } catch {
    // What `work` appended is in the journal: a disk that filled up in between, or an index
    // that cannot be replaced, costs the next writer a catch-up (or a rebuild), not a record.
  }
}

/**
 * Runs `rewrite` under the journal's lock (one short step of a prune): it rewrites or removes
 * month files and names them. The index is then brought up to date with them: a file below its
 * floor holds nothing the index keeps but its length, which is set (or dropped with the file)
 * before the index catches up on the rest; a file at or above it (one of the two newest months)
 * had keys and open forecasts there, so the index is built afresh from the files, not read first.
 */
export function rewriteJournal<T>(
  dataDir: string,
  rewrite: (dir: string) => { result: T; rewrote: string[] },
): Promise<T> {
  return underLock(dataDir, (dir) => {
    const { result, rewrote } = rewrite(dir);
    if (rewrote.length > 0) {
      const files = monthFiles(dir);
      const saved = readSavedIndex(dir);
      let index: JournalIndex | undefined;
      if (saved && rewrote.every((file) => monthEnd(file) <= saved.floor)) {
        for (const file of rewrote) {
          if (files.includes(file)) saved.files.set(file, statSync(join(dir, file)).size);
          else saved.files.delete(file);
        }
        index = catchUp(dir, saved, files);
      }
      index ??= rebuild(dir, files);
      index.trim();
      saveIndex(dir, index, fileLock!);
    }
    return result;
  });
}

function transaction(dir: string, index: JournalIndex, waitedMs: number): JournalTx {
  // Keys below the floors, looked up in their month file (rare: a clock set back by weeks).
  const older = new Map<string, Set<string>>();
  const olderKeys = (file: string): Set<string> => {
    let keys = older.get(file);
    if (!keys) {
      keys = new Set();
      const path = join(dir, file);
      if (index.files.has(file)) {
        const found = keys;
        // The keys only, by the report's fast reader: a whole month of a busy journal is read in
        // a fraction of a second, where parsing every line would take seconds.
        scanForReport(
          path,
          {
            forecast: (origin, symbol, tf, ts) => found.add(forecastKey({ origin, symbol, tf, ts })),
            settlement: () => {},
            price: (origin, symbol, t) => found.add(priceKey({ origin, symbol, t })),
          },
          noProblems(),
        );
      }
      older.set(file, keys);
    }
    return keys;
  };
  const known = (map: Map<string, Series>, seriesKey: string, t: number, file: string, key: string): boolean => {
    const s = map.get(seriesKey);
    if (t >= index.floor && (s === undefined || t >= s.floor)) return s?.times.has(t) === true;
    return olderKeys(file).has(key);
  };
  // Records are known by the text the files hold: a key in a symbol or timeframe masked (written.ts).
  const written = new WrittenKeys();
  return {
    dir,
    waitedMs,
    hasForecast: (r) => {
      const w = written.of(r);
      return known(index.series, seriesKey(w), w.ts, `${monthOfEpoch(w.ts)}.jsonl`, forecastKey(w));
    },
    hasPrice: (r) => {
      const w = written.of(r);
      return known(index.prices, priceSeriesKey(w), w.t, `${monthOfEpoch(w.t)}.jsonl`, priceKey(w));
    },
    openForecasts: (origin, symbol) =>
      [...index.open.values()]
        .filter((e) => e[0] === written.text(origin) && e[1] === written.text(symbol))
        .map((e) => ({
          origin: e[0],
          symbol: e[1],
          tf: e[2],
          ts: e[3],
          target_t: e[4],
          anchor_price: e[5],
          direction: e[6],
          p_long: e[7],
          p_short: e[8],
          p_flat: e[9],
          ia2: typeof e[10] === 'number' ? { p_long: e[10], p_short: e[11]!, p_flat: e[12]! } : null,
        })),
    append(records, lines) {
      const byFile = new Map<string, JournalRecord[]>();
      for (const r of records) {
        const file = `${monthOf(r)}.jsonl`;
        const list = byFile.get(file);
        if (list) list.push(r);
        else byFile.set(file, [r]);
      }
      for (const [file, list] of byFile) {
        const path = join(dir, file);
        const text = list.map((r) => lines?.get(r) ?? recordLine(r));
        // The index had taken in all of the file (catchUp), and now this too: as written, a
        // record the redactor masked by its masked text.
        let taken = list;
        const size = appendLines(path, text.join(''), () => {
          taken = list.map((r, i) => writtenRecord(text[i]!, r));
        });
        index.files.set(file, size);
        for (const r of taken) {
          index.take(r);
          const keys = older.get(file);
          if (keys && r.kind === 'forecast') keys.add(forecastKey(r));
          if (keys && r.kind === 'price') keys.add(priceKey(r));
        }
      }
    },
    appendAlerts(records) {
      const byFile = new Map<string, string>();
      for (const r of records) {
        const file = `${monthOfEpoch(r.ts ?? r.t)}.jsonl`;
        byFile.set(file, (byFile.get(file) ?? '') + alertLine(r));
      }
      // The index had taken in all of the file: these lines hold nothing it keeps.
      for (const [file, text] of byFile) index.files.set(file, appendLines(join(dir, file), text));
    },
  };
}
