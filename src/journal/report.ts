// `journal report`: the journal read once (fast-lines.ts), each forecast counted once
// per key whatever the journal repeats, settled ones scored per timeframe (score.ts), and the
// service's published figures set beside them. The document's field names are the contract's.
import { join } from 'node:path';
import type { TrackRecordResult } from '../schema/bodies.js';
import { equivalentTimeframe, timeframeMinutes } from '../core/domain.js';
import { resolvedRate } from '../evidence/wilson.js';
import { openScans } from './scan-ahead.js';
import { noProblems, type ReadProblems } from './lines.js';
import { TimeframeAccumulator, type TimeframeScores } from './score.js';
import { monthEnd, monthStart } from './months.js';
import { monthFiles } from './journal-files.js';

/**
 * Which forecasts a command looks at: by origin (null: unknown; undefined: every origin), symbol,
 * timeframe and creation time (ts in [since, until)).
 */
export interface JournalFilter {
  origins?: ReadonlyArray<string | null>;
  symbols?: readonly string[];
  tfs?: readonly string[];
  since?: number;
  until?: number;
}

/** Whether the filter lets every forecast through: a scan can then skip the test per line. */
export const takesAll = (f: JournalFilter): boolean =>
  f.origins === undefined &&
  f.symbols === undefined &&
  f.tfs === undefined &&
  f.since === undefined &&
  f.until === undefined;

export const passes = (f: JournalFilter, origin: string | null, symbol: string, tf: string, ts: number): boolean =>
  (f.origins === undefined || f.origins.includes(origin)) &&
  (f.symbols === undefined || f.symbols.includes(symbol)) &&
  (f.tfs === undefined || equivalentTimeframe(tf, f.tfs) !== undefined) &&
  (f.since === undefined || ts >= f.since) &&
  (f.until === undefined || ts < f.until);

/** Whether a month file can hold forecasts the filter lets through. */
export const fileInRange = (f: JournalFilter, file: string): boolean =>
  (f.since === undefined || monthEnd(file) > f.since) && (f.until === undefined || monthStart(file) < f.until);

export interface ServiceFigures {
  resolved_win_rate: number | null;
  resolved_win_rate_ci95: [number, number] | null;
  n_settled: number;
}

export interface TimeframeReport {
  tf: string;
  n_settled: number;
  wins: number;
  losses: number;
  neutrals: number;
  open: number;
  unsettleable: number;
  hit_rate: number | null;
  hit_rate_ci95: [number, number] | null;
  brier_3class: number | null;
  bss_3class: number | null;
  log_loss: number | null;
  call: TimeframeScores['call'];
  service: ServiceFigures | null;
}

export interface JournalReport {
  flat_band_pct: number;
  bins: number;
  timeframes: TimeframeReport[];
}

/** What the scan found besides the figures: for the heading, the service requests and the warnings. */
export interface ReportScan {
  /** Symbols with forecasts in the selection, and per timeframe. */
  symbols: string[];
  symbolsByTf: Map<string, Set<string>>;
  /** ts of the first and last forecast in the selection. */
  first: number | undefined;
  last: number | undefined;
  problems: ReadProblems;
  scores: Map<string, { scores: TimeframeScores; open: number; unsettleable: number }>;
  /** The origins of the forecasts in the selection, and how many forecasts the origin filter left out. */
  origins: Set<string | null>;
  leftOut: number;
  /** The tiers and data delays the forecasts of the selection were recorded at, the most frequent first. */
  tiers: Array<{ tier: string | null; delay_min: number | null }>;
}

/**
 * The distinct times of one series in one file. A journal is written in time order, so a time
 * above every one seen so far is new without a hash lookup (a million Set.add calls are half a
 * second); a set is built only when a time comes out of order.
 */
export class TimeSet {
  private readonly list: number[] = [];
  private max = Number.NEGATIVE_INFINITY;
  private set: Set<number> | undefined;
  private sorted = true;

