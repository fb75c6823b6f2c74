// `journal import FILE`: an export (CSV or TSV, its columns in any order, others ignored; or
// JSON Lines, the export's objects or the journal's own lines) merged into the journal without
// duplicates: a forecast already recorded is skipped, a settlement only added where the
// journal has none (a settled row also replaces an unsettleable mark).
// The export is read by import-formats.ts. The journal is read and the file de-duplicated
// against it without the lock; the lock is taken for each batch only (catch up on what
// recorders appended since, drop those, append the rest with one write per month file,
// release), so a recorder never waits for the whole import, which would outlast its wait for the lock
// (docs/decisions/2026-11-27-journal-steps.md). The index
// stays in memory between batches (store.ts, journalBatches): the catch-up reads what others
// appended once, and the index is saved every few batches and at the end, not every batch.
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { pipeline } from 'node:stream/promises';
import { InterruptedError, UsageError } from '../core/errors.js';
import { join } from 'node:path';
import { readRows, sniff, yieldTurn, type ExportFormat } from './import-formats.js';
import { noProblems, readRecords } from './lines.js';
import { MaskedSeries } from './masked.js';
import { WrittenKeys } from './written.js';
import { forecastKey, priceKey, recordLine, seriesKey, type ForecastRecord, type JournalRecord } from './record.js';
import { monthFiles, openJournalDir } from './journal-files.js';
import { journalBatches, type ReadExtent } from './store.js';

export interface ImportSummary {
  format: ExportFormat;
  rows: number;
  forecasts: number;
  settlements: number;
  prices: number;
  duplicates: number;
  /** Rows that could not be read, with their line numbers (the first few). */
  skipped: number;
  problems: Array<{ line: number; error: string }>;
}

/**
 * Records per batch: what the lock is held for (a few tens of ms on a quiet machine). A
 * recorder that waits for it goes before the next batch (file-lock.ts, yieldToWaiters).
 */
const BATCH = 2_000;

/** Keys as numbers under their series: a million keys cost a million numbers, not a million strings. */
class KeyMap<V> {
  private readonly series = new Map<string, Map<number, V>>();
  /** `onSeries` hears of each series once, when its first key is set. */
  constructor(private readonly onSeries?: (origin: string | null, symbol: string, tf: string) => void) {}
  get(origin: string | null, symbol: string, tf: string, ts: number): V | undefined {
    return this.series.get(seriesKey({ origin, symbol, tf }))?.get(ts);
  }
  set(origin: string | null, symbol: string, tf: string, ts: number, value: V): void {
    const key = seriesKey({ origin, symbol, tf });
    let m = this.series.get(key);
    if (!m) {
      m = new Map();
      this.series.set(key, m);
      this.onSeries?.(origin, symbol, tf);
    }
    m.set(ts, value);
  }
}
const SHOWN_PROBLEMS = 5;

/** A record's key among those a batch's catch-up found: a settlement's by its status too. */
function keyOf(r: JournalRecord): string {
  if (r.kind === 'price') return `p\t${priceKey(r)}`;
  if (r.kind === 'forecast') return `f\t${forecastKey(r)}`;
  return `${r.status === 'settled' ? 's' : 'u'}\t${forecastKey(r)}`;
}

/** Whether another writer appended this record (or, for a settlement, settled its forecast) since the batch was made. */
function appendedMeanwhile(r: JournalRecord, theirs: ReadonlySet<string>): boolean {
  if (r.kind !== 'settlement') return theirs.has(keyOf(r));
  const key = forecastKey(r);
  return theirs.has(`s\t${key}`) || (r.status === 'unsettleable' && theirs.has(`u\t${key}`));
}

/**
 * Merges the export at `path` into the journal; with `dryRun`, counts what it would add and
 * writes nothing (not even the journal's directory).
 */
export async function importJournal(
  dataDir: string,
  path: string,
  nowS: number,
  opts: { dryRun?: boolean; origin?: string | null; label?: string; signal?: AbortSignal } = {},
): Promise<ImportSummary> {
  const format = sniff(path);
  const origin = opts.origin ?? null;
  return merge(dataDir, path, opts.label ?? path, format, nowS, origin, opts.dryRun === true, opts.signal);
}

