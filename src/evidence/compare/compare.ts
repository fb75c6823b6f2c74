// `journal compare`'s figures: per timeframe, ia2, ia3 and the sample's climatology scored on
// the same settled forecasts (scores.ts), the pairs' loss differences tested (Diebold–Mariano,
// block bootstrap), Holm's adjustment over the RPS tests of every pair and timeframe, CORP
// reliability and the Murphy diagram per event. Pure: arrays in, the document out (its field
// names and order are the engines issue's `--json` shape, docs/journal.md).
import { blockLength, replicateMeans, summarize, type BootstrapResult } from './bootstrap.js';
import { corp, type CorpBlock } from './corp.js';
import { dieboldMariano, type DmResult } from './diebold-mariano.js';
import { holm } from './holm.js';
import { overlapLags } from './lags.js';
import { murphy, murphyTheta } from './murphy.js';
import { releaseScratch, scratch } from './scratch.js';
import {
  brier3,
  climatologyOf,
  LOG_LOSS_CLIP,
  logLoss,
  type MoveClass,
  mean,
  rps,
  skill,
  type ThreeClass,
} from './scores.js';

export const FORECASTERS = ['ia2', 'ia3', 'climatology'] as const;
export type Forecaster = (typeof FORECASTERS)[number];
export const PAIRS: ReadonlyArray<readonly [Forecaster, Forecaster]> = [
  ['ia3', 'ia2'],
  ['ia3', 'climatology'],
  ['ia2', 'climatology'],
];
export const SCORES = ['rps', 'brier_3class', 'log_loss'] as const;
export type ScoreName = (typeof SCORES)[number];
export const EVENTS = ['up', 'down', 'flat'] as const;
export type EventName = (typeof EVENTS)[number];

/** One timeframe's forecasts, in time order (ts, then symbol): every array of length n. */
export interface CompareSample {
  tf: string;
  ts: Float64Array;
  target: Float64Array;
  /** A small integer per symbol: overlapping horizons are counted within a symbol. */
  symbol: Int32Array;
  /** 0 up, 1 down, 2 flat. */
  classes: Uint8Array;
  ia3: { p_long: Float64Array; p_short: Float64Array; p_flat: Float64Array };
  ia2: { p_long: Float64Array; p_short: Float64Array; p_flat: Float64Array };
}

export interface CorpTerms {
  mcb: number;
  dsc: number;
  unc: number;
  score: number;
}

export interface ForecasterScores {
  n: number;
  rps: number;
  brier_3class: number;
  log_loss: number;
  rps_skill: number | null;
  corp: Record<EventName, CorpTerms>;
}

export interface PairScore {
  mean_diff: number;
  dm: DmResult;
  bootstrap: BootstrapResult;
}

export interface PairResult {
  a: Forecaster;
  b: Forecaster;
  n: number;
  scores: Record<ScoreName, PairScore>;
  p_holm: number | null;
}

export interface TimeframeComparison {
  tf: string;
  n: number;
  lags: number;
  forecasters: Record<Forecaster, ForecasterScores>;
  pairs: PairResult[];
  murphy: { theta: number[]; up: Record<Forecaster, number[]>; down: Record<Forecaster, number[]> };
}

export interface Comparison {
  flat_band_pct: number;
  alpha: number;
  bootstrap: { replicates: number; seed: number };
  timeframes: TimeframeComparison[];
}

/** What the views draw besides the document: the CORP fits. */
export type CorpCurves = Record<Forecaster, Record<EventName, CorpBlock[]>>;

export interface CompareOptions {
  flatBandPct: number;
  alpha: number;
  replicates: number;
  seed: number;
  /** --block: the bootstrap's block length (at least h either way). */
  block?: number;
}

