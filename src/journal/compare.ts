// `journal compare`'s read of the journal: the settled forecasts of the selection that carry
// ia2's probabilities as well as ia3's, each once per key, with its move (by the comparison's
// flat band) and its forecast's target_t (for the overlapping horizons), gathered per timeframe
// into the arrays evidence/compare/ scores. One pass through fast-lines.ts, as the report's.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { timeframeMinutes } from '../core/domain.js';
import type { CompareSample } from '../evidence/compare/compare.js';
import { noProblems, type ReadProblems } from './lines.js';
import { monthFiles } from './journal-files.js';
import { moveOf, returnPct } from './record.js';
import { openScans } from './scan-ahead.js';
import { byTimeframe, fileInRange, type JournalFilter, passes, takesAll } from './report.js';

export interface CompareScan {
  samples: CompareSample[];
  problems: ReadProblems;
  origins: Set<string | null>;
  leftOut: number;
  /** Settled forecasts of the selection left out because they lack ia2's probabilities (recorded before fcast kept every engine). */
  lackingIa2: number;
}

/**
 * How far the scan is through the month files it reads, by their sizes: a count of rows so
 * far, scaled by the bytes left, foretells a column's final length. Columns are grown to that
 * (and not doubled) because each fresh page of memory is faulted in on its first write, which
 * costs more than the copy: doubling touches about twice the memory of the final arrays, and
 * keeping rows aside to copy into arrays of the right size at the end touches twice too. A
 * foretold length too large costs address space, not memory: pages never written are never
 * faulted in.
 */
class Progress {
  /** The bytes of the files in range, of the files read in full, and (scanForReport's) of the file being read. */
  total = 0;
  done = 0;
  constructor(readonly current: Float64Array = new Float64Array(1)) {}
  /**
   * The length for a column holding `count` now, foretold from the share of bytes read: at
   * least `least`, and at most 16 times `count` (a timeframe that stops after the first month
   * of eight must not reserve eight months).
   */
  foretell(count: number, least: number): number {
    const read = this.done + this.current[0]!;
    const ahead = read > 0 ? Math.ceil(((count * this.total) / read) * 1.02) + 1024 : least;
    return Math.max(least, Math.min(16 * count, ahead));
  }
}

type Typed = Float64Array | Int32Array | Uint8Array;

/** A growable column, grown to the length its Progress foretells (at least by a quarter). */
class Column<T extends Typed = Float64Array> {
  data: T;
  length = 0;
  constructor(
    private readonly make: (n: number) => T,
    private readonly progress: Progress,
  ) {
    this.data = make(1024);
  }
  push(x: number): void {
    if (this.length === this.data.length) this.grow();
    this.data[this.length++] = x;
  }
  private grow(): void {
    const bigger = this.make(this.progress.foretell(this.length, Math.ceil(this.data.length * 1.25)));
    bigger.set(this.data as never);
    this.data = bigger;
  }
  get values(): T {
    return this.data.subarray(0, this.length) as T;
  }
}

const f64 = (n: number) => new Float64Array(n);

interface Memory {
  f64(n: number): Float64Array;
  i32(n: number): Int32Array;
  u8(n: number): Uint8Array;
}

/** Typed arrays over shared memory: a second thread reads them where they are (compare-threads.ts). */
const shared: Memory = {
  f64: (n: number) => new Float64Array(new SharedArrayBuffer(8 * n)),
  i32: (n: number) => new Int32Array(new SharedArrayBuffer(4 * n)),
  u8: (n: number) => new Uint8Array(new SharedArrayBuffer(n)),
};
const own: Memory = { f64, i32: (n: number) => new Int32Array(n), u8: (n: number) => new Uint8Array(n) };

/** A timeframe's compared forecasts, a column per field, in the order read. */
class TimeframeRows {
  readonly ts: Column;
  readonly target: Column;
  readonly symbol: Column<Int32Array>;
  readonly classes: Column<Uint8Array>;
  /** ia3's p_long, p_short, p_flat, then ia2's. */
  readonly probs: Column[];
  constructor(progress: Progress, memory: Memory) {
    this.ts = new Column(memory.f64, progress);
    this.target = new Column(memory.f64, progress);
    this.symbol = new Column(memory.i32, progress);
    this.classes = new Column(memory.u8, progress);
    this.probs = Array.from({ length: 6 }, () => new Column(memory.f64, progress));
  }
  get rows(): number {
    return this.ts.length;
  }
}

/**
 * The forecasts of one series, each time once, with its target_t and whether a settlement of it
 * has been taken: in the order read, a journal's order (ascending, most often), where a time
 * above the last is new without a lookup; a map (time to index) is made only when a time comes
 * out of order. Float64Arrays rather than arrays of numbers: a series' million times are pushed
 * without a boxed double each. A settlement is marked on its forecast (a byte), not kept as a
 * time of its own: 8 bytes a forecast fewer to fault in at a million.
 */
