// Proper scores of settled forecasts, per timeframe. Pure: records in, figures out; streaming,
// so a report over a million forecasts keeps a few sums per timeframe and bin, not the records.
//
// - hit_rate = wins / (wins + losses), with its Wilson 95% interval (evidence/wilson.ts, the
//   --audit code); neutrals are left out, as in the service's resolved_win_rate.
// - brier_3class: the mean over forecasts of Σ (p − o)² over long/short/flat, o the one-hot of
//   the move (up/down/flat); 0 best, 2 worst. bss_3class = 1 − brier_3class / the same score of
//   the sample's class frequencies (1 − Σ f²); null when the sample holds one class only.
// - log_loss: the mean of −ln p(observed class). A probability of 0 for what happened would
//   cost infinity: p is clipped to 1e-15 first (scikit-learn's long-standing eps), so one such
//   forecast costs 34.5 nats and the mean stays a number.
// - call: the called direction's probability (p_long for long, p_short for short) against a
//   win. A neutral outcome counts as not a win: p_long is the chance of a move up beyond the
//   band, and a flat move is not one; dropping neutrals would drop exactly the forecasts that
//   kept p_flat back, and flatter the score. Every settled forecast with a long or short call
//   counts (the bins' n add up to those). Binary Brier score and its decomposition (Stephenson,
//   Coelho and Jolliffe 2008): BS = REL − RES + UNC + WBV − WBC, exactly, with bins split [0, 1]
//   evenly, right-closed (lo, hi] and the first [0, hi], as scikit-learn's calibration_curve
//   (edges as numpy.linspace makes them: i × (1/N), the last 1).
import { resolvedRate, wilsonInterval } from '../evidence/wilson.js';
import { moveOf, outcomeOf, returnPct } from './record.js';
import { CompensatedSum } from '../core/compensated-sum.js';

/** A settled forecast as the scores need it. */
export interface ScoreInput {
  direction: string;
  p_long: number;
  p_short: number;
  p_flat: number;
  anchor_price: number;
  settle_price: number;
}

export interface CallBin {
  lo: number;
  hi: number;
  n: number;
  mean_p: number | null;
  freq: number | null;
  freq_ci95: [number, number] | null;
}

export interface CallScore {
  brier: number | null;
  reliability: number | null;
  resolution: number | null;
  uncertainty: number | null;
  within_bin_variance: number | null;
  within_bin_covariance: number | null;
  bins: CallBin[];
}

export interface TimeframeScores {
  n_settled: number;
  wins: number;
  losses: number;
  neutrals: number;
  hit_rate: number | null;
  hit_rate_ci95: [number, number] | null;
  brier_3class: number | null;
  bss_3class: number | null;
  log_loss: number | null;
  call: CallScore;
}

/**
 * Fewer settled forecasts than this (in a reliability bin, or in a timeframe): too few to read
 * much into. The usual rule of thumb for a proportion's normal approximation; the report marks
 * such a bin, and CI gets a small-sample warning for such a timeframe.
 */
export const SMALL_SAMPLE = 30;

/** Smallest probability the log loss takes: ln(1e-15) ≈ −34.5. */
export const LOG_LOSS_CLIP = 1e-15;

/** numpy.linspace(0, 1, n + 1)[i]: i × (1/n), the last exactly 1. */
export function binEdge(i: number, n: number): number {
  return i >= n ? 1 : i * (1 / n);
}

