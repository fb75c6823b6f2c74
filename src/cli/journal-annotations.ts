// `journal report`'s gates in GitHub Actions' terms, as track-record's are
// (evidence-annotations.ts): one ::error per timeframe that failed a gate (its lines as the
// message), a ::warning for each timeframe settled on too few forecasts (journal/score.ts's
// SMALL_SAMPLE), and the Markdown report with the verdict for the step summary. Loaded only
// under GITHUB_ACTIONS=true.
import type { Env } from '../core/context.js';
import { describeJournalGateFailure, type JournalGateFailure } from '../journal/gates.js';
import { SMALL_SAMPLE } from '../journal/score.js';
import { type Annotation, annotate, verdictMarkdown } from '../output/annotations.js';
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