/** h − 1 of a sample: the most overlapping later forecasts of one symbol (each symbol's forecasts bucketed, in time order). */
export function sampleLags(s: Pick<CompareSample, 'ts' | 'target' | 'symbol'>): number {
  const n = s.ts.length;
  let symbols = 0;
  for (let i = 0; i < n; i++) if (s.symbol[i]! >= symbols) symbols = s.symbol[i]! + 1;
  const starts = new Int32Array(symbols + 1);
  for (let i = 0; i < n; i++) starts[s.symbol[i]! + 1]!++;
  for (let k = 0; k < symbols; k++) starts[k + 1]! += starts[k]!;
  const fill = starts.slice(0, symbols);
  const ts = scratch('lags.ts', n);
  const target = scratch('lags.target', n);
  for (let i = 0; i < n; i++) {
    const at = fill[s.symbol[i]!]!++;
    ts[at] = s.ts[i]!;
    target[at] = s.target[i]!;
  }
  let most = 0;
  for (let k = 0; k < symbols; k++) {
    const a = starts[k]!;
    const b = starts[k + 1]!;
    if (b > a) most = Math.max(most, overlapLags(ts.subarray(a, b), target.subarray(a, b)));
  }
  return most;
}

type Probs = CompareSample['ia3'];

/**
 * Every forecaster's mean losses and every pair's loss differences, in one pass over the
 * forecasts: no forecaster's losses are kept, only the nine difference series (in reused
 * memory), the means summed as the forecasts go (the same compensated sums, in the same order,
 * as over a kept array). Climatology's losses are a table of three per score (one per class).
 */
function lossDifferences(
  s: CompareSample,
  climatology: ThreeClass,
): { means: Record<Forecaster, Record<ScoreName, number>>; d: Map<string, Float64Array> } {
  const n = s.classes.length;
  const d = new Map<string, Float64Array>();
  for (const [a, b] of PAIRS)
    for (const sc of SCORES) d.set(`${a} ${b} ${sc}`, scratch(`compare.d ${a} ${b} ${sc}`, n));
  const at = (a: Forecaster, b: Forecaster, sc: ScoreName) => d.get(`${a} ${b} ${sc}`)!;
  const [rps32, brier32, log32] = SCORES.map((sc) => at('ia3', 'ia2', sc)) as [
    Float64Array,
    Float64Array,
    Float64Array,
  ];
  const [rps3c, brier3c, log3c] = SCORES.map((sc) => at('ia3', 'climatology', sc)) as [
    Float64Array,
    Float64Array,
    Float64Array,
  ];
  const [rps2c, brier2c, log2c] = SCORES.map((sc) => at('ia2', 'climatology', sc)) as [
    Float64Array,
    Float64Array,
    Float64Array,
  ];
  const climRps = Float64Array.from([0, 1, 2], (k) => rps(climatology, k as MoveClass));
  const climBrier = Float64Array.from([0, 1, 2], (k) => brier3(climatology, k as MoveClass));
  const climLog = Float64Array.from([0, 1, 2], (k) => logLoss(climatology, k as MoveClass));
  // Sums of ia3's rps, brier, log (0-2), ia2's (3-5), climatology's (6-8): Neumaier's, sum k in
  // acc[2k] and its compensation in acc[2k + 1]. The losses are scores.ts's rps, brier3 and
  // logLoss written out, and the sums written out too: a double returned from a call or handed
  // to one that is not inlined is a new heap object, nine a forecast here (a test holds the
  // written-out losses to scores.ts's).
  const acc = new Float64Array(18);
  const v = new Float64Array(9);
  const { ia3, ia2, classes } = s;
  for (let i = 0; i < n; i++) {
    const k = classes[i]!;
    const up = k === 0 ? 1 : 0;
    const down = k === 1 ? 1 : 0;
    const flat = k === 2 ? 1 : 0;
    const downOrFlat = k === 0 ? 0 : 1;
    const l3 = ia3.p_long[i]!;
    const s3 = ia3.p_short[i]!;
    const f3 = ia3.p_flat[i]!;
    const l2 = ia2.p_long[i]!;
    const s2 = ia2.p_short[i]!;
    const f2 = ia2.p_flat[i]!;
    const r3 = (s3 - down) ** 2 + (s3 + f3 - downOrFlat) ** 2;
    const b3 = (l3 - up) ** 2 + (s3 - down) ** 2 + (f3 - flat) ** 2;
    const g3 = -Math.log(Math.max(k === 0 ? l3 : k === 1 ? s3 : f3, LOG_LOSS_CLIP));
    const r2 = (s2 - down) ** 2 + (s2 + f2 - downOrFlat) ** 2;
    const b2 = (l2 - up) ** 2 + (s2 - down) ** 2 + (f2 - flat) ** 2;
    const g2 = -Math.log(Math.max(k === 0 ? l2 : k === 1 ? s2 : f2, LOG_LOSS_CLIP));
    const rc = climRps[k]!;
    const bc = climBrier[k]!;
    const gc = climLog[k]!;
    v[0] = r3;
    v[1] = b3;
    v[2] = g3;
    v[3] = r2;
    v[4] = b2;
    v[5] = g2;
    v[6] = rc;
    v[7] = bc;
    v[8] = gc;
    for (let j = 0; j < 9; j++) {
      const x = v[j]!;
      const sum = acc[2 * j]!;
      const t = sum + x;
      acc[2 * j + 1]! += Math.abs(sum) >= Math.abs(x) ? sum - t + x : x - t + sum;
      acc[2 * j] = t;
    }
    rps32[i] = r3 - r2;
    brier32[i] = b3 - b2;
    log32[i] = g3 - g2;
    rps3c[i] = r3 - rc;
    brier3c[i] = b3 - bc;
    log3c[i] = g3 - gc;
    rps2c[i] = r2 - rc;
    brier2c[i] = b2 - bc;
    log2c[i] = g2 - gc;
  }
  const meanOf = (k: number) => (n === 0 ? Number.NaN : (acc[2 * k]! + acc[2 * k + 1]!) / n);
  const means = {} as Record<Forecaster, Record<ScoreName, number>>;
  (['ia3', 'ia2', 'climatology'] as const).forEach((f, j) => {
    means[f] = { rps: meanOf(3 * j), brier_3class: meanOf(3 * j + 1), log_loss: meanOf(3 * j + 2) };
  });
  return { means, d };
}

