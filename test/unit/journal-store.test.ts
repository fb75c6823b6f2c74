// The journal's store: one line per key whatever happens between two writers (an index lost,
// behind, or outrun by a file), torn lines ended and skipped, links refused, prune and import.
import {
  appendFileSync,
  chmodSync,
  chownSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  statSync,
  symlinkSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { importJournal } from '../../src/journal/import.js';
import { MAX_LINE, noProblems, readRecords } from '../../src/journal/lines.js';
import { pruneJournal } from '../../src/journal/prune.js';
import { forecastKey, recordLine, type ForecastRecord, type JournalRecord } from '../../src/journal/record.js';
import { EXPORT_COLUMNS, EXTRA_COLUMNS, forEachRow, type JournalRow } from '../../src/journal/rows.js';
import { appendLines, journalDirOf, monthFiles, openJournalDir } from '../../src/journal/journal-files.js';
import { journalBatches, withJournal } from '../../src/journal/store.js';
import { renderDelimited } from '../../src/output/formats/delimited.js';
import { tempDir } from '../helpers/cli.js';

/** The minutes after NOV that the records stand for. */
const minutesOf = (records: JournalRecord[]) => records.map((r) => ((r as ForecastRecord).ts - NOV) / 60);

/** What a batch after a prune of minutes 0-4 and a recorder's 20 forecasts from NOV + 1 h must hand over. */
const PRUNED_THEN_RECORDED = [5, 6, 7, 8, 9, ...Array.from({ length: 20 }, (_, i) => 60 + i)];

const NOV = Date.UTC(2026, 10, 22, 12) / 1000;

/** Where each full read of a journal file began (readRecords' `from`): what the store took in. */
const lineReads = vi.hoisted(() => [] as number[]);
vi.mock('../../src/journal/lines.js', async (original) => {
  const lines = await original<typeof import('../../src/journal/lines.js')>();
  return {
    ...lines,
    readRecords: (...args: Parameters<typeof lines.readRecords>) => {
      lineReads.push(args[1]);
      return lines.readRecords(...args);
    },
  };
});

/** Run once by journal import between its unlocked read of the journal and its first batch. */
const betweenReadAndBatch = vi.hoisted(() => ({ run: undefined as (() => Promise<void>) | undefined }));
vi.mock('../../src/journal/import-formats.js', async (original) => {
  const formats = await original<typeof import('../../src/journal/import-formats.js')>();
  return {
    ...formats,
    yieldTurn: async (signal: AbortSignal | undefined) => {
      const run = betweenReadAndBatch.run;
      betweenReadAndBatch.run = undefined;
      await run?.();
      return formats.yieldTurn(signal);
    },
  };
});

const forecastAt = (ts: number, tf = '1min', symbol = 'BTC/USD'): ForecastRecord => ({
  v: 2,
  kind: 'forecast',
  origin: 'https://api.example.com',
  symbol,
  tf,
  ts,
  horizon_min: 5,
  target_t: ts + 300,
  anchor_price: 100,
  target_price: 100.1,
  direction: 'long',
  p_long: 0.5,
  p_short: 0.4,
  p_flat: 0.1,
  tier: 'free',
  delay_min: 15,
  server_t: ts + 900,
  recorded_at: ts + 901,
});

/** What a recorder does: append those not yet recorded. */
async function record(data: string, forecasts: ForecastRecord[]): Promise<number> {
  return withJournal(data, (tx) => {
    const fresh = forecasts.filter((f) => !tx.hasForecast(f));
    if (fresh.length) tx.append(fresh);
    return fresh.length;
  });
}

function everything(data: string): JournalRecord[] {
  const all: JournalRecord[] = [];
  const dir = journalDirOf(data);
  for (const file of monthFiles(dir)) readRecords(join(dir, file), 0, (r) => all.push(r), noProblems());
  return all;
}

function keysOnce(data: string): void {
  const keys = everything(data)
    .filter((r) => r.kind === 'forecast')
    .map((r) => forecastKey(r as ForecastRecord));
  expect(new Set(keys).size).toBe(keys.length);
}

const minutes = (from: number, n: number) => Array.from({ length: n }, (_, i) => forecastAt(from + i * 60));

describe('recording', () => {
  it('creates the journal 0700 with files 0600, and writes each key once however often it is shown', async () => {
    const data = join(tempDir(), 'data');
    expect(await record(data, minutes(NOV, 10))).toBe(10);
    expect(await record(data, minutes(NOV + 300, 10))).toBe(5);
    const dir = journalDirOf(data);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, '2026-11.jsonl')).mode & 0o777).toBe(0o600);
    expect(everything(data)).toHaveLength(15);
  });

  it('records two forecasts whose symbol and timeframe differ only in where a tab falls, each once', async () => {
    const data = join(tempDir(), 'data');
    // One series key when the parts were joined raw: the second read as recorded already.
    const first = forecastAt(NOV, 'c', 'a\tb');
    const second = forecastAt(NOV, 'b\tc', 'a');
    expect(await record(data, [first])).toBe(1);
    expect(await record(data, [second])).toBe(1);
    expect(await record(data, [first, second])).toBe(0);
    // And so from an index rebuilt from the files.
    unlinkSync(join(journalDirOf(data), 'index.json'));
    expect(await record(data, [first, second])).toBe(0);
    expect(everything(data).map((r) => [r.symbol, (r as ForecastRecord).tf])).toEqual([
      ['a\tb', 'c'],
      ['a', 'b\tc'],
    ]);
  });

  it('loses nothing and duplicates nothing when the index is deleted, damaged, behind or outrun', async () => {
    const data = join(tempDir(), 'data');
    const dir = journalDirOf(data);
    await record(data, minutes(NOV, 10));
    unlinkSync(join(dir, 'index.json'));
    expect(await record(data, minutes(NOV, 12))).toBe(2);
    writeFileSync(join(dir, 'index.json'), '{"v":1,"flo');
    expect(await record(data, minutes(NOV, 13))).toBe(1);
    // A writer killed after its append, before saving the index: the next one takes the tail in.
    appendFileSync(
      join(dir, '2026-11.jsonl'),
      minutes(NOV + 13 * 60, 2)
        .map(recordLine)
        .join(''),
    );
    expect(await record(data, minutes(NOV, 16))).toBe(1);
    // A file shorter than the index says (rewritten, or cut by a crash): rebuilt from the files.
    const path = join(dir, '2026-11.jsonl');
    truncateSync(path, statSync(path).size - recordLine(forecastAt(NOV + 15 * 60)).length);
    expect(await record(data, minutes(NOV, 16))).toBe(1);
    keysOnce(data);
    expect(everything(data)).toHaveLength(16);
  });

  it('rebuilds an index that is valid JSON with a bad entry, and loses or duplicates nothing', async () => {
    const data = join(tempDir(), 'data');
    const index = join(journalDirOf(data), 'index.json');
    await record(data, minutes(NOV, 10));
    const damage: Array<(i: any) => void> = [
      (i) => (i.series.x = null),
      (i) => (i.series['https://api.example.com\tBTC/USD\t1min'].ts = ['a']),
      (i) => (i.series['https://api.example.com\tBTC/USD\t1min'].floor = 'x'),
      (i) => (i.series = []),
      (i) => (i.prices.x = 5),
      (i) => (i.files['2026-11.jsonl'] = 'x'),
      (i) => (i.open = [[1, 2]]),
      (i) => (i.open = [['https://api.example.com', 'BTC/USD', '1min', 'ts', 0, 100, 'long', 0.5, 0.4, 0.1]]),
      (i) => (i.open = 'nope'),
    ];
    for (const [k, harm] of damage.entries()) {
      const saved = JSON.parse(readFileSync(index, 'utf8'));
      harm(saved);
      writeFileSync(index, JSON.stringify(saved));
      expect(await record(data, minutes(NOV, 11 + k)), String(harm)).toBe(1);
      // Rebuilt: the index saved is whole again.
      expect(readFileSync(index, 'utf8')).not.toContain('null');
    }
    keysOnce(data);
    expect(everything(data)).toHaveLength(10 + damage.length);
  });

  it('finds a key older than the index keeps, in its month file', async () => {
    const data = join(tempDir(), 'data');
    const old = forecastAt(Date.UTC(2026, 7, 1) / 1000);
    await record(data, [old]);
    // Weeks of forecasts later, the index has let the August key go...
    await record(data, minutes(NOV, 3));
    for (let k = 1; k <= 3; k++) await record(data, minutes(NOV + k * 86_400, 2));
    // ...and still knows it is there.
    expect(await record(data, [old])).toBe(0);
    keysOnce(data);
    expect(monthFiles(journalDirOf(data))).toEqual(['2026-08.jsonl', '2026-11.jsonl']);
  });

  it('ends a torn last line before appending, so the new lines stay whole and the torn one is skipped', async () => {
    const data = join(tempDir(), 'data');
    await record(data, minutes(NOV, 2));
    const path = join(journalDirOf(data), '2026-11.jsonl');
    appendFileSync(path, recordLine(forecastAt(NOV + 600)).slice(0, 50));
    expect(await record(data, minutes(NOV, 4))).toBe(2);
    const problems = noProblems();
    const read: JournalRecord[] = [];
    readRecords(path, 0, (r) => read.push(r), problems);
    expect(read).toHaveLength(4);
    expect(problems.damaged).toBe(1);
  });

  it('refuses a month file that is a symbolic link, and a journal directory others may write', async () => {
    const data = join(tempDir(), 'data');
    await record(data, minutes(NOV, 1));
    const dir = journalDirOf(data);
    const elsewhere = join(tempDir(), 'elsewhere.jsonl');
    writeFileSync(elsewhere, '');
    symlinkSync(elsewhere, join(dir, '2026-12.jsonl'));
    await expect(record(data, minutes(NOV, 2))).rejects.toThrow(/2026-12.jsonl is a symbolic link/);
    expect(readFileSync(elsewhere, 'utf8')).toBe('');
    unlinkSync(join(dir, '2026-12.jsonl'));
    chmodSync(dir, 0o777);
    await expect(record(data, minutes(NOV, 2))).rejects.toThrow(
      /writable by others \(mode 0777\); not used for the journal/,
    );
    chmodSync(dir, 0o700);
  });

  it('breaks the lock of a recorder killed while holding it', async () => {
    const data = join(tempDir(), 'data');
    await record(data, minutes(NOV, 1));
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeFileSync(
      join(journalDirOf(data), 'journal.lock'),
      JSON.stringify({ pid: dead, host: hostname(), token: 'x' }),
    );
    const started = Date.now();
    expect(await record(data, minutes(NOV, 2))).toBe(1);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('removes the index temp files of writers killed before their rename, and leaves a live one’s', async () => {
    const data = join(tempDir(), 'data');
    await record(data, minutes(NOV, 1));
    const dir = journalDirOf(data);
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeFileSync(join(dir, `index.json.tmp-${dead}`), '{"half": ');
    // The parent of this test process lives as long as the test runs.
    writeFileSync(join(dir, `index.json.tmp-${process.ppid}`), '{}');
    expect(await record(data, minutes(NOV + 60, 1))).toBe(1);
    expect(readdirSync(dir).sort()).toEqual(['2026-11.jsonl', 'index.json', `index.json.tmp-${process.ppid}`]);
  });

  it('records what it appended even when the index cannot be saved after (a disk full by then): the index is a cache', async () => {
    const data = join(tempDir(), 'data');
    await record(data, minutes(NOV, 1));
    const dir = journalDirOf(data);
    // Where this process would write the index's temp file, something that cannot be replaced.
    const blocker = join(dir, `index.json.tmp-${process.pid}`);
    mkdirSync(blocker);
    expect(await record(data, minutes(NOV + 60, 2))).toBe(2);
    rmdirSync(blocker);
    // The next writer takes in what the saved index missed: nothing twice, nothing lost.
    expect(await record(data, minutes(NOV, 4))).toBe(1);
    keysOnce(data);
    expect(everything(data).filter((r) => r.kind === 'forecast')).toHaveLength(4);
  });

  it('a writer of many batches reads what others appended once, saves the index when others write or at its last, and loses nothing if killed', async () => {
    const data = join(tempDir(), 'data');
    const dir = journalDirOf(data);
    const month = join(dir, '2026-11.jsonl');
    const index = () => readFileSync(join(dir, 'index.json'), 'utf8');
    await record(data, minutes(NOV, 3));
    const batches = journalBatches(
      data,
      new Map([['2026-11.jsonl', { size: statSync(month).size, ino: statSync(month).ino }]]),
    );
    const theirs: JournalRecord[] = [];
    const take = (r: JournalRecord) => theirs.push(r);
    let saved = index();
    await batches.batch(take, (tx) => tx.append(minutes(NOV + 600, 2)), false);
    expect(theirs).toEqual([]);
    // Alone: the index is not saved after every batch.
    expect(index()).toBe(saved);
    // Another writer between two batches: its lines are handed over once, by one read, and
    // the index is saved after the batch (the other would read this batch on its next run).
    await record(data, minutes(NOV + 1200, 2));
    saved = index();
    const from = statSync(month).size - 2 * recordLine(forecastAt(NOV + 1200)).length;
    lineReads.length = 0;
    await batches.batch(take, (tx) => tx.append(minutes(NOV + 1800, 1)), false);
    expect(theirs.map((r) => (r as ForecastRecord).ts)).toEqual([NOV + 1200, NOV + 1260]);
    expect(lineReads).toEqual([from]);
    expect(index()).not.toBe(saved);
    // And after the next ones: a recorder seen lately is still about.
    saved = index();
    await batches.batch(take, (tx) => tx.append(minutes(NOV + 2400, 1)), false);
    expect(index()).not.toBe(saved);
    // Killed after an append the index lacks (as if saved before it).
    writeFileSync(join(dir, 'index.json'), saved);
    // Killed here: the next writer catches up on the batch the saved index lacks.
    expect(await record(data, minutes(NOV, 40))).toBe(40 - 8);
    keysOnce(data);
    theirs.length = 0;
    await batches.batch(take, () => {}, true);
    expect(theirs).toHaveLength(40 - 8);
    expect(JSON.parse(index()).files).toEqual({ '2026-11.jsonl': statSync(month).size });
    // The index it saved holds what it caught up on, as well as what it wrote.
    expect(await record(data, [...minutes(NOV, 41), ...minutes(NOV + 1800, 1)])).toBe(0);
    keysOnce(data);
  });

  it('a writer of many batches hands over a month file rewritten by a prune between two of them whole', async () => {
    const data = join(tempDir(), 'data');
    const month = join(journalDirOf(data), '2026-11.jsonl');
    await record(data, minutes(NOV, 10));
    const batches = journalBatches(
      data,
      new Map([['2026-11.jsonl', { size: statSync(month).size, ino: statSync(month).ino }]]),
    );
    const theirs: JournalRecord[] = [];
    await batches.batch(
      (r) => theirs.push(r),
      (tx) => tx.append(minutes(NOV + 600, 2)),
      false,
    );
    await pruneJournal(data, NOV + 300, false);
    // Shorter now, then longer than the batches saw: by its inode, not its length.
    await record(data, minutes(NOV + 3600, 20));
    expect(statSync(month).size).toBeGreaterThan(recordLine(forecastAt(NOV)).length * 12);
    await batches.batch(
      (r) => theirs.push(r),
      () => {},
      true,
    );
    expect(theirs.map((r) => ((r as ForecastRecord).ts - NOV) / 60)).toEqual([
      5,
      6,
      7,
      8,
      9,
      10,
      11,
      ...Array.from({ length: 20 }, (_, i) => 60 + i),
    ]);
    expect(await record(data, minutes(NOV + 300, 7))).toBe(0);
    keysOnce(data);
  });

  it('a writer of many batches notices a prune replacing a month file its own batch created', async () => {
    const data = join(tempDir(), 'data');
    const month = join(journalDirOf(data), '2026-11.jsonl');
    const batches = journalBatches(data, new Map());
    const theirs: JournalRecord[] = [];
    await batches.batch(
      (r) => theirs.push(r),
      (tx) => tx.append(minutes(NOV, 10)),
      false,
    );
    await pruneJournal(data, NOV + 300, false);
    await record(data, minutes(NOV + 3600, 20));
    expect(statSync(month).size).toBeGreaterThan(recordLine(forecastAt(NOV)).length * 10);
    await batches.batch(
      (r) => theirs.push(r),
      () => {},
      true,
    );
    expect(minutesOf(theirs)).toEqual(PRUNED_THEN_RECORDED);
  });

  it('a writer of many batches notices a prune replacing a month file between its unlocked read and its first batch', async () => {
    const data = join(tempDir(), 'data');
    const month = join(journalDirOf(data), '2026-11.jsonl');
    await record(data, minutes(NOV, 10));
    // The unlocked read: the file's length and inode, from the descriptor it read.
    let ino = 0;
    const size = readRecords(
      month,
      0,
      () => {},
      noProblems(),
      (stat) => (ino = stat.ino),
    );
    expect(ino).toBe(statSync(month).ino);
    const batches = journalBatches(data, new Map([['2026-11.jsonl', { size, ino }]]));
    // 5 lines cut, another inode; then 20 appended: longer than read, by more than was cut.
    await pruneJournal(data, NOV + 300, false);
    expect(statSync(month).ino).not.toBe(ino);
    await record(data, minutes(NOV + 3600, 20));
    expect(statSync(month).size).toBeGreaterThan(size);
    const theirs: JournalRecord[] = [];
    await batches.batch(
      (r) => theirs.push(r),
      () => {},
      true,
    );
    expect(minutesOf(theirs)).toEqual(PRUNED_THEN_RECORDED);
  });

  it('journal import appends nothing twice and misses nothing when a prune and a recorder run before its first batch', async () => {
    const data = join(tempDir(), 'data');
    const month = join(journalDirOf(data), '2026-11.jsonl');
    await record(data, minutes(NOV, 10));
    const file = join(tempDir(), 'big.jsonl');
    writeFileSync(
      file,
      minutes(NOV + 3600, 30)
        .map(recordLine)
        .join(''),
    );
    const read = statSync(month);
    // After the import has read the month file without the lock: a prune cuts 5 lines (another
    // inode), then a recorder appends 20, the first 20 of the import's 30.
    betweenReadAndBatch.run = async () => {
      await pruneJournal(data, NOV + 300, false);
      await record(data, minutes(NOV + 3600, 20));
      expect(statSync(month).ino).not.toBe(read.ino);
      expect(statSync(month).size).toBeGreaterThan(read.size);
    };
    const summary = await importJournal(data, file, NOV + 7200);
    expect(betweenReadAndBatch.run).toBeUndefined();
    expect(summary).toMatchObject({ rows: 30, forecasts: 10, duplicates: 0, skipped: 0 });
    keysOnce(data);
    expect(
      everything(data)
        .filter((r): r is ForecastRecord => r.kind === 'forecast')
        .map((r) => (r.ts - NOV) / 60),
    ).toEqual([5, 6, 7, 8, 9, ...Array.from({ length: 30 }, (_, i) => 60 + i)]);
  });

  it('appendLines adds whole lines and says where the file ends', () => {
    const path = join(tempDir(), 'a.jsonl');
    expect(appendLines(path, 'x\n')).toBe(2);
    writeFileSync(path, 'torn');
    expect(appendLines(path, 'y\n')).toBe(7);
    expect(readFileSync(path, 'utf8')).toBe('torn\ny\n');
  });
});

