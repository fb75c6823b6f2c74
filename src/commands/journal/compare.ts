// `fcast journal compare`: the engines and climatology compared on the settled forecasts. The
// journal read once (journal/compare.ts), the figures computed
// (evidence/compare/), the views drawn (output/journal-compare.ts), then the gate: the
// annotations and step outputs load only under GitHub Actions or with GITHUB_OUTPUT set.
import type { Run } from '../../cmdutil/command.js';
import { defineCommand, type FlagValues, valueFlag } from '../../cmdutil/define.js';
import { parseChoice, parseRate, parseWholeNumber } from '../../cmdutil/input.js';
import { ANNOTATIONS_FLAG, FILTER_FLAGS, FLAT_BAND_FLAG, ORIGIN_FLAG } from '../../cmdutil/journal-flags.js';
import { dataDir } from '../../config/settings.js';
import { CheckFailedError, UsageError } from '../../core/errors.js';
import type { Forecaster } from '../../evidence/compare/compare.js';
import { DEFAULT_ALPHA, DEFAULT_REPLICATES, DEFAULT_SEED } from '../../evidence/compare/defaults.js';
import { describeBetterGateFailure, evaluateBetterGate } from '../../evidence/compare/gate.js';
import type { CompareScan } from '../../journal/compare.js';
import { type Compared, openComparison } from '../../journal/compare-threads.js';
import { openJournalDir } from '../../journal/journal-files.js';
import { DEFAULT_FLAT_BAND_PCT } from '../../journal/record.js';
import { SMALL_SAMPLE } from '../../journal/score.js';
import { compareNotes } from '../../output/compare-verdict.js';
import {
  renderJournalCompareDelimited,
  renderJournalCompareMarkdown,
  renderJournalCompareTable,
} from '../../output/journal-compare.js';
import { checkOneOrigin, filterOf, heardInterrupts, noteLeftOut, warnProblems } from './shared.js';

const FORECASTER_NAMES = ['ia2', 'ia3', 'climatology'] as const;

function parseRequireBetter(raw: string): [Forecaster, Forecaster] {
  const parts = raw.split(':');
  if (parts.length !== 2)
    throw new UsageError(`--require-better must be A:B, like ia3:ia2 (of ${FORECASTER_NAMES.join(', ')})`);
  const a = parseChoice(parts[0]!, FORECASTER_NAMES, '--require-better A');
  const b = parseChoice(parts[1]!, FORECASTER_NAMES, '--require-better B');
  if (a === b) throw new UsageError(`--require-better needs two different forecasters; got ${a}:${b}`);
  return [a, b];
}

const FLAGS = {
  ...FILTER_FLAGS,
  ...ORIGIN_FLAG,
  ...FLAT_BAND_FLAG,
  bootstrap: valueFlag('--bootstrap <n>', 'bootstrap replicates (default 2000)', (raw) =>
    parseWholeNumber(raw, '--bootstrap', 2, 1_000_000),
  ),
  block: valueFlag(
    '--block <l>',
    "the bootstrap's block length (default ⌈n^(1/3)⌉; never below the horizon's h)",
    (raw) => parseWholeNumber(raw, '--block', 1),
  ),
  seed: valueFlag('--seed <n>', "the bootstrap's seed (default 1: the same figures every run)", (raw) =>
    parseWholeNumber(raw, '--seed', 0, 4_294_967_295),
  ),
  alpha: valueFlag('--alpha <a>', 'the significance level of the verdict and the gate (default 0.05)', (raw) =>
    parseRate(raw, '--alpha'),
  ),
  requireBetter: valueFlag(
    '--require-better <a:b>',
    'gate: A beats B on RPS with Holm-adjusted DM p below --alpha in every timeframe (ia2, ia3, climatology)',
    parseRequireBetter,
  ),
  ...ANNOTATIONS_FLAG,
};

export type CompareFlags = FlagValues<typeof FLAGS>;

