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
    if (this.length === this.data.length) {
      const bigger = new Float64Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = x;
  }
  get values(): Float64Array {
    return this.data.subarray(0, this.length);
  }
}

const COLUMNS = ['ts', 'target', 'symbol', 'cls', 'l3', 's3', 'f3', 'l2', 's2', 'f2'] as const;
type Columns = Record<(typeof COLUMNS)[number], Column>;
const columns = (): Columns => Object.fromEntries(COLUMNS.map((c) => [c, new Column()])) as Columns;

interface Series {
  tf: string;
  symbol: number;
  forecasts: TimeSet;
  /** ts and target_t of each forecast, in the order read. */
  fTs: Column;
  fTarget: Column;
  settled: TimeSet;
  /** The settlements with ia2, as read: ts, class, ia3's and ia2's probabilities. */
  rows: Columns;
}

export function scanForCompare(dir: string | undefined, filter: JournalFilter, flatBandPct: number): CompareScan {
  const problems = noProblems();
  const origins = new Set<string | null>();
  let leftOut = 0;
  let lackingIa2 = 0;
  const anyOrigin: JournalFilter = { ...filter, origins: undefined };
  const symbols = new Map<string, number>();
  const byTf = new Map<string, Columns>();
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
        s = {
          tf,
          symbol: id,
          forecasts: new TimeSet(),
          fTs: new Column(),
          fTarget: new Column(),
          settled: new TimeSet(),
          rows: columns(),
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
          const r = s.rows;
          r.ts.push(line.ts);
          r.cls.push(move === 'up' ? 0 : move === 'down' ? 1 : 2);
          r.l3.push(line.p_long);
          r.s3.push(line.p_short);
          r.f3.push(line.p_flat);
          r.l2.push(line.ia2.p_long);
          r.s2.push(line.ia2.p_short);
          r.f2.push(line.ia2.p_flat);
        },
      },
      problems,
    );
    for (const s of seen.values()) {
      if (s.rows.ts.length === 0) continue;
      let out = byTf.get(s.tf);
      if (!out) {
        out = columns();
        byTf.set(s.tf, out);
      }
      appendSeries(s, out);
    }
  }
  const samples = [...byTf.keys()].sort(byTimeframe).map((tf) => sampleOf(tf, byTf.get(tf)!));
  return { samples, problems, origins, leftOut, lackingIa2 };
}

/** The series' settlements with their forecasts' target_t (one merge by ts), onto the timeframe's columns. */
function appendSeries(s: Series, out: Columns): void {
  const fTs = s.fTs.values;
  const fTarget = s.fTarget.values;
  const forecastOrder = sortedOrder(fTs);
  const r = s.rows;
  const rowOrder = sortedOrder(r.ts.values);
  const fallback = (timeframeMinutes(s.tf) ?? 0) * 60;
  let j = 0;
  for (const i of rowOrder) {
    const ts = r.ts.data[i]!;
    while (j < forecastOrder.length && fTs[forecastOrder[j]!]! < ts) j++;
    // A settlement whose forecast the selection does not hold (pruned, or edited away): its
    // target from the timeframe, as the service sets it.
    const target = j < forecastOrder.length && fTs[forecastOrder[j]!] === ts ? fTarget[forecastOrder[j]!]! : Number.NaN;
    out.ts.push(ts);
    out.target.push(Number.isFinite(target) ? target : ts + fallback);
    out.symbol.push(s.symbol);
    for (const c of ['cls', 'l3', 's3', 'f3', 'l2', 's2', 'f2'] as const) out[c].push(r[c].data[i]!);
  }
}

/** The indices of `xs` in ascending order of value (most often already so: no sort then). */
function sortedOrder(xs: Float64Array): Uint32Array | Int32Array {
  const order = new Uint32Array(xs.length);
  let sorted = true;
  for (let i = 0; i < xs.length; i++) {
    order[i] = i;
    if (i > 0 && xs[i]! < xs[i - 1]!) sorted = false;
  }
  if (!sorted) order.sort((a, b) => xs[a]! - xs[b]!);
  return order;
}

/** A timeframe's columns as a sample, in time order (ts, then symbol). */
function sampleOf(tf: string, c: Columns): CompareSample {
  const n = c.ts.length;
  const ts = c.ts.values;
  const sym = c.symbol.values;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => ts[a]! - ts[b]! || sym[a]! - sym[b]!);
  const take = (col: Column) => {
    const out = new Float64Array(n);
    const v = col.values;
    for (let i = 0; i < n; i++) out[i] = v[order[i]!]!;
    return out;
  };
  return {
    tf,
    ts: take(c.ts),
    target: take(c.target),
    symbol: Int32Array.from(take(c.symbol)),
    classes: Uint8Array.from(take(c.cls)),
    ia3: { p_long: take(c.l3), p_short: take(c.s3), p_flat: take(c.f3) },
    ia2: { p_long: take(c.l2), p_short: take(c.s2), p_flat: take(c.f2) },
  };
}