  /** Adds `t`; false when it was there already. */
  add(t: number): boolean {
    if (t > this.max) {
      this.max = t;
      this.list.push(t);
      this.set?.add(t);
      return true;
    }
    const set = this.lookup();
    if (set.has(t)) return false;
    set.add(t);
    this.list.push(t);
    this.sorted = false;
    return true;
  }

  has(t: number): boolean {
    if (t > this.max) return false;
    return this.lookup().has(t);
  }

  /** The set, built on the first time out of order. */
  private lookup(): Set<number> {
    if (!this.set) this.set = new Set(this.list);
    return this.set;
  }

  get size(): number {
    return this.list.length;
  }

  /** The times, ascending. */
  ascending(): number[] {
    if (!this.sorted) {
      this.list.sort((a, b) => a - b);
      this.sorted = true;
    }
    return this.list;
  }
}

/**
 * How many of `forecasts` (ascending, distinct) are neither in `settled` (ascending, distinct)
 * nor in `unsettleable`: one merge, no list made of the two.
 */
function countOpen(
  forecasts: readonly number[],
  settled: readonly number[],
  unsettleable: ReadonlySet<number>,
): number {
  let open = 0;
  let j = 0;
  const checkUnsettleable = unsettleable.size > 0;
  for (let i = 0; i < forecasts.length; i++) {
    const t = forecasts[i]!;
    while (j < settled.length && settled[j]! < t) j++;
    if ((j >= settled.length || settled[j] !== t) && !(checkUnsettleable && unsettleable.has(t))) open++;
  }
  return open;
}

interface SeriesSeen {
  forecasts: TimeSet;
  settled: TimeSet;
  /** Few: a plain set. */
  unsettleable: Set<number>;
  /** The accumulator of the series' timeframe. */
  scores: TimeframeAccumulator;
}

