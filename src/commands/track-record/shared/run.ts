// What `track-record` and `accuracy` share once their flags are read: the baseline is read and
// checked before any request (exit 2 naming the file), the record is fetched, compared and
// computed once, rendered in the form asked for, checked (exit 8), and saved last.
import { accessSync, constants, lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { MAX_BODY_BYTES } from '../../../api/client.js';
import { fetchAccuracy, fetchTrackRecord, requests } from '../../../api/endpoints.js';
import type { TrackRecord } from '../../../schema/bodies.js';
import { saveFile } from '../../../core/sinks.js';
import { isDelimited, type Run } from '../../../cmdutil/command.js';
import { CheckFailedError, failureReason, InterruptedError, UsageError } from '../../../core/errors.js';
import { compareWithBaseline, filterMismatch, type RecordFilter } from '../../../evidence/baseline.js';
import { runChecks } from '../../../evidence/checks.js';
import type { EvidenceFlags } from './flags.js';
import { hasGates, hasPeriodGates } from '../../../evidence/gates.js';
import { recordRows } from '../../../evidence/rows.js';
import { reindentJson } from '../../../output/json.js';
import { clean } from '../../../output/sanitize.js';
import type { BaselineView, TrackRecordView } from '../../../output/track-record-table.js';

const BASELINE_HINT = 'give an earlier --json output of the same command, with the same --symbol and --tf';

interface Baseline {
  file: string;
  body: unknown;
}

function baselineError(file: string, why: string, cause?: unknown): UsageError {
  return new UsageError(`--baseline ${file}: ${why}`, { hint: BASELINE_HINT, cause });
}

async function readBaseline(file: string, filter: RecordFilter): Promise<Baseline> {
  let text: string;
  try {
    // The size cap of a response holds for a baseline too: it was one.
    if (statSync(file).size > MAX_BODY_BYTES) throw baselineError(file, 'it is larger than 16 MiB');
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw baselineError(file, `cannot read it: ${failureReason(err)}`, err);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    throw baselineError(file, 'it is not JSON', err);
  }
  const { TrackRecordSchema } = await import('../../../schema/bodies.js');
  const parsed = TrackRecordSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? issue.path.join('.') : 'the body';
    throw baselineError(file, `it is not a track-record body (${where}: ${issue.message})`);
  }
  const mismatch = filterMismatch(body, filter);
  if (mismatch) throw baselineError(file, `it answers another question: ${mismatch}`);
  return { file, body };
}

/**
 * Where --save writes, checked before any request: a regular file or none yet, in a writable
 * directory. A symlink is followed, so the file it names is replaced and the link kept (a
 * baseline shared through a link stays shared); a directory, device or pipe is refused.
 */
function savePath(file: string): string {
  try {
    const target = lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink() ? realpathSync(file) : file;
    const stat = statSync(target, { throwIfNoEntry: false });
    if (stat?.isDirectory()) throw new Error('it is a directory');
    if (stat && !stat.isFile()) throw new Error('it is not a regular file');
    accessSync(dirname(target), constants.W_OK);
    return target;
  } catch (err) {
    throw new UsageError(`--save ${file}: cannot write there: ${failureReason(err)}`, { cause: err });
  }
}

/** The family's commands by name (the CI annotations' `command`): the request each would send (for --dry-run), and its fetch. */
const ENDPOINTS = {
  'track-record': { request: requests.trackRecord, fetch: fetchTrackRecord },
  accuracy: { request: requests.accuracy, fetch: fetchAccuracy },
} as const;

export type EvidenceCommand = keyof typeof ENDPOINTS;

