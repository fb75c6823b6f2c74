// `fcast journal prune`: the body, loaded when the subcommand runs (its flags are in index.ts).
import type { Run } from '../../cmdutil/command.js';
import { dataDir } from '../../config/settings.js';
import { pruneJournal } from '../../journal/prune.js';
import { renderPruneSummary } from '../../output/journal-views.js';

export async function prune(run: Run, before: number): Promise<void> {
  const summary = await pruneJournal(dataDir(run.ctx), before, run.flags.dryRun === true);
  if (run.flags.json) return run.out.json(summary);
  run.out.data(renderPruneSummary(summary, run.flags.dryRun === true));
}