/** The forecasts of event `e`: a forecaster's own array, or climatology's constant in reused memory. */
const eventProbability = (p: Probs | ThreeClass, e: EventName, n: number): Float64Array => {
  const key = e === 'up' ? 'p_long' : e === 'down' ? 'p_short' : 'p_flat';
  const v = (p as Record<string, unknown>)[key];
  return typeof v === 'number' ? scratch('compare.constant', n).fill(v) : (v as Float64Array);
};

const eventOutcomes = (classes: Uint8Array, e: EventName): Uint8Array => {
  const k = e === 'up' ? 0 : e === 'down' ? 1 : 2;
  const out = new Uint8Array(classes.length);
  for (let i = 0; i < classes.length; i++) out[i] = classes[i] === k ? 1 : 0;
  return out;
};

/** One timeframe's figures and curves. */
export interface TimeframeFigures {
  doc: TimeframeComparison;
  curves: CorpCurves;
}

/**
 * One timeframe's figures, Holm's adjustment left to `assemble`. Its work arrays (scratch.ts)
 * stay for the next timeframe: the caller lets them go (releaseScratch) when it has done.
 */
export function compareTimeframe(s: CompareSample, opts: CompareOptions): TimeframeFigures {
  const n = s.classes.length;
  const lags = sampleLags(s);
  const climatology = climatologyOf(s.classes);
  const probs: Record<Forecaster, Probs | ThreeClass> = { ia2: s.ia2, ia3: s.ia3, climatology };
  const outcomes = Object.fromEntries(EVENTS.map((e) => [e, eventOutcomes(s.classes, e)])) as Record<
    EventName,
    Uint8Array
  >;
  const curves = {} as CorpCurves;
  const forecasters = {} as Record<Forecaster, ForecasterScores>;
  const { means, d } = lossDifferences(s, climatology);
  for (const f of FORECASTERS) {
    const corps = Object.fromEntries(EVENTS.map((e) => [e, corp(eventProbability(probs[f], e, n), outcomes[e])]));
    curves[f] = Object.fromEntries(EVENTS.map((e) => [e, corps[e]!.blocks])) as Record<EventName, CorpBlock[]>;
    forecasters[f] = {
      n,
      rps: means[f].rps,
      brier_3class: means[f].brier_3class,
      log_loss: means[f].log_loss,
      rps_skill: null,
      corp: Object.fromEntries(
        EVENTS.map((e) => {
          const c = corps[e]!;
          return [e, { mcb: c.mcb, dsc: c.dsc, unc: c.unc, score: c.score }];
        }),
      ) as Record<EventName, CorpTerms>,
    };
  }
  for (const f of FORECASTERS) forecasters[f].rps_skill = skill(forecasters[f].rps, forecasters.climatology.rps);

  // The loss differences of every pair and score: tested here, then bootstrapped together.
  // ia3 − ia2 is (ia3 − climatology) − (ia2 − climatology): its replicate means are those two
  // series' differenced, so the bootstrap resamples six series, not nine.
  const block = blockLength(n, lags + 1, opts.block);
  const partial = new Map<string, { mean_diff: number; dm: DmResult; d: Float64Array }>();
  for (const [key, diff] of d) partial.set(key, { mean_diff: mean(diff), dm: dieboldMariano(diff, lags), d: diff });
  const base = SCORES.flatMap((sc) => [`ia3 climatology ${sc}`, `ia2 climatology ${sc}`]);
  const replicated =
    n > 0
      ? replicateMeans(
          base.map((key) => partial.get(key)!.d),
          block,
          opts.replicates,
          opts.seed,
        )
      : [];
  const replicatesOf = (a: Forecaster, b: Forecaster, sc: ScoreName): Float64Array => {
    const k = SCORES.indexOf(sc) * 2;
    if (a === 'ia3' && b === 'climatology') return replicated[k]!;
    if (a === 'ia2' && b === 'climatology') return replicated[k + 1]!;
    const x = replicated[k]!;
    const y = replicated[k + 1]!;
    return x.map((v, i) => v - y[i]!);
  };
  const pairs = PAIRS.map(([a, b]): PairResult => {
    const scores = {} as Record<ScoreName, PairScore>;
    for (const sc of SCORES) {
      const { mean_diff, dm } = partial.get(`${a} ${b} ${sc}`)!;
      const bootstrap =
        n > 0 ? summarize(replicatesOf(a, b, sc), mean_diff, block) : { block, se: null, ci95: null, p_value: null };
      scores[sc] = { mean_diff, dm, bootstrap };
    }
    return { a, b, n, scores, p_holm: null };
  });

  const theta = murphyTheta();
  const murphyOf = (e: EventName) =>
    Object.fromEntries(FORECASTERS.map((f) => [f, murphy(eventProbability(probs[f], e, n), outcomes[e])])) as Record<
      Forecaster,
      number[]
    >;
  return {
    doc: { tf: s.tf, n, lags, forecasters, pairs, murphy: { theta, up: murphyOf('up'), down: murphyOf('down') } },
    curves,
  };
}

