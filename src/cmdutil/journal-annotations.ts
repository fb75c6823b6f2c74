// `journal report`'s gates in GitHub Actions' terms, as track-record's are
// (evidence-annotations.ts): one ::error per timeframe that failed a gate (its lines as the
// message), a ::warning for each timeframe settled on too few forecasts (journal/score.ts's
// SMALL_SAMPLE), and the Markdown report with the verdict for the step summary; and the step
// outputs for $GITHUB_OUTPUT. Loaded only under GITHUB_ACTIONS=true or with GITHUB_OUTPUT set.
import type { Env } from '../core/context.js';
import { describeJournalGateFailure, type JournalGateFailure } from '../journal/gates.js';
import { SMALL_SAMPLE } from '../journal/score.js';
import { type Annotation, annotateVerdict, gateFailures, gateOutputs, writeOutputs } from '../output/annotations.js';
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
  annotateVerdict(out, env, {
    annotations: journalAnnotations(run.failures, run.timeframes),
    markdown: run.markdown,
    verdict: {
      subject: TITLE,
      problems: gateFailures(run.failures.length),
      lines: run.failures.map(describeJournalGateFailure),
    },
  });
}

interface ScoredTimeframe {
  tf: string;
  n_settled: number;
  hit_rate: number | null;
  call: { brier: number | null };
}

/**
 * The step outputs of a report (docs/formats.md, "Step outputs"): the verdict, the failing
 * lines, the timeframes, `settled` in all, and per timeframe its settled count, hit rate and
 * Brier score (`settled_1h`, `hit_rate_1h`, `brier_1h`); a figure that is null is empty.
 */
export function journalOutputs(
  failures: readonly JournalGateFailure[],
  timeframes: readonly ScoredTimeframe[],
): Record<string, string> {
  return gateOutputs(
    failures.map(describeJournalGateFailure),
    failures.length === 0,
    timeframes,
    (t) => t.tf,
    (t) => ({ settled: t.n_settled, hit_rate: t.hit_rate, brier: t.call.brier }),
    { settled: timeframes.reduce((sum, t) => sum + t.n_settled, 0) },
  );
}

export function writeJournalOutputs(
  out: Output,
  env: Env,
  failures: readonly JournalGateFailure[],
  timeframes: readonly ScoredTimeframe[],
): void {
  writeOutputs(out, env, journalOutputs(failures, timeframes));
}