/**
 * `journal import -`: stdin, copied first to a private temporary file (0600 in a 0700
 * directory, removed after) so that it is read like any export: sniffed, then read line by
 * line, however large.
 */
export async function importStdin(
  dataDir: string,
  stdin: NodeJS.ReadableStream,
  nowS: number,
  opts: { dryRun?: boolean; origin?: string | null; signal?: AbortSignal } = {},
): Promise<ImportSummary> {
  const dir = mkdtempSync(join(tmpdir(), 'fcast-import-'));
  // Removed on every way out: the finally below, or at exit should the run end before it runs
  // (Ctrl-C while stdin is still open); the hook goes once the finally has done it.
  const remove = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', remove);
  try {
    const path = join(dir, 'stdin');
    try {
      // The run's signal ends the copy at once: stdin may stay open for as long as its writer likes.
      await pipeline(stdin, createWriteStream(path, { mode: 0o600, flags: 'wx' }), { signal: opts.signal });
    } catch (err) {
      if (opts.signal?.aborted) throw new InterruptedError();
      throw err;
    }
    return await importJournal(dataDir, path, nowS, { ...opts, label: 'stdin' });
  } finally {
    remove();
    process.removeListener('exit', remove);
  }
}

/**
 * Reads the export and appends, batch by batch, what the journal lacks; with `dryRun`, counts
 * it only. Interrupted (`signal`), it ends between batches: the batches written stay, whole;
 * the one being gathered is not written.
 */