describe('prune', () => {
  it('removes what is dated before the date, keeps the rest byte for byte, and leaves no duplicate after', async () => {
    const data = join(tempDir(), 'data');
    const oct = Date.UTC(2026, 9, 31, 23, 58) / 1000;
    await record(data, minutes(oct, 5)); // 2 in October, 3 in November
    await record(data, minutes(NOV, 3));
    const dir = journalDirOf(data);
    const novBefore = readFileSync(join(dir, '2026-11.jsonl'), 'utf8');
    const dry = await pruneJournal(data, Date.UTC(2026, 10, 1, 0, 0, 30) / 1000, true);
    expect(dry).toMatchObject({
      removed: 3,
      kept: 5,
      files_removed: ['2026-10.jsonl'],
      files_rewritten: ['2026-11.jsonl'],
    });
    expect(monthFiles(dir)).toEqual(['2026-10.jsonl', '2026-11.jsonl']);
    await pruneJournal(data, Date.UTC(2026, 10, 1, 0, 0, 30) / 1000, false);
    expect(monthFiles(dir)).toEqual(['2026-11.jsonl']);
    const novAfter = readFileSync(join(dir, '2026-11.jsonl'), 'utf8');
    expect(novBefore.endsWith(novAfter)).toBe(true);
    expect(await record(data, minutes(NOV, 3))).toBe(0);
    expect(everything(data)).toHaveLength(5);
  });
});

