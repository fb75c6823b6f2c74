// `journal compare`'s read of the journal: the settled forecasts of the selection that carry
// ia2's probabilities as well as ia3's, each once per key, with its move (by the comparison's
// flat band) and its forecast's target_t (for the overlapping horizons), gathered per timeframe
// into the arrays evidence/compare/ scores. One pass through fast-lines.ts, as the report's.
import { join } from 'node:path';
import { timeframeMinutes } from '../core/domain.js';
import type { CompareSample } from '../evidence/compare/compare.js';
import { scanForReport } from './fast-lines.js';
import { noProblems, type ReadProblems } from './lines.js';
import { monthFiles } from './journal-files.js';
import { moveOf, returnPct } from './record.js';
import { byTimeframe, fileInRange, type JournalFilter, passes } from './report.js';

export interface CompareScan {
  samples: CompareSample[];
  problems: ReadProblems;
  origins: Set<string | null>;
  leftOut: number;
  /** Settled forecasts of the selection left out because they lack ia2's probabilities (recorded before fcast kept every engine). */
  lackingIa2: number;
}

/** A growable column of doubles. */
class Column {
  data = new Float64Array(1024);
  length = 0;
  push(x: number): void {
    if (this.length === this.data.length) this.grow();
    this.data[this.length++] = x;
  }
  private grow(): void {
    const bigger = new Float64Array(this.data.length * 2);
    bigger.set(this.data);
    this.data = bigger;
  }
  get values(): Float64Array {
    return this.data.subarray(0, this.length);
  }
}

/** Rows of TF_ROW doubles in chunks of 2^13 rows: a timeframe's million never copied to grow. */
class RowStore {
  static readonly SHIFT = 13;
  readonly chunks: Float64Array[] = [];
  rows = 0;
  /** The chunk and offset of the row `add` made. */
  chunk: Float64Array = new Float64Array(0);
  at = 0;
  add(): void {
    const within = this.rows & ((1 << RowStore.SHIFT) - 1);
    if (within === 0) this.chunks.push(new Float64Array((1 << RowStore.SHIFT) * TF_ROW));
    this.chunk = this.chunks[this.chunks.length - 1]!;
    this.at = within * TF_ROW;
    this.rows++;
  }
  /** The offset of row i in its chunk, and the chunk. */
  chunkOf(i: number): Float64Array {
    return this.chunks[i >> RowStore.SHIFT]!;
  }
  offsetOf(i: number): number {
    return (i & ((1 << RowStore.SHIFT) - 1)) * TF_ROW;
  }
}

/**
 * A settlement's fields, side by side in its timeframe's column (a row of TF_ROW doubles): ts, class, ia3's
 * p_long, p_short, p_flat, ia2's; then, on a timeframe's rows, target_t and the symbol's number.
 */
const TS = 0;
const CLS = 1;
const PROBS = 2;
const TARGET = 8;
const SYMBOL = 9;
const TF_ROW = 10;

/**
 * The times (and, for forecasts, the target_t) of one series, each once: in the order read, a
 * journal's order (ascending, most often), where a time above the last is new without a lookup;
 * a map is made only when a time comes out of order. A Float64Array rather than TimeSet's array
 * of numbers: a series' million times are pushed without a boxed double each.
 */
class SeriesTimes {
  readonly ts = new Column();
  readonly target: Column | undefined;
  /** Whether ts is ascending; else `byTs`, made when first needed. */
  ascending = true;
  byTs: Map<number, number> | undefined;
  constructor(withTargets: boolean) {
    this.target = withTargets ? new Column() : undefined;
  }

  /** Adds `t` (with its target_t); false when it was there already. */
  add(t: number, target: number): boolean {
    const n = this.ts.length;
    if (this.ascending && (n === 0 || t > this.ts.data[n - 1]!)) {
      this.ts.push(t);
      this.target?.push(target);
      return true;
    }
    const map = this.lookup();
    if (map.has(t)) return false;
    map.set(t, target);
    this.ts.push(t);
    this.target?.push(target);
    this.ascending = false;
    return true;
  }

  private lookup(): Map<number, number> {
    if (!this.byTs) {
      const map = new Map<number, number>();
      const xs = this.ts.data;
      const ys = this.target?.data;
      for (let i = 0; i < this.ts.length; i++) map.set(xs[i]!, ys === undefined ? 0 : ys[i]!);
      this.byTs = map;
    }
    return this.byTs;
  }

  /**
   * The target_t of the time `t`, or NaN when there is none: the last time first (a settlement
   * most often follows its forecast closely), then a binary search while ascending.
   */
  targetOf(t: number): number {
    const xs = this.ts.data;
    const ys = this.target!.data;
    if (!this.ascending) return this.byTs!.get(t) ?? Number.NaN;
    let hi = this.ts.length - 1;
    if (hi >= 0 && xs[hi] === t) return ys[hi]!;
    let lo = 0;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const x = xs[mid]!;
      if (x === t) return ys[mid]!;
      if (x < t) lo = mid + 1;
      else hi = mid - 1;
    }
    return Number.NaN;
  }
}

interface Series {
  tf: string;
  symbol: number;
  forecasts: SeriesTimes;
  settled: SeriesTimes;
  /** The timeframe's rows, which this series' settlements join. */
  out: RowStore;
}

