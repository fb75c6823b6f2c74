// `journal compare --require-better`'s gate in GitHub Actions' terms, as journal report's are
// (journal-annotations.ts): one ::error per timeframe that failed, a ::warning for each
// timeframe compared on too few forecasts (journal/score.ts's SMALL_SAMPLE), the Markdown
// comparison with the verdict for the step summary; and the step outputs for $GITHUB_OUTPUT.
// Loaded only under GITHUB_ACTIONS=true or with GITHUB_OUTPUT set.
import type { Env } from '../core/context.js';
import type { Comparison, Forecaster } from '../evidence/compare/compare.js';
import { type BetterGateFailure, describeBetterGateFailure, pairFigures } from '../evidence/compare/gate.js';
import { SMALL_SAMPLE } from '../journal/score.js';
import { type Annotation, annotateVerdict, gateFailures, gateOutputs, writeOutputs } from '../output/annotations.js';
import type { Output } from '../output/io.js';

const TITLE = 'fcast journal compare';

export function compareAnnotations(failures: readonly BetterGateFailure[], doc: Comparison): Annotation[] {
  const annotations: Annotation[] = failures.map((f) => ({
    level: 'error',
    title: `${TITLE}: gate failed${f.timeframe === undefined ? '' : ` (${f.timeframe})`}`,
    message: describeBetterGateFailure(f),
  }));
  for (const t of doc.timeframes)
    if (t.n < SMALL_SAMPLE)
      annotations.push({
        level: 'warning',
        title: `${TITLE}: small sample (${t.tf})`,
        message: `${t.tf}: ${t.n} forecasts compared: its tests say little yet`,
      });
  return annotations;
}

export function annotateCompare(
  out: Output,
  env: Env,
  run: { failures: readonly BetterGateFailure[]; doc: Comparison; markdown: string },
): void {
  annotateVerdict(out, env, {
    annotations: compareAnnotations(run.failures, run.doc),
    markdown: run.markdown,
    verdict: {
      subject: TITLE,
      problems: gateFailures(run.failures.length),
      lines: run.failures.map(describeBetterGateFailure),
    },
  });
}

/**
 * The step outputs (docs/formats.md, "Step outputs"): the verdict, the failing lines, the
 * timeframes, and per timeframe the forecasts compared, A − B on RPS and its Holm-adjusted p
 * (`n_1h`, `rps_diff_1h`, `p_holm_1h`); a figure that is null is empty.
 */
export function compareOutputs(
  failures: readonly BetterGateFailure[],
  doc: Comparison,
  a: Forecaster,
  b: Forecaster,
): Record<string, string> {
  return gateOutputs(
    failures.map(describeBetterGateFailure),
    failures.length === 0,
    doc.timeframes,
    (t) => t.tf,
    (t) => {
      const { meanDiff, pHolm } = pairFigures(t, a, b);
      return { n: t.n, rps_diff: meanDiff, p_holm: pHolm };
    },
  );
}

export function writeCompareOutputs(
  out: Output,
  env: Env,
  failures: readonly BetterGateFailure[],
  doc: Comparison,
  a: Forecaster,
  b: Forecaster,
): void {
  writeOutputs(out, env, compareOutputs(failures, doc, a, b));
}
