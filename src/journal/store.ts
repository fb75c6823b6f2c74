// Where the journal lives and how it is written: append-only JSON Lines, one file per month
// (`2026-11.jsonl`, by the forecast's ts or the price's t, UTC) in <data dir>/journal/.
// - Why JSON Lines and not node:sqlite or a WASM SQLite: node:sqlite is experimental on Node 22
//   and absent from Node 20 (the floor is 20.18), a WASM build is ~1 MB to load on every
//   recording run, and neither is readable with jq; an append-only log of whole lines needs no
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
//   a missing, damaged or outrun index is rebuilt from the files.
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
  renameSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { TEMP_MARK, unlinkQuietly } from '../config/atomic-write.js';
import { redactForFile } from '../core/sinks.js';
import type * as FileLock from '../config/file-lock.js';
import { dataDirProblem } from '../config/data-dir.js';
import { createMissingDirs, privateDirProblem, symlinkTarget, type PrivateDirNames } from '../config/private-dir.js';
import { ConfigError } from '../core/errors.js';
import { isRecord } from '../core/values.js';
import { scanForReport } from './fast-lines.js';
import { noProblems, readRecords } from './lines.js';
import {
  forecastKey,
  priceKey,
  monthOf,
  monthOfEpoch,
  recordLine,
  type ForecastRecord,
  type JournalRecord,
  type PriceRecord,
  type Settleable,
} from './record.js';

export const MONTH_FILE = /^(\d{4})-(\d{2})\.jsonl$/;
const INDEX_FILE = 'index.json';
const LOCK_FILE = 'journal.lock';
// 2: keys by origin (journal version 2); an index of version 1 is rebuilt.
const INDEX_VERSION = 2;

/** The keys of the last two hours are enough: a response shows forecasts at most an hour behind (the demo's delay) and one cadence old. */
const KEEP_KEYS_S = 2 * 3600;
/** ...and always the last few of each series, however long its cadence (6h forecasts are 6 hours apart). */
const KEEP_KEYS_MIN = 8;
/** An open forecast stays in the index while a response can still prove it: its target within two hours of the newest price or forecast seen. */
const KEEP_OPEN_S = 2 * 3600;
const KEEP_OPEN_MAX = 2_000;

export function journalDirOf(dataDir: string): string {
  return join(dataDir, 'journal');
}

/** The error of a journal command: exit 3, like a config file that cannot be read or written. */
export function journalError(message: string, opts: { hint?: string; cause?: unknown } = {}): ConfigError {
  return new ConfigError(`journal: ${message}`, opts);
}