/** The bin of p as calibration_curve puts it: the number of inner edges below p (numpy.searchsorted, side left). */
export function binOf(p: number, n: number): number {
  let lo = 0;
  let hi = n - 1;
  // Inner edges are binEdge(1) .. binEdge(n − 1); count those < p.
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (binEdge(mid + 1, n) < p) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

interface BinSums {
  n: number;
  f: CompensatedSum;
  ff: CompensatedSum;
  o: CompensatedSum;
  of: CompensatedSum;
}

/** The binary Brier score of (probability, outcome) pairs with its decomposition and reliability bins. */
export class CallAccumulator {
  private readonly sums: BinSums[];
  private readonly squared = new CompensatedSum();
  private n = 0;
  private wins = 0;
  constructor(readonly nBins: number) {
    this.sums = Array.from({ length: nBins }, () => ({
      n: 0,
      f: new CompensatedSum(),
      ff: new CompensatedSum(),
      o: new CompensatedSum(),
      of: new CompensatedSum(),
    }));
  }

  add(p: number, won: boolean): void {
    const o = won ? 1 : 0;
    const bin = this.sums[binOf(p, this.nBins)]!;
    bin.n++;
    bin.f.add(p);
    bin.ff.add(p * p);
    bin.o.add(o);
    bin.of.add(o * p);
    this.squared.add((p - o) * (p - o));
    this.n++;
    this.wins += o;
  }

  result(): CallScore {
    const { n } = this;
    const bins = this.sums.map((b, i): CallBin => {
      const lo = tidyEdge(binEdge(i, this.nBins));
      const hi = tidyEdge(binEdge(i + 1, this.nBins));
      if (b.n === 0) return { lo, hi, n: 0, mean_p: null, freq: null, freq_ci95: null };
      const wins = b.o.value;
      return { lo, hi, n: b.n, mean_p: b.f.value / b.n, freq: wins / b.n, freq_ci95: wilsonInterval(wins, b.n) };
    });
    if (n === 0) {
      return {
        brier: null,
        reliability: null,
        resolution: null,
        uncertainty: null,
        within_bin_variance: null,
        within_bin_covariance: null,
        bins,
      };
    }
    const base = this.wins / n;
    const rel = new CompensatedSum();
    const res = new CompensatedSum();
    const wbv = new CompensatedSum();
    const wbc = new CompensatedSum();
    for (const b of this.sums) {
      if (b.n === 0) continue;
      const meanF = b.f.value / b.n;
      const meanO = b.o.value / b.n;
      rel.add(b.n * (meanF - meanO) ** 2);
      res.add(b.n * (meanO - base) ** 2);
      // Σ (f − f̄)² and Σ (f − f̄)(o − ō) of the bin, from its sums.
      wbv.add(b.ff.value - b.f.value * meanF);
      wbc.add(b.of.value - b.f.value * meanO);
    }
    return {
      brier: this.squared.value / n,
      reliability: rel.value / n,
      resolution: res.value / n,
      uncertainty: base * (1 - base),
      within_bin_variance: wbv.value / n,
      within_bin_covariance: (2 * wbc.value) / n,
      bins,
    };
  }
}

/** Edges shown as their decimal (0.3, not 0.30000000000000004); the binning itself uses the exact ones. */
const tidyEdge = (x: number): number => Number(x.toFixed(12));

/** The called direction's probability; undefined for a call other than long or short. */
export function callProbability(f: Pick<ScoreInput, 'direction' | 'p_long' | 'p_short'>): number | undefined {
  if (f.direction === 'long') return f.p_long;
  if (f.direction === 'short') return f.p_short;
  return undefined;
}

/** Everything a timeframe's scores need, added one settled forecast at a time. */
export class TimeframeAccumulator {
  private wins = 0;
  private losses = 0;
  private neutrals = 0;
  private readonly moves = [0, 0, 0];
  private readonly brier3 = new CompensatedSum();
  private readonly logLoss = new CompensatedSum();
  readonly call: CallAccumulator;

  constructor(
    nBins: number,
    private readonly flatBandPct: number,
  ) {
    this.call = new CallAccumulator(nBins);
  }

  add(f: ScoreInput): void {
    const move = moveOf(returnPct(f.settle_price, f.anchor_price), this.flatBandPct);
    const outcome = outcomeOf(f.direction, move);
    if (outcome === 'win') this.wins++;
    else if (outcome === 'loss') this.losses++;
    else this.neutrals++;
    const k = move === 'up' ? 0 : move === 'down' ? 1 : 2;
    this.moves[k]!++;
    // Σ (p − o)² over long/short/flat, in that order, o the one-hot of the move (k: 0 up, 1 down, 2 flat).
    const { p_long, p_short, p_flat } = f;
    const sq =
      (p_long - (k === 0 ? 1 : 0)) ** 2 + (p_short - (k === 1 ? 1 : 0)) ** 2 + (p_flat - (k === 2 ? 1 : 0)) ** 2;
    this.brier3.add(sq);
    this.logLoss.add(-Math.log(Math.max(k === 0 ? p_long : k === 1 ? p_short : p_flat, LOG_LOSS_CLIP)));
    const pCall = callProbability(f);
    if (pCall !== undefined) this.call.add(pCall, outcome === 'win');
  }

  result(): TimeframeScores {
    const n = this.wins + this.losses + this.neutrals;
    const hit = resolvedRate(this.wins, this.losses);
    const brier = n > 0 ? this.brier3.value / n : null;
    const climatology = n > 0 ? 1 - this.moves.reduce((s, m) => s + (m / n) ** 2, 0) : 0;
    return {
      n_settled: n,
      wins: this.wins,
      losses: this.losses,
      neutrals: this.neutrals,
      hit_rate: hit?.rate ?? null,
      hit_rate_ci95: hit?.interval ?? null,
      brier_3class: brier,
      bss_3class: brier !== null && climatology > 0 ? 1 - brier / climatology : null,
      log_loss: n > 0 ? this.logLoss.value / n : null,
      call: this.call.result(),
    };
  }
}
