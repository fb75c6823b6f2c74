// `fcast journal report`: the body, loaded when the subcommand runs (its flags are in index.ts).
// Two parts load only when used: the service's figures (the HTTP layer; never with --offline)
// and the GitHub Actions annotations (only for gates under Actions).
import type { Run } from '../../cmdutil/command.js';
import { DEFAULT_BINS, type JournalFilterFlags } from '../../cmdutil/journal-flags.js';
import type { TrackRecordResult } from '../../schema/bodies.js';
import { dataDir } from '../../config/settings.js';
import { CheckFailedError } from '../../core/errors.js';
import { describeJournalGateFailure, evaluateJournalGates, hasJournalGates } from '../../journal/gates.js';
import { DEFAULT_FLAT_BAND_PCT } from '../../journal/record.js';
import { buildReport, disjointIntervals, scanJournal } from '../../journal/report.js';
import { SMALL_SAMPLE } from '../../journal/score.js';
import { openJournalDir } from '../../journal/journal-files.js';
import {
  renderJournalReportDelimited,
  renderJournalReportMarkdown,
  renderJournalReportTable,
} from '../../output/journal-report.js';
import { checkOneOrigin, filterOf, noteLeftOut, warnProblems } from './shared.js';

export interface ReportFlags extends JournalFilterFlags {
  bins?: number;
  flatBand?: number;
  offline?: boolean;
  minSettled?: number;
  maxBrier?: number;
  minHitRate?: number;
  /** False with --no-annotations. */
  annotations?: boolean;
}

export async function report(run: Run, opts: ReportFlags): Promise<number | undefined> {
  const bins = opts.bins ?? DEFAULT_BINS;
  const flatBandPct = opts.flatBand ?? DEFAULT_FLAT_BAND_PCT;
  const filter = filterOf(run, opts);
  const dir = openJournalDir(dataDir(run.ctx), { create: false });
  const scan = scanJournal(dir, filter, { bins, flatBandPct });
  warnProblems(run, scan.problems);
  checkOneOrigin(filter, scan.origins);
  noteLeftOut(run, scan.leftOut);

  let records: Map<string, TrackRecordResult[] | null> | undefined;
  let serviceMeta: unknown;
  if (!opts.offline && scan.symbols.length > 0) {
    const { fetchServiceRecords } = await import('./service-records.js');
    const fetched = await fetchServiceRecords(run, scan.symbols);
    if (fetched === 'dry-run') return 0;
    records = fetched?.records;
    serviceMeta = fetched?.meta;
  }
  const doc = buildReport(scan, { bins, flatBandPct }, records);
  const notes = disjointIntervals(doc);
  const view = {
    report: doc,
    symbols: scan.symbols,
    first: scan.first,
    last: scan.last,
    notes,
    serviceMeta,
    recordedTiers: scan.tiers,
    smallSample: SMALL_SAMPLE,
  };
  if (run.format === 'json') run.out.json(doc);
  else if (run.format === 'markdown') run.out.data(renderJournalReportMarkdown(run.out, view));
  else if (run.format === 'csv' || run.format === 'tsv') run.out.data(renderJournalReportDelimited(run.format, view));
  else run.out.data(renderJournalReportTable(run.out, view));
  // The table shows the notes; every other format leaves stdout to data.
  if (run.format !== 'table' && run.format !== 'markdown') for (const note of notes) run.out.note(`note: ${note}`);

  const failures = evaluateJournalGates(doc.timeframes, opts);
  // In GitHub Actions, a run with gates also says so as annotations and a step summary; a
  // failure is then said there alone (once on stderr).
  const annotating = hasJournalGates(opts) && opts.annotations !== false && run.ctx.env.GITHUB_ACTIONS === 'true';
  if (!annotating) for (const f of failures) run.out.note(describeJournalGateFailure(f));
  if (hasJournalGates(opts) && run.ctx.env.GITHUB_OUTPUT) {
    const { writeJournalOutputs } = await import('../../cmdutil/journal-annotations.js');
    writeJournalOutputs(run.out, run.ctx.env, failures, doc.timeframes);
  }
  if (annotating) {
    const { annotateJournal } = await import('../../cmdutil/journal-annotations.js');
    annotateJournal(run.out, run.ctx.env, {
      failures,
      timeframes: doc.timeframes,
      markdown: renderJournalReportMarkdown(run.out, view),
    });
  }
  if (failures.length > 0)
    throw new CheckFailedError(`check failed: ${failures.length} gate failure${failures.length === 1 ? '' : 's'}`);
  return undefined;
}