async function merge(
  dataDir: string,
  path: string,
  label: string,
  format: ImportSummary['format'],
  nowS: number,
  defaultOrigin: string | null,
  dryRun: boolean,
  signal: AbortSignal | undefined,
): Promise<ImportSummary> {
  // Each recorded forecast's target_t: a settlement closing before it is refused.
  // A row whose symbol or timeframe the export masked (a key in it) is the stored record's
  // (masked.ts): each series is looked at once, when first known.
  const masked = new MaskedSeries(format);
  const written = new WrittenKeys();
  const recorded = new KeyMap<number>((origin, symbol, tf) => masked.note('forecast', origin, symbol, tf));
  const settled = new KeyMap<'settled' | 'unsettleable'>();
  const prices = new KeyMap<true>((origin, symbol) => masked.note('price', origin, symbol, undefined));
  const know = (r: JournalRecord) => {
    if (r.kind === 'price') prices.set(r.origin, r.symbol, '', r.t, true);
    else if (r.kind === 'forecast') recorded.set(r.origin, r.symbol, r.tf, r.ts, r.target_t);
    else if (settled.get(r.origin, r.symbol, r.tf, r.ts) !== 'settled')
      settled.set(r.origin, r.symbol, r.tf, r.ts, r.status);
  };
  // Read without the lock; each file's length then is where a batch's catch-up starts, unless
  // its inode (of the file read) says a prune has replaced it since.
  const dir = openJournalDir(dataDir, { create: !dryRun });
  const extents = new Map<string, ReadExtent>();
  for (const file of dir === undefined ? [] : monthFiles(dir)) {
    let ino = 0;
    const size = readRecords(join(dir!, file), 0, know, noProblems(), (stat) => {
      ino = stat.ino;
    });
    extents.set(file, { size, ino });
    await yieldTurn(signal);
  }
  const summary: ImportSummary = {
    format,
    rows: 0,
    forecasts: 0,
    settlements: 0,
    prices: 0,
    duplicates: 0,
    skipped: 0,
    problems: [],
  };
  let batch: JournalRecord[] = [];
  const batches = dryRun ? undefined : journalBatches(dataDir, extents);
  let appended = false;
  /**
   * Under the lock: what others appended since the last batch (read once, by journalBatches)
   * dropped from the batch, then the rest appended. The lock is awaited, so a Ctrl-C while
   * another process holds it is heard; an interrupted import appends nothing more.
   */
  const append = async (records: JournalRecord[], last: boolean) => {
    // Serialised before the lock is taken: it is most of a batch's time.
    const lines = new Map(records.map((r) => [r, recordLine(r)]));
    const theirs = new Set<string>();
    await batches!.batch(
      (r) => {
        know(r);
        theirs.add(keyOf(r));
      },
      (tx) => {
        if (signal?.aborted) throw new InterruptedError();
        const fresh: JournalRecord[] = [];
        for (const r of records) {
          if (theirs.size > 0 && appendedMeanwhile(r, theirs)) uncount(r);
          else fresh.push(r);
        }
        if (fresh.length > 0) tx.append(fresh, lines);
      },
      last,
    );
    appended = true;
  };
  const uncount = (r: JournalRecord) => {
    if (r.kind === 'price') summary.prices--;
    else if (r.kind === 'forecast') summary.forecasts--;
    else summary.settlements--;
  };
  /** The last batch saves the index, and runs for that alone when it is empty after others. */
  const flush = async (last = false) => {
    const records = batch;
    batch = [];
    if (!dryRun && (records.length > 0 || (last && appended))) await append(records, last);
  };
  const turn = { due: () => batch.length >= BATCH, run: () => flush() };
  const skip = (line: number, error: string) => {
    summary.skipped++;
    if (summary.problems.length < SHOWN_PROBLEMS) summary.problems.push({ line, error });
  };
  const isStored = (r: JournalRecord): boolean =>
    r.kind === 'price'
      ? prices.get(r.origin, r.symbol, '', r.t) !== undefined
      : recorded.get(r.origin, r.symbol, r.tf, r.ts) !== undefined;
  const take = (read: JournalRecord[], line: number) => {
    // A row holding a key is the record the journal would write: known by its masked text
    // (written.ts), unless it shows a stored series masked (masked.ts), which it then is.
    const records = read.map((r) => {
      const stored = masked.any ? masked.resolve(r, isStored) : r;
      return stored !== r ? stored : written.of(r);
    });
    for (const r of records) {
      if (r.kind !== 'settlement' || r.status !== 'settled') continue;
      const target =
        recorded.get(r.origin, r.symbol, r.tf, r.ts) ??
        records.find(
          (f): f is ForecastRecord => f.kind === 'forecast' && f.tf === r.tf && f.ts === r.ts && f.symbol === r.symbol,
        )?.target_t;
      if (target === undefined)
        return skip(line, 'a settlement of a forecast neither the journal nor the file before it holds');
      if (r.settle_t < target)
        return skip(line, 'settle_t is before target_t: a price from before the target is never used');
    }
    let added = false;
    for (const r of records) {
      if (r.kind === 'price') {
        if (prices.get(r.origin, r.symbol, '', r.t)) continue;
        prices.set(r.origin, r.symbol, '', r.t, true);
        summary.prices++;
      } else if (r.kind === 'forecast') {
        if (recorded.get(r.origin, r.symbol, r.tf, r.ts) !== undefined) continue;
        recorded.set(r.origin, r.symbol, r.tf, r.ts, r.target_t);
        summary.forecasts++;
      } else {
        const had = settled.get(r.origin, r.symbol, r.tf, r.ts);
        if (had === 'settled' || (had === 'unsettleable' && r.status === 'unsettleable')) continue;
        settled.set(r.origin, r.symbol, r.tf, r.ts, r.status);
        summary.settlements++;
      }
      batch.push(r);
      added = true;
    }
    if (!added) summary.duplicates++;
  };

  await readRows(path, label, format, nowS, defaultOrigin, signal, turn, {
    row: () => {
      summary.rows++;
    },
    skip,
    take,
  });
  // Not one row read: not a damaged export but some other file (nothing was written).
  if (summary.rows > 0 && summary.skipped === summary.rows) {
    const first = summary.problems[0]!;
    throw new UsageError(
      `nothing imported from ${label}: none of its ${summary.rows} row(s) could be read (line ${first.line}: ${first.error})`,
      { hint: "give a file written by 'fcast journal export' (CSV, --format tsv or --format jsonl)" },
    );
  }
  await flush(true);
  return summary;
}
