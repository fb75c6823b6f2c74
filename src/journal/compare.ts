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
import { byTimeframe, fileInRange, type JournalFilter, passes, TimeSet } from './report.js';

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

interface Series {
  tf: string;
  symbol: number;
  forecasts: TimeSet;
  /** ts and target_t of each forecast, in the order read (a journal's: ascending, most often). */
  fTs: Column;
  fTarget: Column;
  /** Whether fTs is ascending; else `byTs`, made when first needed. */
  ascending: boolean;
  byTs: Map<number, number> | undefined;
  settled: TimeSet;
  /** The timeframe's rows, which this series' settlements join. */
  out: RowStore;
}

/**
 * The target_t of the series' forecast made at `ts` (a settlement follows its forecast in a
 * month file), or NaN when the selection holds no such forecast (pruned, or edited away).
 */
function targetOf(s: Series, ts: number): number {
  const xs = s.fTs.data;
  if (s.ascending) {
    let lo = 0;
    let hi = s.fTs.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const x = xs[mid]!;
      if (x === ts) return s.fTarget.data[mid]!;
      if (x < ts) lo = mid + 1;
      else hi = mid - 1;
    }
    return Number.NaN;
  }
  if (!s.byTs) {
    s.byTs = new Map();
    for (let i = 0; i < s.fTs.length; i++) s.byTs.set(xs[i]!, s.fTarget.data[i]!);
  }
  return s.byTs.get(ts) ?? Number.NaN;
}

export function scanForCompare(dir: string | undefined, filter: JournalFilter, flatBandPct: number): CompareScan {
  const problems = noProblems();
  const origins = new Set<string | null>();
  let leftOut = 0;
  let lackingIa2 = 0;
  const anyOrigin: JournalFilter = { ...filter, origins: undefined };
  const symbols = new Map<string, number>();
  const byTf = new Map<string, RowStore>();
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
        s = {
          tf,
          symbol: id,
          forecasts: new TimeSet(),
          fTs: new Column(),
          fTarget: new Column(),
          ascending: true,
          byTs: undefined,
          settled: new TimeSet(),
          out,
        };
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
          origins.add(origin);
          const s = seriesOf(origin, symbol, tf, number);
          if (!s.forecasts.add(ts)) return;
          if (s.fTs.length > 0 && ts < s.fTs.data[s.fTs.length - 1]!) s.ascending = false;
          s.byTs?.set(ts, targetT);
          s.fTs.push(ts);
          s.fTarget.push(targetT);
        },
        settlement(line, number) {
          if (line.status !== 'settled' || !passes(filter, line.origin, line.symbol, line.tf, line.ts)) return;
          const s = seriesOf(line.origin, line.symbol, line.tf, number);
          if (!s.settled.add(line.ts)) return;
          if (line.ia2 === null) {
            lackingIa2++;
            return;
          }
          const move = moveOf(returnPct(line.settle_price, line.anchor_price!), flatBandPct);
          const target = targetOf(s, line.ts);
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

/** A timeframe's rows as a sample, in time order (ts, then symbol). */
function sampleOf(tf: string, rows: RowStore): CompareSample {
  const n = rows.rows;
  const ts = new Float64Array(n);
  const sym = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const c = rows.chunkOf(i);
    const o = rows.offsetOf(i);
    ts[i] = c[o + TS]!;
    sym[i] = c[o + SYMBOL]!;
  }
  const order = new Uint32Array(n);
  let sorted = true;
  for (let i = 0; i < n; i++) {
    order[i] = i;
    if (i > 0 && (ts[i - 1]! > ts[i]! || (ts[i - 1] === ts[i] && sym[i - 1]! > sym[i]!))) sorted = false;
  }
  if (!sorted) order.sort((a, b) => ts[a]! - ts[b]! || sym[a]! - sym[b]!);
  const take = (field: number) => {
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const k = order[i]!;
      out[i] = rows.chunkOf(k)[rows.offsetOf(k) + field]!;
    }
    return out;
  };
  return {
    tf,
    ts: take(TS),
    target: take(TARGET),
    symbol: Int32Array.from(take(SYMBOL)),
    classes: Uint8Array.from(take(CLS)),
    ia3: { p_long: take(PROBS), p_short: take(PROBS + 1), p_flat: take(PROBS + 2) },
    ia2: { p_long: take(PROBS + 3), p_short: take(PROBS + 4), p_flat: take(PROBS + 5) },
  };
}