export default defineCommand({
  name: 'compare',
  summary: 'the engines and climatology compared on your settled forecasts',
  description:
    'Per timeframe, over the settled forecasts that carry both engines: ia2, ia3 and the sample ' +
    "climatology scored by RPS (short < flat < long), the 3-class Brier score and log loss; each pair's " +
    'mean loss difference tested by Diebold–Mariano (Harvey–Leybourne–Newbold, lags from overlapping ' +
    'horizons) and a circular block bootstrap, the RPS tests Holm-adjusted; CORP reliability curves ' +
    '(MCB, DSC, UNC) and Murphy diagrams. Reads the journal alone: no request.',
  flags: FLAGS,
  formats: ['table', 'json', 'markdown', 'csv', 'tsv'],
  examples: [
    ['fcast journal compare', 'tables, verdict and charts'],
    ['fcast journal compare --tf 1h --json', 'one timeframe as JSON'],
    ['fcast journal compare --format markdown', 'for a CI summary'],
    ['fcast journal compare --require-better ia3:ia2', 'a gate (exit 8)'],
  ],
  run: (run, flags) => compareEngines(run, flags),
});

export async function compareEngines(run: Run, opts: CompareFlags): Promise<number | undefined> {
  const flatBandPct = opts.flatBand ?? DEFAULT_FLAT_BAND_PCT;
  const filter = filterOf(run, opts);
  const dir = openJournalDir(dataDir(run.ctx), { create: false });
  const comparing = openComparison(dir, filter, flatBandPct, run.ctx.env.FCAST_SCAN_AHEAD);
  let scan: CompareScan;
  let compared: Compared;
  try {
    scan = comparing.scan();
    await heardInterrupts(run);
    warnProblems(run, scan.problems);
    checkOneOrigin(filter, scan.origins);
    noteLeftOut(run, scan.leftOut);
    compared = await comparing.compare(scan.samples, {
      flatBandPct,
      alpha: opts.alpha ?? DEFAULT_ALPHA,
      replicates: opts.bootstrap ?? DEFAULT_REPLICATES,
      seed: opts.seed ?? DEFAULT_SEED,
      block: opts.block,
    });
    await heardInterrupts(run);
  } finally {
    comparing.close();
  }
  const { doc, curves } = compared;
  const view = { doc, curves, lackingIa2: scan.lackingIa2, smallSample: SMALL_SAMPLE };
  if (run.format === 'json') run.out.json(doc);
  else if (run.format === 'markdown') run.out.data(renderJournalCompareMarkdown(run.out, view));
  else if (run.format === 'csv' || run.format === 'tsv') run.out.data(renderJournalCompareDelimited(run.format, view));
  else run.out.data(renderJournalCompareTable(run.out, view));
  // The table and Markdown show the notes; every other format leaves stdout to data.
  if (run.format !== 'table' && run.format !== 'markdown')
    for (const note of compareNotes(view)) run.out.note(`note: ${note}`);

  if (!opts.requireBetter) return undefined;
  const [a, b] = opts.requireBetter;
  const failures = evaluateBetterGate(doc, a, b);
  const annotating = opts.annotations !== false && run.ctx.env.GITHUB_ACTIONS === 'true';
  if (!annotating) for (const f of failures) run.out.note(describeBetterGateFailure(f));
  if (annotating || run.ctx.env.GITHUB_OUTPUT) {
    const { annotateCompare, writeCompareOutputs } = await import('../../cmdutil/compare-annotations.js');
    if (run.ctx.env.GITHUB_OUTPUT) writeCompareOutputs(run.out, run.ctx.env, failures, doc, a, b);
    if (annotating)
      annotateCompare(run.out, run.ctx.env, { failures, doc, markdown: renderJournalCompareMarkdown(run.out, view) });
  }
  if (failures.length > 0)
    throw new CheckFailedError(`check failed: ${failures.length} gate failure${failures.length === 1 ? '' : 's'}`);
  return undefined;
}