/** Every timeframe's figures, with Holm's adjustment of the RPS tests over all of them. */
export function compare(
  samples: readonly CompareSample[],
  opts: CompareOptions,
): { doc: Comparison; curves: Map<string, CorpCurves> } {
  let done: TimeframeFigures[];
  try {
    done = samples.map((s) => compareTimeframe(s, opts));
  } finally {
    // The work arrays serve the timeframes of one comparison; a long-lived process (`fcast
    // mcp`) keeps none of them between comparisons.
    releaseScratch();
  }
  return assemble(done, opts);
}

/**
 * The document of the timeframes' figures (in the samples' order, wherever each was computed):
 * Holm's adjustment over the RPS tests of every pair and timeframe, written into `done`.
 */
export function assemble(
  done: readonly TimeframeFigures[],
  opts: CompareOptions,
): { doc: Comparison; curves: Map<string, CorpCurves> } {
  const family = done.flatMap((d) => d.doc.pairs);
  const adjusted = holm(family.map((p) => p.scores.rps.dm.p_value));
  family.forEach((p, i) => {
    p.p_holm = adjusted[i]!;
  });
  return {
    doc: {
      flat_band_pct: opts.flatBandPct,
      alpha: opts.alpha,
      bootstrap: { replicates: opts.replicates, seed: opts.seed },
      timeframes: done.map((d) => d.doc),
    },
    curves: new Map(done.map((d) => [d.doc.tf, d.curves])),
  };
}