export function scanForCompare(dir: string | undefined, filter: JournalFilter, flatBandPct: number): CompareScan {
  const problems = noProblems();
  const origins = new Set<string | null>();
  let leftOut = 0;
  let lackingIa2 = 0;
  const anyOrigin: JournalFilter = { ...filter, origins: undefined };
  const symbols = new Map<string, number>();
  const byTf = new Map<string, RowStore>();
  let lastOrigin: string | null = null;
  for (const file of dir === undefined ? [] : monthFiles(dir)) {
    if (!fileInRange(filter, file)) continue;
    const seen = new Map<string, Series>();
    const byNumber = new Map<number, Series>();
    const seriesOf = (origin: string | null, symbol: string, tf: string, number: number): Series => {
      if (number >= 0) {
        const s = byNumber.get(number);
        if (s) return s;
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
          out = new RowStore();
          byTf.set(tf, out);
        }
        s = { tf, symbol: id, forecasts: new SeriesTimes(true), settled: new SeriesTimes(false), out };
        seen.set(key, s);
      }
      if (number >= 0) byNumber.set(number, s);
      return s;
    };
    scanForReport(
      join(dir!, file),
      {
        engines: true,
        targets: true,
        forecast(origin, symbol, tf, ts, number, targetT) {
          if (!passes(filter, origin, symbol, tf, ts)) {
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
          if (line.status !== 'settled' || !passes(filter, line.origin, line.symbol, line.tf, line.ts)) return;
          const s = seriesOf(line.origin, line.symbol, line.tf, number);
          if (!s.settled.add(line.ts, 0)) return;
          if (line.ia2 === null) {
            lackingIa2++;
            return;
          }
          const move = moveOf(returnPct(line.settle_price, line.anchor_price!), flatBandPct);
          const target = s.forecasts.targetOf(line.ts);
          const r = s.out;
          r.add();
          const d = r.chunk;
          const at = r.at;
          d[at + TS] = line.ts;
          d[at + CLS] = move === 'up' ? 0 : move === 'down' ? 1 : 2;
          d[at + PROBS] = line.p_long;
          d[at + PROBS + 1] = line.p_short;
          d[at + PROBS + 2] = line.p_flat;
          d[at + PROBS + 3] = line.ia2.p_long;
          d[at + PROBS + 4] = line.ia2.p_short;
          d[at + PROBS + 5] = line.ia2.p_flat;
          d[at + TARGET] = Number.isFinite(target) ? target : line.ts + (timeframeMinutes(line.tf) ?? 0) * 60;
          d[at + SYMBOL] = s.symbol;
        },
      },
      problems,
    );
  }
  const samples = [...byTf.keys()]
    .filter((tf) => byTf.get(tf)!.rows > 0)
    .sort(byTimeframe)
    .map((tf) => sampleOf(tf, byTf.get(tf)!));
  return { samples, problems, origins, leftOut, lackingIa2 };
}

/**
 * A timeframe's rows as a sample, in time order (ts, then symbol): in one pass over the rows
 * where they were read in that order (a journal's, most often), else through their order sorted.
 */
function sampleOf(tf: string, rows: RowStore): CompareSample {
  const n = rows.rows;
  const ts = new Float64Array(n);
  const target = new Float64Array(n);
  const symbol = new Int32Array(n);
  const classes = new Uint8Array(n);
  const probs = Array.from({ length: 6 }, () => new Float64Array(n));
  const [l3, s3, f3, l2, s2, f2] = probs as [
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
  ];
  const copy = (i: number, c: Float64Array, o: number): void => {
    ts[i] = c[o + TS]!;
    target[i] = c[o + TARGET]!;
    symbol[i] = c[o + SYMBOL]!;
    classes[i] = c[o + CLS]!;
    l3[i] = c[o + PROBS]!;
    s3[i] = c[o + PROBS + 1]!;
    f3[i] = c[o + PROBS + 2]!;
    l2[i] = c[o + PROBS + 3]!;
    s2[i] = c[o + PROBS + 4]!;
    f2[i] = c[o + PROBS + 5]!;
  };
  let sorted = true;
  let prevTs = Number.NEGATIVE_INFINITY;
  let prevSymbol = -1;
  for (let i = 0; i < n; i++) {
    const c = rows.chunkOf(i);
    const o = rows.offsetOf(i);
    const t = c[o + TS]!;
    const sym = c[o + SYMBOL]!;
    if (prevTs > t || (prevTs === t && prevSymbol > sym)) sorted = false;
    prevTs = t;
    prevSymbol = sym;
    copy(i, c, o);
  }
  if (!sorted) {
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    const byTs = ts.slice();
    const bySymbol = symbol.slice();
    order.sort((a, b) => byTs[a]! - byTs[b]! || bySymbol[a]! - bySymbol[b]!);
    for (let i = 0; i < n; i++) {
      const k = order[i]!;
      copy(i, rows.chunkOf(k), rows.offsetOf(k));
    }
  }
  return {
    tf,
    ts,
    target,
    symbol,
    classes,
    ia3: { p_long: l3, p_short: s3, p_flat: f3 },
    ia2: { p_long: l2, p_short: s2, p_flat: f2 },
  };
}