class SeriesTimes {
  readonly ts: Column;
  readonly target: Column;
  readonly settled: Column<Uint8Array>;
  /** Whether ts is ascending; else `byTs`, made when first needed. */
  ascending = true;
  byTs: Map<number, number> | undefined;
  /** The times of settlements that came with no forecast before them (in the file's order). */
  orphans: Set<number> | undefined;
  constructor(progress: Progress) {
    this.ts = new Column(f64, progress);
    this.target = new Column(f64, progress);
    this.settled = new Column((n) => new Uint8Array(n), progress);
  }

  /** Adds a forecast at `t` with its target_t, unless one is there already. */
  add(t: number, target: number): void {
    const n = this.ts.length;
    if (this.ascending && (n === 0 || t > this.ts.data[n - 1]!)) {
      this.push(t, target);
      return;
    }
    if (this.lookup().has(t)) return;
    this.push(t, target);
    this.ascending = false;
  }

  private push(t: number, target: number): void {
    // Once made, the map holds every time, those pushed in order too (TimeSet's rule in report.ts).
    this.byTs?.set(t, this.ts.length);
    this.ts.push(t);
    this.target.push(target);
    this.settled.push(0);
  }

  private lookup(): Map<number, number> {
    if (!this.byTs) {
      const map = new Map<number, number>();
      const xs = this.ts.data;
      for (let i = 0; i < this.ts.length; i++) map.set(xs[i]!, i);
      this.byTs = map;
    }
    return this.byTs;
  }

