// `journal compare --require-better A:B`: A must beat B on RPS in every timeframe shown, by a
// mean loss difference below 0 whose Holm-adjusted Diebold–Mariano p is below --alpha. The
// pair may be listed either way round (ia3−ia2 serves ia2:ia3 too: the p is the same, the
// difference's sign turns). A comparison with no timeframes fails once: nothing proves it.
import type { Comparison, Forecaster, TimeframeComparison } from './compare.js';

export interface BetterGateFailure {
  /** undefined when the comparison had no timeframes. */
  timeframe: string | undefined;
  a: Forecaster;
  b: Forecaster;
  /** a − b on RPS (negative: a better); null when undefined. */
  meanDiff: number | null;
  pHolm: number | null;
  alpha: number;
}

/** A's RPS minus B's in one timeframe, and the Holm-adjusted p of their test. */
export function pairFigures(
  t: TimeframeComparison,
  a: Forecaster,
  b: Forecaster,
): { meanDiff: number | null; pHolm: number | null } {
  for (const p of t.pairs) {
    if (p.a === a && p.b === b) return { meanDiff: p.scores.rps.mean_diff, pHolm: p.p_holm };
    if (p.a === b && p.b === a) return { meanDiff: -p.scores.rps.mean_diff, pHolm: p.p_holm };
  }
  return { meanDiff: null, pHolm: null };
}

export function evaluateBetterGate(doc: Comparison, a: Forecaster, b: Forecaster): BetterGateFailure[] {
  const { alpha } = doc;
  if (doc.timeframes.length === 0) return [{ timeframe: undefined, a, b, meanDiff: null, pHolm: null, alpha }];
  return doc.timeframes.flatMap((t) => {
    const { meanDiff, pHolm } = pairFigures(t, a, b);
    const ok = meanDiff !== null && Number.isFinite(meanDiff) && meanDiff < 0 && pHolm !== null && pHolm < alpha;
    return ok ? [] : [{ timeframe: t.tf, a, b, meanDiff, pHolm, alpha }];
  });
}

export function describeBetterGateFailure(f: BetterGateFailure): string {
  const gate = `--require-better ${f.a}:${f.b}`;
  if (f.timeframe === undefined)
    return `gate failed: ${gate}: the comparison has no timeframes, so nothing proves ${f.a} better`;
  if (f.meanDiff === null || !Number.isFinite(f.meanDiff))
    return `gate failed: ${f.timeframe}: no forecasts to compare ${f.a} and ${f.b} on: ${gate} fails`;
  const p = f.pHolm === null ? 'no DM test (too few forecasts)' : `Holm-adjusted DM p ${f.pHolm.toPrecision(3)}`;
  const diff = `${f.meanDiff >= 0 ? '+' : ''}${f.meanDiff.toFixed(4)}`;
  if (f.meanDiff >= 0)
    return `gate failed: ${f.timeframe}: ${f.a} does not beat ${f.b} on RPS (${f.a} − ${f.b} = ${diff}; ${p}): ${gate}`;
  return `gate failed: ${f.timeframe}: ${f.a} beats ${f.b} on RPS by ${(-f.meanDiff).toFixed(4)}, but ${p} is not below --alpha ${f.alpha}: ${gate}`;
}
