// `fcast journal report`: the journal scored per timeframe, beside the service's published record.
// Two parts load only when used: the service's figures (the HTTP layer; never with --offline)
// and the GitHub Actions annotations (only for gates under Actions).
import type { Run } from '../../cmdutil/command.js';
import { defineCommand, flag, type FlagValues, valueFlag } from '../../cmdutil/define.js';
import {
  ANNOTATIONS_FLAG,
  DEFAULT_BINS,
  FILTER_FLAGS,
  FLAT_BAND_FLAG,
  GATE_FLAGS,
  ORIGIN_FLAG,
  parseBins,
} from '../../cmdutil/journal-flags.js';
import type { TrackRecordResult } from '../../schema/bodies.js';
import { dataDir } from '../../config/settings.js';
import { CheckFailedError } from '../../core/errors.js';
import { describeJournalGateFailure, evaluateJournalGates, hasJournalGates } from '../../journal/gates.js';
import { DEFAULT_FLAT_BAND_PCT } from '../../journal/record.js';
import { SMALL_SAMPLE } from '../../journal/score.js';
import { checkOneOrigin, filterOf, heardInterrupts, noteLeftOut, warnProblems } from './shared.js';

const FLAGS = {
  ...FILTER_FLAGS,
  ...GATE_FLAGS,
  ...ORIGIN_FLAG,
  bins: valueFlag('--bins <n>', `reliability bins over [0, 1] (default ${DEFAULT_BINS})`, parseBins),
  ...FLAT_BAND_FLAG,
  offline: flag('--offline', "no track-record requests: the service's figures are left out"),
  ...ANNOTATIONS_FLAG,
};

export type ReportFlags = FlagValues<typeof FLAGS>;

export default defineCommand({
  name: 'report',
  summary: 'scores, reliability and the service beside them, per timeframe',
  description:
    'Per timeframe: settled forecasts, wins/losses/neutrals, the hit rate (wins over wins and losses) ' +
    'with its Wilson 95% interval, the 3-class Brier score and its skill, the log loss, and for the ' +
    "called direction's probability against a win the Brier score with its decomposition (reliability, " +
    'resolution, uncertainty, within-bin variance and covariance) and a reliability table and chart; ' +
    "beside them the service's published resolved win rate (one track-record request per symbol, " +
    'none with --offline).',
  flags: FLAGS,
  formats: ['table', 'json', 'markdown', 'csv', 'tsv'],
  examples: [
    ['fcast journal report', 'with charts'],
    ['fcast journal report --symbol BTC/USD --tf 1h', 'one slice'],
    ['fcast journal report --format markdown', 'for a CI summary'],
    ['fcast journal report --offline --max-brier 0.25', 'a gate (exit 8)'],
  ],
  notes: [
    [
      'Gates (exit 8 when a timeframe fails one)',
      'A figure equal to the threshold passes; a null one fails; a report with no timeframes fails each gate once.',
    ],
  ],
  run: report,
});

export async function report(run: Run, opts: ReportFlags): Promise<number | undefined> {
  const bins = opts.bins ?? DEFAULT_BINS;
  const flatBandPct = opts.flatBand ?? DEFAULT_FLAT_BAND_PCT;
  const filter = filterOf(run, opts);
  // The reader and the views load when it runs: the definition above is read whenever the
  // journal's tree is built (its help, completion).
  const [{ buildReport, disjointIntervals, scanJournal }, { openJournalDir }, views] = await Promise.all([
    import('../../journal/report.js'),
    import('../../journal/journal-files.js'),
    import('../../output/journal-report.js'),
  ]);
  const dir = openJournalDir(dataDir(run.ctx), { create: false });
  const scan = scanJournal(dir, filter, { bins, flatBandPct, ahead: run.ctx.env.FCAST_SCAN_AHEAD });
  await heardInterrupts(run);
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
  else if (run.format === 'markdown') run.out.data(views.renderJournalReportMarkdown(run.out, view));
  else if (run.format === 'csv' || run.format === 'tsv')
    run.out.data(views.renderJournalReportDelimited(run.format, view));
  else run.out.data(views.renderJournalReportTable(run.out, view));
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
      markdown: views.renderJournalReportMarkdown(run.out, view),
    });
  }
  if (failures.length > 0)
    throw new CheckFailedError(`check failed: ${failures.length} gate failure${failures.length === 1 ? '' : 's'}`);
  return undefined;
}