  /**
   * The index of the forecast at `t`, or −1 when there is none: the last first (a settlement
   * most often follows its forecast closely), then a binary search while ascending.
   */
  indexOf(t: number): number {
    if (!this.ascending) return this.byTs!.get(t) ?? -1;
    const xs = this.ts.data;
    let hi = this.ts.length - 1;
    if (hi >= 0 && xs[hi] === t) return hi;
    let lo = 0;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const x = xs[mid]!;
      if (x === t) return mid;
      if (x < t) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /**
   * Takes the settlement at `t` (true), unless one was taken already (false), and gives the
   * target_t of its forecast through `target` (NaN without one). Each time once, whether or not
   * its forecast came first: a settlement taken before its forecast is kept among the orphans.
   */
  settle(t: number): boolean {
    const at = this.indexOf(t);
    if (this.orphans?.has(t)) return false;
    if (at < 0) {
      this.orphans ??= new Set();
      this.orphans.add(t);
      this.targetT = Number.NaN;
      return true;
    }
    if (this.settled.data[at] === 1) return false;
    this.settled.data[at] = 1;
    this.targetT = this.target.data[at]!;
    return true;
  }

  /** The target_t of the forecast settle() took last (NaN: none). */
  targetT = Number.NaN;
}

interface Series {
  tf: string;
  symbol: number;
  forecasts: SeriesTimes;
  /** The timeframe's rows, which this series' settlements join. */
  out: TimeframeRows;
}

/** The month files a comparison of `filter` reads, by name. */
export const filesToCompare = (dir: string | undefined, filter: JournalFilter): string[] =>
  (dir === undefined ? [] : monthFiles(dir)).filter((file) => fileInRange(filter, file));

export function scanForCompare(
  dir: string | undefined,
  filter: JournalFilter,
  flatBandPct: number,
  /** FCAST_SCAN_AHEAD (scan-ahead.ts). */
  ahead?: string,
  /** Whether the samples' arrays are to be in shared memory, for a second thread to compare. */
  inShared = false,
): CompareScan {
  const memory = inShared ? shared : own;
  const problems = noProblems();
  const origins = new Set<string | null>();
  let leftOut = 0;
  let lackingIa2 = 0;
  const anyOrigin: JournalFilter = { ...filter, origins: undefined };
  const symbols = new Map<string, number>();
  const byTf = new Map<string, TimeframeRows>();
  const progress = new Progress();
  const files = filesToCompare(dir, filter);
  for (const file of files) progress.total += sizeOf(join(dir!, file));
  let lastOrigin: string | null = null;
  const unfiltered = takesAll(filter);
  const scans = openScans(
    files.map((file) => join(dir!, file)),
    { engines: true, targets: true, tiers: false, prices: false },
    ahead,
  );
  try {
    for (const file of files) scanFile(file);
  } finally {
    scans.close();
  }
  function scanFile(file: string): void {
    progress.current[0] = 0;
    // A series is a file's own: its columns foretold from that file's bytes alone.
    const inFile = new Progress(progress.current);
    inFile.total = sizeOf(join(dir!, file));
    const seen = new Map<string, Series>();
    const byNumber = new Map<number, Series>();
    // The series of the line before: a settlement most often follows its forecast.
    let lastNumber = -1;
    let lastSeries: Series | undefined;
    const seriesOf = (origin: string | null, symbol: string, tf: string, number: number): Series => {
      if (number >= 0) {
        if (number === lastNumber) return lastSeries!;
        const s = byNumber.get(number);
        if (s) {
          lastNumber = number;
          lastSeries = s;
          return s;
        }
      }
      const key = `${origin ?? ''}\u0000${symbol}\u0000${tf}`;
      let s = seen.get(key);
      if (!s) {
        let id = symbols.get(symbol);
        if (id === undefined) {
          id = symbols.size;
          symbols.set(symbol, id);
        }
        let out = byTf.get(tf);
        if (!out) {
          out = new TimeframeRows(progress, memory);
          byTf.set(tf, out);
        }
        s = { tf, symbol: id, forecasts: new SeriesTimes(inFile), out };
        seen.set(key, s);
      }
      if (number >= 0) byNumber.set(number, s);
      return s;
    };
    scans.scan(
      join(dir!, file),
      {
        engines: true,
        targets: true,
        bytesRead: progress.current,
        forecast(origin, symbol, tf, ts, number, targetT) {
          if (!unfiltered && !passes(filter, origin, symbol, tf, ts)) {
            if (passes(anyOrigin, origin, symbol, tf, ts)) leftOut++;
            return;
          }
          if (origin !== lastOrigin || origins.size === 0) {
            origins.add(origin);
            lastOrigin = origin;
          }
          seriesOf(origin, symbol, tf, number).forecasts.add(ts, targetT);
        },
        settlement(line, number) {
          if (line.status !== 'settled' || (!unfiltered && !passes(filter, line.origin, line.symbol, line.tf, line.ts)))
            return;
          const s = seriesOf(line.origin, line.symbol, line.tf, number);
          const f = s.forecasts;
          if (!f.settle(line.ts)) return;
          if (line.ia2 === null) {
            lackingIa2++;
            return;
          }
          const move = moveOf(returnPct(line.settle_price, line.anchor_price!), flatBandPct);
          const target = f.targetT;
          const r = s.out;
          r.ts.push(line.ts);
          r.target.push(Number.isFinite(target) ? target : line.ts + (timeframeMinutes(line.tf) ?? 0) * 60);
          r.symbol.push(s.symbol);
          r.classes.push(move === 'up' ? 0 : move === 'down' ? 1 : 2);
          const p = r.probs;
          p[0]!.push(line.p_long);
          p[1]!.push(line.p_short);
          p[2]!.push(line.p_flat);
          p[3]!.push(line.ia2.p_long);
          p[4]!.push(line.ia2.p_short);
          p[5]!.push(line.ia2.p_flat);
        },
      },
      problems,
    );
    progress.done += progress.current[0]!;
  }
  const samples = [...byTf.keys()]
    .filter((tf) => byTf.get(tf)!.rows > 0)
    .sort(byTimeframe)
    .map((tf) => sampleOf(tf, byTf.get(tf)!));
  return { samples, problems, origins, leftOut, lackingIa2 };
}

/**
 * A timeframe's rows as a sample, in time order (ts, then symbol): the columns themselves where
 * they were read in that order (a journal's, most often), else copied in their order sorted.
 */
function sampleOf(tf: string, rows: TimeframeRows): CompareSample {
  const n = rows.rows;
  const ts = rows.ts.values;
  const symbol = rows.symbol.values;
  let sorted = true;
  for (let i = 1; i < n && sorted; i++)
    if (ts[i - 1]! > ts[i]! || (ts[i - 1] === ts[i] && symbol[i - 1]! > symbol[i]!)) sorted = false;
  const columns = [rows.ts, rows.target, rows.symbol, rows.classes, ...rows.probs].map((c) => c.values);
  if (!sorted) {
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    order.sort((a, b) => ts[a]! - ts[b]! || symbol[a]! - symbol[b]!);
    for (let k = 0; k < columns.length; k++) {
      const from = columns[k]!;
      const to = new (from.constructor as new (n: number) => Typed)(n);
      for (let i = 0; i < n; i++) to[i] = from[order[i]!]!;
      columns[k] = to;
    }
  }
  const [tsOut, target, symbolOut, classes, l3, s3, f3, l2, s2, f2] = columns as [
    Float64Array,
    Float64Array,
    Int32Array,
    Uint8Array,
    ...Float64Array[],
  ];
  return {
    tf,
    ts: tsOut,
    target,
    symbol: symbolOut,
    classes,
    ia3: { p_long: l3!, p_short: s3!, p_flat: f3! },
    ia2: { p_long: l2!, p_short: s2!, p_flat: f2! },
  };
}

/** A month file's size (0 when it cannot be read: the scan then reports it as it reports any). */
function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
