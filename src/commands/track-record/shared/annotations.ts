// track-record's and accuracy's checks in GitHub Actions' terms: one ::error per timeframe and
// kind of check that failed (its lines as the message), a ::warning for each warning the checks
// gave and for each timeframe whose sample the service calls insufficient, and the Markdown
// table with the verdict for the step summary; and the step outputs for $GITHUB_OUTPUT. Loaded
// only under GITHUB_ACTIONS=true or with GITHUB_OUTPUT set.
import type { RecordRow, RecordRows } from '../../../core/domain.js';
import type { CheckKind, CheckReport } from '../../../evidence/checks.js';
import { type Annotation, annotateVerdict, gateOutputs, writeOutputs } from '../../../output/annotations.js';
import type { Output } from '../../../output/io.js';
import type { Env } from '../../../core/context.js';

const KIND_TITLE: Record<CheckKind, string> = { gate: 'gate failed', audit: 'audit', baseline: 'baseline' };

export interface EvidenceRun {
  out: Output;
  env: Env;
  /** `track-record`, `accuracy`. */
  command: string;
  report: CheckReport;
  rows: readonly RecordRow[];
  /** The Markdown table of the record; undefined for a body off the documented shape. */
  markdown: string | undefined;
}

/** Each failure grouped by its check and timeframe, in the order they came; then the warnings. */
export function evidenceAnnotations(command: string, report: CheckReport, rows: readonly RecordRow[]): Annotation[] {
  const groups = new Map<string, { kind: CheckKind; timeframe: string | undefined; lines: string[] }>();
  for (const f of report.failures) {
    const key = JSON.stringify([f.check, f.timeframe ?? null]);
    const group = groups.get(key) ?? { kind: f.check, timeframe: f.timeframe, lines: [] };
    group.lines.push(f.text);
    groups.set(key, group);
  }
  const title = (what: string, timeframe: string | undefined) =>
    `fcast ${command}: ${what}${timeframe === undefined ? '' : ` (${timeframe})`}`;
  const annotations: Annotation[] = [...groups.values()].map((g) => ({
    level: 'error',
    title: title(KIND_TITLE[g.kind], g.timeframe),
    message: g.lines.join('\n'),
  }));
  for (const line of report.lines)
    if (line.level === 'warn')
      annotations.push({ level: 'warning', title: title('warning', undefined), message: line.text });
  for (const row of rows)
    if (row.maturity === 'insufficient_sample')
      annotations.push({
        level: 'warning',
        title: title('small sample', row.timeframe),
        message: `${row.timeframe}: maturity insufficient_sample (${row.settled ?? 'unknown'} settled): its win rate says little yet`,
      });
  return annotations;
}

export function annotateEvidence(run: EvidenceRun): void {
  const { report } = run;
  annotateVerdict(run.out, run.env, {
    annotations: evidenceAnnotations(run.command, report, run.rows),
    markdown: run.markdown,
    verdict: { subject: `fcast ${run.command}`, problems: report.problems, lines: report.lines.map((l) => l.text) },
  });
}

/**
 * The step outputs of a run (docs/formats.md, "Step outputs"): the verdict, the failing lines,
 * the timeframes, and per timeframe its settled count, win rate and maturity (`settled_1h`);
 * `settled` and `win_rate` of the whole (the one timeframe's, or the total of several), and
 * `maturity` when there is one timeframe. A figure the body lacks is empty.
 */
export function evidenceOutputs(report: CheckReport, figures: RecordRows): Record<string, string> {
  const { rows } = figures;
  const whole = rows.length === 1 ? rows[0] : figures.total;
  return gateOutputs(
    report.failures.map((f) => f.text),
    report.problems.length === 0,
    rows,
    (row) => row.timeframe,
    (row) => ({ settled: row.settled, win_rate: row.rate, maturity: row.maturity }),
    { settled: whole?.settled, win_rate: whole?.rate, maturity: rows.length === 1 ? rows[0]!.maturity : '' },
  );
}

export function writeEvidenceOutputs(run: Pick<EvidenceRun, 'out' | 'env' | 'report'>, figures: RecordRows): void {
  writeOutputs(run.out, run.env, evidenceOutputs(run.report, figures));
}
