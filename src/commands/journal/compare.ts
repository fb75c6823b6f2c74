// `fcast journal compare`: the body, loaded when the subcommand runs (its flags are in
// index.ts). The journal read once (journal/compare.ts), the figures computed
// (evidence/compare/), the views drawn (output/journal-compare.ts), then the gate: the
// annotations and step outputs load only under GitHub Actions or with GITHUB_OUTPUT set.
import type { Run } from '../../cmdutil/command.js';
import type { JournalFilterFlags } from '../../cmdutil/journal-flags.js';
import { dataDir } from '../../config/settings.js';
import { CheckFailedError } from '../../core/errors.js';
import { compare, type Forecaster } from '../../evidence/compare/compare.js';
import { describeBetterGateFailure, evaluateBetterGate } from '../../evidence/compare/gate.js';
import { scanForCompare } from '../../journal/compare.js';
import { openJournalDir } from '../../journal/journal-files.js';
import { DEFAULT_FLAT_BAND_PCT } from '../../journal/record.js';
import { SMALL_SAMPLE } from '../../journal/score.js';
import {
  compareNotes,
  renderJournalCompareDelimited,
  renderJournalCompareMarkdown,
  renderJournalCompareTable,
} from '../../output/journal-compare.js';
import { checkOneOrigin, filterOf, noteLeftOut, warnProblems } from './shared.js';

export const DEFAULT_REPLICATES = 2000;
export const DEFAULT_SEED = 1;
export const DEFAULT_ALPHA = 0.05;

export interface CompareFlags extends JournalFilterFlags {
  flatBand?: number;
  bootstrap?: number;
  block?: number;
  seed?: number;
  alpha?: number;
  requireBetter?: [Forecaster, Forecaster];
  /** False with --no-annotations. */
  annotations?: boolean;
}

export async function compareEngines(run: Run, opts: CompareFlags): Promise<number | undefined> {
  const flatBandPct = opts.flatBand ?? DEFAULT_FLAT_BAND_PCT;
  const filter = filterOf(run, opts);
  const dir = openJournalDir(dataDir(run.ctx), { create: false });
  const scan = scanForCompare(dir, filter, flatBandPct);
  warnProblems(run, scan.problems);
  checkOneOrigin(filter, scan.origins);
  noteLeftOut(run, scan.leftOut);
  const { doc, curves } = compare(scan.samples, {
    flatBandPct,
    alpha: opts.alpha ?? DEFAULT_ALPHA,
    replicates: opts.bootstrap ?? DEFAULT_REPLICATES,
    seed: opts.seed ?? DEFAULT_SEED,
    block: opts.block,
  });
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
