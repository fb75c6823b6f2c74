// `journal report`'s gates in GitHub Actions' terms, as track-record's are
// (evidence-annotations.ts): one ::error per timeframe that failed a gate (its lines as the
// message), a ::warning for each timeframe settled on too few forecasts (journal/score.ts's
// SMALL_SAMPLE), and the Markdown report with the verdict for the step summary; and the step
// outputs for $GITHUB_OUTPUT. Loaded only under GITHUB_ACTIONS=true or with GITHUB_OUTPUT set.
import type { Env } from '../core/context.js';
import { describeJournalGateFailure, type JournalGateFailure } from '../journal/gates.js';
import { SMALL_SAMPLE } from '../journal/score.js';
import {
  type Annotation,
  annotate,
  outputFigure,
  outputName,
  verdictMarkdown,
  writeOutputs,
} from '../output/annotations.js';
import type { Output } from '../output/io.js';

const TITLE = 'fcast journal report';

export function journalAnnotations(
  failures: readonly JournalGateFailure[],
  timeframes: ReadonlyArray<{ tf: string; n_settled: number }>,
): Annotation[] {
  const groups = new Map<string, string[]>();
  for (const f of failures) {
    const key = f.timeframe ?? '';
    groups.set(key, [...(groups.get(key) ?? []), describeJournalGateFailure(f)]);
  }
  const annotations: Annotation[] = [...groups].map(([tf, lines]) => ({
    level: 'error',
    title: `${TITLE}: gate failed${tf === '' ? '' : ` (${tf})`}`,
    message: lines.join('\n'),
  }));
  for (const t of timeframes)
    if (t.n_settled < SMALL_SAMPLE)
      annotations.push({
        level: 'warning',
        title: `${TITLE}: small sample (${t.tf})`,
        message: `${t.tf}: ${t.n_settled} settled: its scores say little yet`,
      });
  return annotations;
}

export function annotateJournal(
  out: Output,
  env: Env,
  run: {
    failures: readonly JournalGateFailure[];
    timeframes: ReadonlyArray<{ tf: string; n_settled: number }>;
    markdown: string;
  },
): void {
  const lines = run.failures.map(describeJournalGateFailure);
  const verdict = verdictMarkdown({
    subject: TITLE,
    passed: run.failures.length === 0,
    problems: run.failures.length ? [`${run.failures.length} gate failure${run.failures.length === 1 ? '' : 's'}`] : [],
    lines,
  });
  annotate(out, env, {
    annotations: journalAnnotations(run.failures, run.timeframes),
    summary: `${run.markdown}\n\n${verdict}`,
  });
}

interface ScoredTimeframe {
  tf: string;
  n_settled: number;
  hit_rate: number | null;
  call: { brier: number | null };
}

const figure = outputFigure;

/**
 * The step outputs of a report (docs/formats.md, "Step outputs"): the verdict, the failing
 * lines, the timeframes, `settled` in all, and per timeframe its settled count, hit rate and
 * Brier score (`settled_1h`, `hit_rate_1h`, `brier_1h`); a figure that is null is empty.
 */
export function journalOutputs(
  failures: readonly JournalGateFailure[],
  timeframes: readonly ScoredTimeframe[],
): Record<string, string> {
  const outputs: Record<string, string> = {
    verdict: failures.length === 0 ? 'pass' : 'fail',
    failures: failures.map(describeJournalGateFailure).join('\n'),
    timeframes: timeframes.map((t) => t.tf).join(' '),
    settled: figure(timeframes.reduce((sum, t) => sum + t.n_settled, 0)),
  };
  for (const t of timeframes) {
    const tf = outputName(t.tf);
    outputs[`settled_${tf}`] = figure(t.n_settled);
    outputs[`hit_rate_${tf}`] = figure(t.hit_rate);
    outputs[`brier_${tf}`] = figure(t.call.brier);
  }
  return outputs;
}

export function writeJournalOutputs(
  out: Output,
  env: Env,
  failures: readonly JournalGateFailure[],
  timeframes: readonly ScoredTimeframe[],
): void {
  writeOutputs(out, env, journalOutputs(failures, timeframes));
}