export async function runEvidenceCommand(
  run: Run,
  flags: EvidenceFlags,
  name: EvidenceCommand,
  filter: RecordFilter,
): Promise<number | undefined> {
  const { out } = run;
  if (hasPeriodGates(flags) && flags.baseline === undefined) {
    throw new UsageError(
      '--min-new-settled and --min-new-win-rate judge the period since a baseline: add --baseline FILE',
    );
  }
  const baseline = flags.baseline === undefined ? undefined : await readBaseline(flags.baseline, filter);
  const saveTo = flags.save === undefined ? undefined : savePath(flags.save);
  if (run.flags.dryRun) return run.dryRun(ENDPOINTS[name].request(filter));

  const res = await ENDPOINTS[name].fetch(await run.connect(), filter);
  const comparison = baseline ? compareWithBaseline(baseline.body, res.body) : undefined;
  const baselineView: BaselineView | undefined =
    baseline && comparison
      ? { file: baseline.file, generatedAt: (baseline.body as TrackRecord).generated_at, comparison }
      : undefined;
  const view: TrackRecordView = {
    body: res.body,
    figures: recordRows(res.body, comparison?.comparable ? comparison.changes : undefined),
    baseline: baselineView,
  };

  const render = await import('../../../output/track-record-table.js');
  if (run.flags.json) {
    // --json is the stronger promise (stdout is exactly the body), so it wins over --format.
    if (run.flags.format === 'markdown') out.note('note: --json prints the body as sent; --format markdown is ignored');
    out.rawJson(res.raw);
    for (const line of render.renderChangeLines(view)) out.note(clean(line));
  } else if (isDelimited(run.format)) {
    // Records hold what the body says; the period since a baseline is fcast's, told on stderr as with --json.
    const { trackRecordTable, renderRecords } = await import('../../../output/formats/tables.js');
    out.data(renderRecords(run.format, trackRecordTable(res.raw)));
    for (const line of render.renderChangeLines(view)) out.note(clean(line));
  } else {
    // A body off the documented shape (already warned about) goes to the generic renderer.
    const { renderChecked } = await import('../../../output/document.js');
    const format = run.format === 'markdown' ? render.renderTrackRecordMarkdown : render.renderTrackRecordTable;
    out.data(renderChecked(out, res, run.nowSeconds(), () => format(out, view)));
  }

  const report = runChecks(res.body, flags, {
    strict: run.flags.strict === true,
    baseline: baselineView && { file: baselineView.file, comparison: baselineView.comparison },
  });
  // In GitHub Actions, a run that checks something also says so as annotations and a step summary.
  const checked = hasGates(flags) || hasPeriodGates(flags) || flags.audit === true || baseline !== undefined;
  const annotating = checked && flags.annotations !== false && run.ctx.env.GITHUB_ACTIONS === 'true';
  // One line each: a timeframe or figure from the server must not break a line into two. A
  // failure or warning that an annotation will carry is said there alone: said once on stderr.
  const failing = new Set(report.failures.map((f) => f.text));
  for (const line of report.lines) {
    if (annotating && (line.level === 'warn' || failing.has(line.text))) continue;
    (line.level === 'warn' ? out.warn : out.note).call(out, clean(line.text));
  }
  if (run.ctx.env.GITHUB_OUTPUT) {
    const { writeEvidenceOutputs } = await import('./annotations.js');
    writeEvidenceOutputs({ out, env: run.ctx.env, report }, view.figures);
  }
  if (annotating) {
    const { annotateEvidence } = await import('./annotations.js');
    annotateEvidence({
      out,
      env: run.ctx.env,
      command: name,
      report,
      rows: view.figures.rows,
      markdown: res.wellFormed ? render.renderTrackRecordMarkdown(out, view) : undefined,
    });
  }
  if (report.problems.length) {
    if (flags.save !== undefined)
      out.note(`not saved to ${flags.save}: a check failed, so the baseline stays as it was`);
    throw new CheckFailedError(`check failed: ${report.problems.join('; ')}`);
  }
  if (flags.save === undefined || saveTo === undefined) return undefined;
  // A body a later --baseline would refuse is no baseline: the old one stays.
  if (!res.wellFormed) {
    out.note(`not saved to ${flags.save}: the body is off the documented shape, so the baseline stays as it was`);
    return undefined;
  }
  // Ctrl-C while the table was printed: the run ends 130, and nothing is written after it.
  if (run.ctx.signal.aborted) throw new InterruptedError();
  try {
    saveFile(saveTo, `${reindentJson(res.raw)}\n`, 0o644);
  } catch (err) {
    throw new UsageError(`--save ${flags.save}: cannot write it: ${failureReason(err)}`, { cause: err });
  }
  return undefined;
}