/** Reads the journal in `dir` (undefined: none yet) and scores what the filter lets through. */
export function scanJournal(
  dir: string | undefined,
  filter: JournalFilter,
  opts: { bins: number; flatBandPct: number; ahead?: string },
): ReportScan {
  const problems = noProblems();
  const accumulators = new Map<string, TimeframeAccumulator>();
  const counts = new Map<string, { open: number; unsettleable: number }>();
  const symbolsByTf = new Map<string, Set<string>>();
  let first: number | undefined;
  let last: number | undefined;
  const origins = new Set<string | null>();
  let leftOut = 0;
  // Tier, then delay, to how many forecasts of the selection say so; `taken`: the last forecast read was.
  const tiers = new Map<string | null, Map<number | null, number>>();
  let taken = false;
  const anyOrigin: JournalFilter = { ...filter, origins: undefined };
  const accumulator = (tf: string) => {
    let a = accumulators.get(tf);
    if (!a) {
      a = new TimeframeAccumulator(opts.bins, opts.flatBandPct);
      accumulators.set(tf, a);
      counts.set(tf, { open: 0, unsettleable: 0 });
    }
    return a;
  };
  const files = (dir === undefined ? [] : monthFiles(dir)).filter((file) => fileInRange(filter, file));
  const scans = openScans(
    files.map((file) => join(dir!, file)),
    { engines: false, targets: false, tiers: true, prices: false },
    opts.ahead,
  );
  try {
    for (const file of files) scanFile(file);
  } finally {
    scans.close();
  }
  function scanFile(file: string): void {
    // A key belongs to one month file (its ts), so duplicates are found within a file. Series
    // by symbol, then timeframe: the reader interns both strings, so no key is built per line.
    // By origin first: two services' forecasts of one (symbol, tf, ts) are two forecasts.
    const seen = new Map<string | null, Map<string, Map<string, SeriesSeen>>>();
    // The series of the line before: a settlement most often follows its forecast, and the
    // reader interns the strings, so three comparisons stand for three map lookups.
    let lastOrigin: string | null = null;
    let lastSymbol = '';
    let lastTf = '';
    let lastSeries: SeriesSeen | undefined;
    // The series by the reader's number for (origin, symbol, tf): one lookup where the maps take three.
    const byNumber = new Map<number, SeriesSeen>();
    const seriesOf = (origin: string | null, symbol: string, tf: string, series: number): SeriesSeen => {
      if (lastSeries !== undefined && symbol === lastSymbol && tf === lastTf && origin === lastOrigin)
        return lastSeries;
      if (series < 0) lastSeries = lookupSeries(origin, symbol, tf);
      else {
        lastSeries = byNumber.get(series);
        if (lastSeries === undefined) {
          lastSeries = lookupSeries(origin, symbol, tf);
          byNumber.set(series, lastSeries);
        }
      }
      lastOrigin = origin;
      lastSymbol = symbol;
      lastTf = tf;
      return lastSeries;
    };
    const lookupSeries = (origin: string | null, symbol: string, tf: string): SeriesSeen => {
      let byOrigin = seen.get(origin);
      if (!byOrigin) {
        byOrigin = new Map();
        seen.set(origin, byOrigin);
      }
      let bySymbol = byOrigin.get(symbol);
      if (!bySymbol) {
        bySymbol = new Map();
        byOrigin.set(symbol, bySymbol);
      }
      let s = bySymbol.get(tf);
      if (!s) {
        s = { forecasts: new TimeSet(), settled: new TimeSet(), unsettleable: new Set(), scores: accumulator(tf) };
        bySymbol.set(tf, s);
      }
      return s;
    };
    const unfiltered = takesAll(filter);
    scans.scan(
      join(dir!, file),
      {
        forecast(origin, symbol, tf, ts, number) {
          taken = false;
          if (!unfiltered && !passes(filter, origin, symbol, tf, ts)) {
            if (passes(anyOrigin, origin, symbol, tf, ts)) leftOut++;
            return;
          }
          taken = true;
          origins.add(origin);
          // The first and last ts are taken from each series' times at the end: a double
          // written to this closure's variable here would be a new heap object per forecast.
          seriesOf(origin, symbol, tf, number).forecasts.add(ts);
        },
        tier(tier, delay) {
          if (!taken) return;
          let byDelay = tiers.get(tier);
          if (!byDelay) {
            byDelay = new Map();
            tiers.set(tier, byDelay);
          }
          byDelay.set(delay, (byDelay.get(delay) ?? 0) + 1);
        },
        settlement(s, number) {
          if (!unfiltered && !passes(filter, s.origin, s.symbol, s.tf, s.ts)) return;
          const series = seriesOf(s.origin, s.symbol, s.tf, number);
          if (s.status === 'unsettleable') {
            if (!series.settled.has(s.ts)) series.unsettleable.add(s.ts);
            return;
          }
          // The first settlement of a key counts; a later one (two settles racing) does not.
          if (!series.settled.add(s.ts)) return;
          if (series.unsettleable.size > 0) series.unsettleable.delete(s.ts);
          series.scores.add(s as typeof s & { anchor_price: number });
        },
      },
      problems,
    );
    for (const [symbol, bySymbol] of [...seen.values()].flatMap((byOrigin) => [...byOrigin]))
      for (const [tf, s] of bySymbol) {
        accumulator(tf);
        const c = counts.get(tf)!;
        c.unsettleable += s.unsettleable.size;
        const forecasts = s.forecasts.ascending();
        c.open += countOpen(forecasts, s.settled.ascending(), s.unsettleable);
        if (forecasts.length > 0) {
          if (first === undefined || forecasts[0]! < first) first = forecasts[0];
          if (last === undefined || forecasts[forecasts.length - 1]! > last) last = forecasts[forecasts.length - 1];
        }
        let symbols = symbolsByTf.get(tf);
        if (!symbols) {
          symbols = new Set();
          symbolsByTf.set(tf, symbols);
        }
        symbols.add(symbol);
      }
  }
  const scores = new Map([...accumulators].map(([tf, a]) => [tf, { scores: a.result(), ...counts.get(tf)! }] as const));
  const symbols = [...new Set([...symbolsByTf.values()].flatMap((s) => [...s]))].sort();
  const recordedAt = [...tiers]
    .flatMap(([tier, byDelay]) => [...byDelay].map(([delay_min, n]) => ({ tier, delay_min, n })))
    .sort((a, b) => b.n - a.n)
    .map(({ tier, delay_min }) => ({ tier, delay_min }));
  return { symbols, symbolsByTf, first, last, problems, scores, origins, leftOut, tiers: recordedAt };
}