describe('prune and what it leaves', () => {
  it('keeps a torn last line byte for byte, counted as kept, in a month it rewrites', async () => {
    const data = join(tempDir(), 'data');
    await record(data, minutes(NOV, 4));
    const path = join(journalDirOf(data), '2026-11.jsonl');
    const torn = recordLine(forecastAt(NOV + 600)).slice(0, 50);
    appendFileSync(path, torn);
    const before = readFileSync(path, 'utf8');
    const summary = await pruneJournal(data, NOV + 120, false);
    expect(summary).toMatchObject({ removed: 2, kept: 3, files_rewritten: ['2026-11.jsonl'] });
    const after = readFileSync(path, 'utf8');
    expect(after.endsWith(torn)).toBe(true);
    expect(before.endsWith(after)).toBe(true);
    // Still one torn line to readers, and the next writer ends it before appending.
    expect(await record(data, minutes(NOV + 240, 1))).toBe(1);
    const problems = noProblems();
    const read: JournalRecord[] = [];
    readRecords(path, 0, (r) => read.push(r), problems);
    expect([read.length, problems.damaged]).toEqual([3, 1]);
  });

  it('keeps a line longer than a read whole, and leaves a file with one over MAX_LINE as it is (exit 3 naming it)', async () => {
    const data = join(tempDir(), 'data');
    await record(data, minutes(NOV, 4));
    const path = join(journalDirOf(data), '2026-11.jsonl');
    // A forecast whose tier a server (or an import) made long: 300 KB, past the 128 KiB read.
    const long = recordLine({ ...forecastAt(NOV + 600), tier: 'x'.repeat(300_000) });
    appendFileSync(path, long);
    await record(data, minutes(NOV + 660, 1));
    expect(await pruneJournal(data, NOV + 120, false)).toMatchObject({ removed: 2, kept: 4 });
    expect(
      readFileSync(path, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => l.length),
    ).toEqual([
      recordLine(forecastAt(NOV + 120)).length - 1,
      recordLine(forecastAt(NOV + 180)).length - 1,
      long.length - 1,
      recordLine(forecastAt(NOV + 660)).length - 1,
    ]);
    // Past MAX_LINE a line is read as its first bytes alone: prune would cut it short.
    appendFileSync(path, `${'y'.repeat(MAX_LINE + 10)}\n`);
    const before = readFileSync(path);
    await expect(pruneJournal(data, NOV + 180, false)).rejects.toThrow(
      `journal: ${path} holds a line longer than 4 MiB; prune leaves the file as it is`,
    );
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('removes the month temp files of a prune killed before its rename, of any month, and leaves a live one’s', async () => {
    const data = join(tempDir(), 'data');
    await record(data, minutes(NOV, 4));
    const dir = journalDirOf(data);
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    // October was being rewritten when its prune was killed; this prune rewrites no month at all.
    writeFileSync(join(dir, `2026-10.jsonl.tmp-${dead}-a`), 'half of October');
    writeFileSync(join(dir, `2026-11.jsonl.tmp-${dead}-b`), 'half of November');
    // The parent of this test process lives as long as the test runs.
    const live = `2026-11.jsonl.tmp-${process.ppid}-c`;
    writeFileSync(join(dir, live), 'a write in progress');
    const summary = await pruneJournal(data, NOV - 86_400 * 40, false);
    expect(summary).toMatchObject({ removed: 0, files_rewritten: [] });
    expect(readdirSync(dir).sort()).toEqual(['2026-11.jsonl', live, 'index.json']);
  });

  it('builds the index afresh from the files it rewrote, without first taking in what it was behind', async () => {
    const data = join(tempDir(), 'data');
    await record(data, minutes(NOV, 4));
    // A writer killed after its append, before saving the index: the index is behind the file.
    appendFileSync(
      join(journalDirOf(data), '2026-11.jsonl'),
      minutes(NOV + 240, 2)
        .map(recordLine)
        .join(''),
    );
    lineReads.splice(0);
    await pruneJournal(data, NOV + 120, false);
    // The rebuild reads each file from its start; a catch-up would have read the tail too.
    expect(lineReads.filter((from) => from > 0)).toEqual([]);
    expect(lineReads.length).toBeGreaterThan(0);
    expect(await record(data, minutes(NOV + 120, 4))).toBe(0);
    keysOnce(data);
  });
});

describe('export and import', () => {
  async function journalWithSettlements(): Promise<string> {
    const data = join(tempDir(), 'data');
    const fs = minutes(NOV, 4);
    await withJournal(data, (tx) => {
      tx.append([
        ...fs,
        {
          v: 2,
          kind: 'settlement',
          origin: 'https://api.example.com',
          symbol: 'BTC/USD',
          tf: '1min',
          ts: NOV,
          direction: 'long',
          p_long: 0.5,
          p_short: 0.4,
          p_flat: 0.1,
          anchor_price: 100,
          status: 'settled',
          settle_price: 100.5,
          settle_t: NOV + 300,
          settle_source: 'price',
          return_pct: 0.5,
          outcome: 'win',
          move: 'up',
          flat_band_pct: 0.01,
          settled_at: NOV + 400,
        },
        {
          v: 2,
          kind: 'settlement',
          origin: 'https://api.example.com',
          symbol: 'BTC/USD',
          tf: '1min',
          ts: NOV + 60,
          direction: 'long',
          p_long: 0.5,
          p_short: 0.4,
          p_flat: 0.1,
          anchor_price: 100,
          status: 'unsettleable',
          reason: 'no price',
          settled_at: NOV + 400,
        },
      ]);
    });
    return data;
  }

  const rowsOf = (data: string): JournalRow[] => {
    const rows: JournalRow[] = [];
    forEachRow(journalDirOf(data), {}, 0.01, (r) => rows.push(r));
    return rows;
  };

  it('an export read back by import is the same journal, and importing it again adds nothing', async () => {
    const data = await journalWithSettlements();
    const rows = rowsOf(data);
    expect(rows.map((r) => r.status)).toEqual(['settled', 'unsettleable', 'open', 'open']);
    const header = [...EXPORT_COLUMNS, ...EXTRA_COLUMNS];
    const file = join(tempDir(), 'export.csv');
    writeFileSync(
      file,
      renderDelimited(
        'csv',
        header,
        rows.map((r) => header.map((c) => r[c])),
      ),
    );
    const other = join(tempDir(), 'other');
    const first = await importJournal(other, file, NOV + 1000);
    expect(first).toMatchObject({ format: 'csv', rows: 4, forecasts: 4, settlements: 2, skipped: 0 });
    const back = rowsOf(other);
    expect(back).toEqual(rows);
    expect(await importJournal(other, file, NOV + 2000)).toMatchObject({ forecasts: 0, settlements: 0, duplicates: 4 });
    expect(await importJournal(data, file, NOV + 2000)).toMatchObject({ forecasts: 0, settlements: 0, duplicates: 4 });
  });

  it('takes the columns in any order, ignores others, and reads the JSON Lines export too', async () => {
    const data = await journalWithSettlements();
    const rows = rowsOf(data);
    const header = ['note', ...[...EXPORT_COLUMNS].reverse()];
    const file = join(tempDir(), 'shuffled.csv');
    writeFileSync(
      file,
      renderDelimited(
        'csv',
        header,
        rows.map((r) => header.map((c) => (c === 'note' ? '=1+1' : r[c as keyof JournalRow]))),
      ),
    );
    const other = join(tempDir(), 'other');
    expect(await importJournal(other, file, NOV)).toMatchObject({ forecasts: 4, settlements: 2, skipped: 0 });
    expect(rowsOf(other).map((r) => [r.ts, r.status, r.settle_price])).toEqual(
      rows.map((r) => [r.ts, r.status, r.settle_price]),
    );
    const jsonl = join(tempDir(), 'export.jsonl');
    writeFileSync(jsonl, rows.map((r) => JSON.stringify(r)).join('\n'));
    const third = join(tempDir(), 'third');
    expect(await importJournal(third, jsonl, NOV)).toMatchObject({ format: 'jsonl', forecasts: 4, settlements: 2 });
    expect(rowsOf(third)).toEqual(rows);
  });

  it('refuses a file without the export columns (exit 2), and skips a bad row naming its line', async () => {
    const bad = join(tempDir(), 'bad.csv');
    writeFileSync(bad, 'symbol,tf\nBTC/USD,1h\n');
    await expect(importJournal(join(tempDir(), 'd'), bad, NOV)).rejects.toThrow(/no column ts, horizon_min/);
    const data = await journalWithSettlements();
    const rows = rowsOf(data);
    const header = [...EXPORT_COLUMNS];
    const file = join(tempDir(), 'one-bad.csv');
    const cells = rows.map((r) => header.map((c) => r[c]));
    cells[1]![2] = 'yesterday';
    writeFileSync(file, renderDelimited('csv', header, cells));
    const got = await importJournal(join(tempDir(), 'e'), file, NOV);
    expect(got).toMatchObject({ forecasts: 3, skipped: 1, problems: [{ line: 3, error: 'bad ts' }] });
  });

  describe('one validation for every import format', () => {
    // Measured before: a JSON Lines settlement with anchor 100, close 50, long and "outcome":"win"
    // was stored as a win, and one closing before its target_t as settled; as CSV rows the same
    // were recomputed or refused.
    const lines = (records: object[]) => {
      const file = join(tempDir(), 'lines.jsonl');
      writeFileSync(file, records.map((r) => JSON.stringify(r)).join('\n'));
      return file;
    };
    const settlement = (over: object) => ({
      v: 2,
      kind: 'settlement',
      origin: 'https://api.example.com',
      symbol: 'BTC/USD',
      tf: '1min',
      ts: NOV,
      direction: 'long',
      p_long: 0.5,
      p_short: 0.4,
      p_flat: 0.1,
      anchor_price: 100,
      status: 'settled',
      settle_price: 50,
      settle_t: NOV + 300,
      settle_source: 'price',
      return_pct: 12,
      outcome: 'win',
      move: 'up',
      flat_band_pct: 0.01,
      settled_at: NOV + 400,
      ...over,
    });

    it("recomputes a journal line's return, move and outcome from its prices", async () => {
      const data = join(tempDir(), 'data');
      const got = await importJournal(data, lines([forecastAt(NOV), settlement({})]), NOV);
      expect(got).toMatchObject({ forecasts: 1, settlements: 1, skipped: 0 });
      const [stored] = everything(data).filter((r) => r.kind === 'settlement');
      expect(stored).toMatchObject({ return_pct: -50, move: 'down', outcome: 'loss' });
      expect(rowsOf(data).map((r) => [r.status, r.outcome])).toEqual([['settled', 'loss']]);
    });

    it('refuses a journal line closing before its target_t, or settling a forecast it cannot see', async () => {
      const data = join(tempDir(), 'data');
      const early = settlement({ settle_t: NOV + 59 });
      const stray = settlement({ ts: NOV + 600 });
      const got = await importJournal(data, lines([forecastAt(NOV), early, stray]), NOV);
      expect(got).toMatchObject({
        forecasts: 1,
        settlements: 0,
        skipped: 2,
        problems: [
          { line: 2, error: 'settle_t is before target_t: a price from before the target is never used' },
          { line: 3, error: 'a settlement of a forecast neither the journal nor the file before it holds' },
        ],
      });
      expect(rowsOf(data).map((r) => r.status)).toEqual(['open']);
    });

    it("checks an export row's server time, settling time and band as a journal line's", async () => {
      const data = await journalWithSettlements();
      const settled = rowsOf(data).find((r) => r.status === 'settled')!;
      const importRow = async (over: Partial<Record<string, unknown>>) => {
        const file = join(tempDir(), 'row.jsonl');
        writeFileSync(file, JSON.stringify({ ...settled, ...over }));
        const target = join(tempDir(), 'data');
        const got = await importJournal(target, file, NOV + 99_000);
        return { got, stored: everything(target).filter((r) => r.kind !== 'price') };
      };
      // Carried: the server's clock, when it was settled, its band (a settlement at 0.25).
      const kept = await importRow({ server_t: NOV + 5, settled_at: NOV + 7_000, settle_flat_band_pct: 0.25 });
      expect(kept.stored).toMatchObject([{ server_t: NOV + 5 }, { settled_at: NOV + 7_000, flat_band_pct: 0.25 }]);
      // Missing or empty (an older export): no server time, the import's time, the default band.
      const older = await importRow({ server_t: null, settled_at: undefined, settle_flat_band_pct: undefined });
      expect(older.stored).toMatchObject([{ server_t: null }, { settled_at: NOV + 99_000, flat_band_pct: 0.01 }]);
      // A band that is none, or out of [0, 100], is the default, as in a journal line.
      for (const band of ['xyz', -5, 500])
        expect((await importRow({ settle_flat_band_pct: band })).stored[1]).toMatchObject({ flat_band_pct: 0.01 });
      // A time that is there must be one: the row is refused, naming it (a file of no good row: exit 2).
      for (const [column, value] of [
        ['server_t', 'abc'],
        ['settled_at', -5],
        ['settled_at', 1.5],
      ] as const)
        await expect(importRow({ [column]: value })).rejects.toThrow(`line 1: bad ${column} (epoch seconds, or empty)`);
    });

    it('names the origin the user gives to rows without one, and refuses one that is no URL', async () => {
      const data = await journalWithSettlements();
      const rows = rowsOf(data).map(({ origin: _origin, ...r }) => r);
      const file = join(tempDir(), 'old-export.jsonl');
      writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n'));
      const other = join(tempDir(), 'other');
      await importJournal(other, file, NOV, { origin: 'https://old.example' });
      expect(new Set(everything(other).map((r) => r.origin))).toEqual(new Set(['https://old.example']));
      const bad = join(tempDir(), 'bad-origin.jsonl');
      writeFileSync(bad, rows.map((r) => JSON.stringify({ ...r, origin: 'not a url' })).join('\n'));
      await expect(importJournal(join(tempDir(), 'x'), bad, NOV)).rejects.toThrow(/bad origin/);
    });
  });
});

describe('the data directory', () => {
  it('follows the config directory’s rules: refused when others may write it or another user owns it', async () => {
    const data = join(tempDir(), 'data');
    await record(data, minutes(NOV, 1));
    chmodSync(data, 0o777);
    await expect(record(data, minutes(NOV + 60, 1))).rejects.toThrow(
      `journal: the data directory ${data} is writable by others (mode 0777); not used for the journal`,
    );
    expect(() => openJournalDir(data, { create: false })).toThrow(/writable by others/);
    chmodSync(data, 0o720);
    await expect(record(data, minutes(NOV + 60, 1))).rejects.toThrow(/is writable by its group \(mode 0720\)/);
    chmodSync(data, 0o700);
    expect(await record(data, minutes(NOV + 60, 1))).toBe(1);
    // Another user's (root can hand it over): refused, whatever its mode.
    if (process.getuid?.() === 0) {
      chownSync(data, 12345, 12345);
      await expect(record(data, minutes(NOV + 120, 1))).rejects.toThrow(/belongs to another user \(uid 12345\)/);
      chownSync(data, 0, 0);
    }
  });

  it('is created level by level with 0700, and a file in its way is a clear error', async () => {
    const base = tempDir();
    await record(join(base, 'a', 'b'), minutes(NOV, 1));
    expect(statSync(join(base, 'a')).mode & 0o777).toBe(0o700);
    writeFileSync(join(base, 'file'), '');
    await expect(record(join(base, 'file'), minutes(NOV, 1))).rejects.toThrow(/^journal: cannot write .*ENOTDIR/);
    await expect(record(join(base, 'file', 'x'), minutes(NOV, 1))).rejects.toThrow(/^journal: cannot write .*ENOTDIR/);
  });
});
