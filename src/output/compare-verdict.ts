// The sentences of `journal compare` that say what the figures mean: the verdict a person acts
// on (one pair on RPS) and the notes on what was left out or is too small to judge. Their own
// module because the terminal, Markdown and the MCP tool say them alike.
import type { Comparison, PairResult, TimeframeComparison } from '../evidence/compare/compare.js';
import { DASH, formatNumber, roundsToZero } from './format.js';

/** What the notes read: the comparison, what the read left out, and the small-sample bound. */
export interface CompareFacts {
  doc: Comparison;
  /** Settled forecasts left out for lacking ia2's probabilities. */
  lackingIa2: number;
  /** Fewer forecasts in a timeframe than this: a small sample (journal/score.ts's SMALL_SAMPLE). */
  smallSample: number;
}

export const MINUS = '−';
export const signed = (v: number, d = 4): string =>
  roundsToZero(v, d) ? (0).toFixed(d) : v < 0 ? `${MINUS}${(-v).toFixed(d)}` : `+${v.toFixed(d)}`;
export const fixed = (v: number | null | undefined, d = 4): string =>
  v === null || v === undefined || !Number.isFinite(v)
    ? DASH
    : roundsToZero(v, d)
      ? (0).toFixed(d)
      : v < 0
        ? `${MINUS}${(-v).toFixed(d)}`
        : v.toFixed(d);
export const pValue = (p: number | null | undefined): string =>
  p === null || p === undefined || !Number.isFinite(p) ? DASH : p < 0.001 ? '<0.001' : p.toFixed(3);
const pct = (alpha: number): string => `${Number((alpha * 100).toPrecision(6))}%`;

/** The sentence a person acts on: `a` against `b` on RPS, in the timeframe `t`. */
export function verdictLine(t: TimeframeComparison, pair: PairResult, alpha: number): string {
  const s = pair.scores.rps;
  const d = s.mean_diff;
  if (!Number.isFinite(d)) return `${pair.a} and ${pair.b}: nothing to compare`;
  const [better, worse] = d <= 0 ? [pair.a, pair.b] : [pair.b, pair.a];
  const head =
    s.dm.variance === 'zero'
      ? `${pair.a} and ${pair.b} score the same on RPS (every difference ${signed(d, 3)}): no difference`
      : d === 0
        ? `${pair.a} and ${pair.b} tie on RPS`
        : `${better} beats ${worse} on RPS by ${Math.abs(d).toFixed(3)}`;
  if (s.dm.variance === 'zero') return `${t.tf}: ${head}`;
  const eq = (p: number) => (p < 0.001 ? '< 0.001' : `= ${pValue(p)}`);
  const dm = s.dm.p_value === null ? 'DM test not possible (too few forecasts)' : `DM p ${eq(s.dm.p_value)}`;
  const significant = pair.p_holm !== null && pair.p_holm < alpha;
  const holm =
    pair.p_holm === null
      ? ''
      : `, ${significant ? '' : 'not '}significant at ${pct(alpha)} after Holm (p ${eq(pair.p_holm)})`;
  const ci = s.bootstrap.ci95;
  const boot = ci ? `; bootstrap 95% CI ${fixed(ci[0], 3)} to ${fixed(ci[1], 3)}` : '';
  return `${t.tf}: ${head}: ${dm}${holm}${boot}`;
}

export function compareNotes(view: CompareFacts): string[] {
  const notes: string[] = [];
  if (view.lackingIa2 > 0)
    notes.push(
      `${formatNumber(view.lackingIa2, 0)} settled forecast${view.lackingIa2 === 1 ? '' : 's'} lack ia2's probabilities (recorded before fcast kept every engine, or sent without them) and are left out`,
    );
  for (const t of view.doc.timeframes)
    if (t.n < view.smallSample)
      notes.push(
        `${t.tf}: ${t.n} forecast${t.n === 1 ? '' : 's'} compared, fewer than ${view.smallSample}: a small sample, its tests say little`,
      );
  return notes;
}