/** Timeframes in horizon order (1min, 5min, ..., 1h, ..., 1d), names the API does not use last. */
export function byTimeframe(a: string, b: string): number {
  const ma = timeframeMinutes(a) ?? Number.POSITIVE_INFINITY;
  const mb = timeframeMinutes(b) ?? Number.POSITIVE_INFINITY;
  return ma - mb || a.localeCompare(b);
}

/**
 * The service's figures for a timeframe over the symbols the journal holds for it: one
 * symbol's as published; several symbols' pooled from their published outcome counts (wins and
 * losses added up, the rate and its Wilson interval recomputed, n_settled added up). Null when a
 * symbol's record is missing (--offline, a failed request) or lacks the timeframe.
 */
export function serviceFigures(
  tf: string,
  symbols: ReadonlySet<string> | undefined,
  records: ReadonlyMap<string, readonly TrackRecordResult[] | null> | undefined,
): ServiceFigures | null {
  if (!records || !symbols || symbols.size === 0) return null;
  const results: TrackRecordResult[] = [];
  for (const symbol of symbols) {
    const found = records.get(symbol)?.find((r) => r.timeframe === tf);
    if (!found) return null;
    results.push(found);
  }
  if (results.length === 1) {
    const r = results[0]!;
    return {
      resolved_win_rate: r.resolved_win_rate,
      resolved_win_rate_ci95: (r.resolved_win_rate_ci95 as [number, number] | null) ?? null,
      n_settled: r.n_settled,
    };
  }
  let wins = 0;
  let losses = 0;
  let settled = 0;
  for (const r of results) {
    const { win, loss } = r.outcomes as { win?: unknown; loss?: unknown };
    if (!Number.isInteger(win) || !Number.isInteger(loss)) return null;
    wins += win as number;
    losses += loss as number;
    settled += r.n_settled;
  }
  const pooled = resolvedRate(wins, losses);
  return {
    resolved_win_rate: pooled?.rate ?? null,
    resolved_win_rate_ci95: pooled?.interval ?? null,
    n_settled: settled,
  };
}

/** The report document, in the contract's field order. */
export function buildReport(
  scan: ReportScan,
  opts: { bins: number; flatBandPct: number },
  records?: ReadonlyMap<string, readonly TrackRecordResult[] | null>,
): JournalReport {
  const timeframes = [...scan.scores.keys()].sort(byTimeframe).map((tf): TimeframeReport => {
    const { scores, open, unsettleable } = scan.scores.get(tf)!;
    return {
      tf,
      n_settled: scores.n_settled,
      wins: scores.wins,
      losses: scores.losses,
      neutrals: scores.neutrals,
      open,
      unsettleable,
      hit_rate: scores.hit_rate,
      hit_rate_ci95: scores.hit_rate_ci95,
      brier_3class: scores.brier_3class,
      bss_3class: scores.bss_3class,
      log_loss: scores.log_loss,
      call: scores.call,
      service: serviceFigures(tf, scan.symbolsByTf.get(tf), records),
    };
  });
  return { flat_band_pct: opts.flatBandPct, bins: opts.bins, timeframes };
}

/** Timeframes whose hit-rate interval and the service's published one do not overlap: one sentence each. */
export function disjointIntervals(report: JournalReport): string[] {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  return report.timeframes.flatMap((t) => {
    const mine = t.hit_rate_ci95;
    const theirs = t.service?.resolved_win_rate_ci95;
    if (!mine || !theirs || t.hit_rate === null) return [];
    if (mine[1] >= theirs[0] && theirs[1] >= mine[0]) return [];
    const rate = t.service?.resolved_win_rate;
    return [
      `${t.tf}: your hit rate ${pct(t.hit_rate)} (95% CI ${pct(mine[0])}–${pct(mine[1])}) and the service's published ${rate === null || rate === undefined ? '–' : pct(rate)} (${pct(theirs[0])}–${pct(theirs[1])}) do not overlap`,
    ];
  });
}