function failure(dir: string, err: unknown, doing = 'cannot write'): ConfigError {
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
function refuseIrregular(path: string): void {
  let stat: ReturnType<typeof lstatSync>;
  try {
    stat = lstatSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw failure(path, err, 'cannot read');
  }
  if (stat.isFile()) return;
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

/** Epoch seconds of the first instant of a month file's month. */
export function monthStart(file: string): number {
  const m = MONTH_FILE.exec(file) ?? /^(\d{4})-(\d{2})$/.exec(file);
  if (!m) return 0;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, 1) / 1000;
}

/** Epoch seconds of the first instant of the month after. */
export function monthEnd(file: string): number {
  const m = MONTH_FILE.exec(file) ?? /^(\d{4})-(\d{2})$/.exec(file);
  if (!m) return 0;
  return Date.UTC(Number(m[1]), Number(m[2]), 1) / 1000;
}

/** The origins of the journal's forecasts (null: unknown), read by the fast path. */
export function journalOrigins(dir: string | undefined): Set<string | null> {
  const origins = new Set<string | null>();
  for (const file of dir === undefined ? [] : monthFiles(dir))
    scanForReport(join(dir!, file), { forecast: (origin) => origins.add(origin), settlement: () => {} }, noProblems());
  return origins;
}

// --- appending ---------------------------------------------------------------------------------

/**
 * Appends `text` (whole lines) to `path` with one write, creating it 0600 without following a
 * link. A torn last line (a writer killed mid-write) is ended with a newline first, so it stays
 * one damaged line and the new ones start clean. On any failure the file is cut back to its
 * old length. Returns the file's new size.
 */
export function appendLines(path: string, text: string): number {
  const fd = openSync(
    path,
    constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK,
    0o600,
  );
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw journalError(`${path} is not a regular file`);
    let data = Buffer.from(redactForFile(text), 'utf8');
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

// --- the index ---------------------------------------------------------------------------------

/** A forecast the index keeps open: what a settlement repeats, in a compact form. */
type OpenEntry = [
  origin: string | null,
  symbol: string,
  tf: string,
  ts: number,
  target_t: number,
  anchor_price: number | null,
  direction: string,
  p_long: number,
  p_short: number,
  p_flat: number,
];

interface Series {
  /** Complete at and above this time (older entries were let go). */
  floor: number;
  times: Set<number>;
}

interface IndexFile {
  v: number;
  floor: number;
  files: Record<string, number>;
  series: Record<string, { floor: number; ts: number[] }>;
  prices: Record<string, { floor: number; t: number[] }>;
  open: OpenEntry[];
}

/**
 * The index in memory. Invariant: for every file in `files`, every forecast key and price time
 * in its first `files[f]` bytes with a time at or above both `floor` and its series' floor is in
 * `series` / `prices`; `open` holds the forecasts of those bytes not yet settled, less the ones let go.
 */
class JournalIndex {
  floor = 0;
  files = new Map<string, number>();
  series = new Map<string, Series>();
  prices = new Map<string, Series>();
  open = new Map<string, OpenEntry>();

  /**
   * The index as saved, or undefined (rebuilt from the files) when it is not one: a single
   * entry off its shape refuses the whole of it, since an index that dropped a series would
   * say its keys were never recorded and let them be written twice.
   */
  static parse(text: string): JournalIndex | undefined {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      return undefined;
    }
    if (!isRecord(data) || data.v !== INDEX_VERSION || !Number.isFinite(data.floor)) return undefined;
    const { files, series = {}, prices = {}, open = [] } = data;
    if (!isRecord(files) || !isRecord(series) || !isRecord(prices) || !Array.isArray(open)) return undefined;
    const index = new JournalIndex();
    index.floor = data.floor as number;
    for (const [f, n] of Object.entries(files)) {
      if (!Number.isInteger(n) || (n as number) < 0) return undefined;
      index.files.set(f, n as number);
    }
    for (const [into, from, field] of [
      [index.series, series, 'ts'],
      [index.prices, prices, 't'],
    ] as const) {
      for (const [k, s] of Object.entries(from)) {
        const times = isRecord(s) && Number.isFinite(s.floor) ? undelta(s[field]) : undefined;
        if (!times) return undefined;
        into.set(k, { floor: (s as { floor: number }).floor, times: new Set(times) });
      }
    }
    for (const e of open) {
      if (!isOpenEntry(e)) return undefined;
      index.open.set(forecastKey({ origin: e[0], symbol: e[1], tf: e[2], ts: e[3] }), e);
    }
    return index;
  }

  serialize(): string {
    const data: IndexFile = {
      v: INDEX_VERSION,
      floor: this.floor,
      files: Object.fromEntries(this.files),
      series: Object.fromEntries([...this.series].map(([k, s]) => [k, { floor: s.floor, ts: delta(s.times) }])),
      prices: Object.fromEntries([...this.prices].map(([k, s]) => [k, { floor: s.floor, t: delta(s.times) }])),
      open: [...this.open.values()],
    };
    return `${JSON.stringify(data)}\n`;
  }

  private seriesOf(map: Map<string, Series>, key: string): Series {
    let s = map.get(key);
    if (!s) {
      s = { floor: this.floor, times: new Set() };
      map.set(key, s);
    }
    return s;
  }

  take(r: JournalRecord): void {
    if (r.kind === 'forecast') {
      if (r.ts < this.floor) return;
      const s = this.seriesOf(this.series, seriesKey(r));
      if (r.ts >= s.floor) s.times.add(r.ts);
      this.open.set(forecastKey(r), [
        r.origin,
        r.symbol,
        r.tf,
        r.ts,
        r.target_t,
        r.anchor_price,
        r.direction,
        r.p_long,
        r.p_short,
        r.p_flat,
      ]);
    } else if (r.kind === 'price') {
      if (r.t < this.floor) return;
      const s = this.seriesOf(this.prices, priceSeriesKey(r));
      if (r.t >= s.floor) s.times.add(r.t);
    } else {
      this.open.delete(forecastKey(r));
    }
  }

  /** Lets go of what no response will ask about again, so the index stays a few tens of KB. */
  trim(): void {
    // The newest time seen per symbol, prices and forecasts alike: a response shows nothing
    // much older than that (its price lags a forecast's ts by the tier's delay at most).
    const newest = new Map<string, number>();
    const see = (symbol: string, t: number) => newest.set(symbol, Math.max(newest.get(symbol) ?? t, t));
    // Keys are origin<TAB>symbol<TAB>...: the symbol of its origin is the part up to the second tab.
    const upToSymbol = (key: string) => key.slice(0, key.indexOf('\t', key.indexOf('\t') + 1));
    for (const [key, s] of this.prices) see(key, trimSeries(s));
    for (const [key, s] of this.series) see(upToSymbol(key), trimSeries(s));
    for (const [key, e] of this.open) {
      const seen = newest.get(`${e[0] ?? ''}\t${e[1]}`);
      if (seen !== undefined && e[4] < seen - KEEP_OPEN_S) this.open.delete(key);
    }
    if (this.open.size > KEEP_OPEN_MAX) {
      const oldest = [...this.open].sort((a, b) => a[1][4] - b[1][4]).slice(0, this.open.size - KEEP_OPEN_MAX);
      for (const [key] of oldest) this.open.delete(key);
    }
  }
}

const seriesKey = (r: { origin: string | null; symbol: string; tf: string }) =>
  `${r.origin ?? ''}\t${r.symbol}\t${r.tf}`;
const priceSeriesKey = (r: { origin: string | null; symbol: string }) => `${r.origin ?? ''}\t${r.symbol}`;

/** Ascending times as the first and the steps after it (60, 60, ...): a quarter of the bytes to write and parse. */
function delta(times: Set<number>): number[] {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted.map((t, i) => (i === 0 ? t : t - sorted[i - 1]!));
}

/** The times back from their steps; undefined unless every step is a whole number. */
function undelta(steps: unknown): number[] | undefined {
  if (!Array.isArray(steps) || !steps.every((step) => Number.isInteger(step))) return undefined;
  let t = 0;
  return steps.map((step: number) => (t += step));
}

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function isOpenEntry(e: unknown): e is OpenEntry {
  return (
    Array.isArray(e) &&
    e.length === 10 &&
    (e[0] === null || typeof e[0] === 'string') &&
    typeof e[1] === 'string' &&
    typeof e[2] === 'string' &&
    Number.isInteger(e[3]) &&
    Number.isInteger(e[4]) &&
    (e[5] === null || isNumber(e[5])) &&
    typeof e[6] === 'string' &&
    isNumber(e[7]) &&
    isNumber(e[8]) &&
    isNumber(e[9])
  );
}

/** Keeps the last KEEP_KEYS_S of a series (and its last few), raising its floor past what went; returns its newest time. */
function trimSeries(s: Series): number {
  const times = [...s.times].sort((a, b) => a - b);
  const newest = times.at(-1) ?? Number.NEGATIVE_INFINITY;
  const cut = Math.min(newest - KEEP_KEYS_S, times[times.length - KEEP_KEYS_MIN] ?? Number.NEGATIVE_INFINITY);
  let dropped = Number.NEGATIVE_INFINITY;
  for (const t of times) {
    if (t >= cut) break;
    s.times.delete(t);
    dropped = t;
  }
  if (dropped > Number.NEGATIVE_INFINITY) s.floor = Math.max(s.floor, dropped + 1);
  return newest;
}

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
}

/**
 * The lock's module, loaded by the first writer: a run that only reads the journal (a report,
 * a listing) does not load it (docs/decisions/2026-11-27-startup.md). What runs under the lock
 * (saveIndex) finds it here.
 */
let fileLock: typeof FileLock | undefined;

/**
 * Runs `work` on the journal's directory under its lock (waited for `waitedMs`). Throws
 * ConfigError (exit 3) when the journal cannot be opened, locked or written.
 */
async function underLock<T>(dataDir: string, work: (dir: string, waitedMs: number) => T | Promise<T>): Promise<T> {
  const { dir, lockPath } = lockOf(dataDir);
  fileLock ??= await import('../config/file-lock.js');
  const lock = fileLock;
  const asked = Date.now();
  let release: () => void;
  try {
    release = await lock.acquireLock(lockPath, `the journal in ${dir}`);
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

/** Which index file is there (each save is a new file, renamed into place), or none. */
function indexIdentity(dir: string): string | undefined {
  try {
    const { ino, mtimeMs } = statSync(join(dir, INDEX_FILE));
    return `${ino} ${mtimeMs}`;
  } catch {
    return undefined;
  }
}

/**
 * Batches on the journal of `dataDir`, whose month files the caller has read up to `read`
 * (each file's length then). Each batch held the lock for its own catch-up, the index's
 * (loaded, parsed and caught up again) and the index's save: the lines others appended were
 * read twice, and a 1,000,000-row import saved the index 500 times.
 */
export function journalBatches(dataDir: string, read: ReadonlyMap<string, number>): JournalBatches {
  let index: JournalIndex | undefined;
  // How much of each month file this writer has seen (read, or written itself), and its inode.
  const seen = new Map(read);
  const inodes = new Map<string, number>();
  let unsaved = 0;
  let othersLately = 0;
  // The index file as this writer last saw it (at a batch, or its own save).
  let lookedAs: string | undefined;
  return {
    batch: (theirs, work, last) =>
      underLock(dataDir, (dir, waitedMs) => {
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
        // What this batch appended: seen, as the index has taken it in.
        for (const [file, size] of ix.files) if (size > (seen.get(file) ?? 0)) seen.set(file, size);
        ix.trim();
        // Others seen in the last SAVE_EVERY batches count as still there: a recorder between
        // two runs (a request, its start-up) neither saves nor appends for a batch or two.
        if (others || caught > 0) othersLately = SAVE_EVERY;
        else if (othersLately > 0) othersLately--;
        if (last || othersLately > 0 || ++unsaved >= SAVE_EVERY) {
          unsaved = 0;
          try {
            saveIndex(dir, ix);
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
    saveIndex(dir, index);
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
      saveIndex(dir, index);
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
  return {
    dir,
    waitedMs,
    hasForecast: (r) => known(index.series, seriesKey(r), r.ts, `${monthOfEpoch(r.ts)}.jsonl`, forecastKey(r)),
    hasPrice: (r) => known(index.prices, priceSeriesKey(r), r.t, `${monthOfEpoch(r.t)}.jsonl`, priceKey(r)),
    openForecasts: (origin, symbol) =>
      [...index.open.values()]
        .filter((e) => e[0] === origin && e[1] === symbol)
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
        // The index had taken in all of the file (catchUp), and now this too.
        index.files.set(file, appendLines(path, list.map((r) => lines?.get(r) ?? recordLine(r)).join('')));
        for (const r of list) {
          index.take(r);
          const keys = older.get(file);
          if (keys && r.kind === 'forecast') keys.add(forecastKey(r));
          if (keys && r.kind === 'price') keys.add(priceKey(r));
        }
      }
    },
  };
}

/** The index as saved, brought up to date with the files; rebuilt when missing, damaged or outrun. */
function loadIndex(dir: string): JournalIndex {
  const saved = readSavedIndex(dir);
  const files = monthFiles(dir);
  return (saved && catchUp(dir, saved, files)) || rebuild(dir, files);
}

/** The index as saved, not caught up; undefined when there is none or it is not one. */
function readSavedIndex(dir: string): JournalIndex | undefined {
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
function catchUp(dir: string, index: JournalIndex, files: string[]): JournalIndex | undefined {
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
function rebuild(dir: string, files: string[]): JournalIndex {
  const index = new JournalIndex();
  const newest = files.at(-1);
  if (newest) index.floor = monthStart(previousMonth(newest));
  return catchUp(dir, index, files) ?? index;
}

function previousMonth(file: string): string {
  const start = monthStart(file);
  return new Date((start - 86_400) * 1000).toISOString().slice(0, 7);
}

/**
 * Writes the index beside itself and renames it into place, so a reader (under the lock) or a
 * crash sees the old index or the new one, never half of one. Not fsynced, and the old one is
 * unlinked first: on ext4 a rename over an existing file flushes the new one to disk
 * (auto_da_alloc), ~2 ms of every recording run for a cache that needs no such care. A crash
 * that loses it, or leaves it behind the files, costs a rebuild or a catch-up.
 */
function saveIndex(dir: string, index: JournalIndex): void {
  const path = join(dir, INDEX_FILE);
  const temp = `${path}${TEMP_MARK}${process.pid}`;
  // Ours from an earlier save, and those of writers killed between writing and renaming theirs.
  fileLock!.removeStaleTempFiles(path);
  try {
    writeFileSync(temp, index.serialize(), { mode: 0o600, flag: 'wx' });
    unlinkQuietly(path);
    renameSync(temp, path);
  } catch (err) {
    unlinkQuietly(temp);
    throw err;
  }
}

/** A regular file's text, opened without following a link or waiting on a FIFO. */
function readRegularFile(path: string): string {
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
