// `fcast journal prune`: removes the records dated before a date.
import type { Run } from '../../cmdutil/command.js';
import { defineCommand, requiredFlag } from '../../cmdutil/define.js';
import { parseInstantFlag } from '../../cmdutil/journal-flags.js';
import { dataDir } from '../../config/settings.js';

export default defineCommand({
  name: 'prune',
  summary: 'remove the records dated before a date',
  description:
    'Removes the records dated before DATE (a forecast and its settlement by its ts, a price by its t); ' +
    '--dry-run counts them without removing anything.',
  flags: {
    before: requiredFlag('--before <date>', 'ISO 8601 time or epoch seconds', (raw) =>
      parseInstantFlag(raw, '--before'),
    ),
  },
  examples: [
    ['fcast journal prune --before 2026-01-01 --dry-run', 'count only'],
    ['fcast journal prune --before 2026-01-01', 'remove it'],
  ],
  run: (run, flags) => prune(run, flags.before),
});

export async function prune(run: Run, before: number): Promise<void> {
  // What it runs loads when it runs: the definition above is read whenever the journal's tree is
  // built (its help, completion).
  const [{ pruneJournal }, { renderPruneSummary }] = await Promise.all([
    import('../../journal/prune.js'),
    import('../../output/journal-views.js'),
  ]);
  const summary = await pruneJournal(dataDir(run.ctx), before, run.flags.dryRun === true);
  if (run.flags.json) return run.out.json(summary);
  run.out.data(renderPruneSummary(summary, run.flags.dryRun === true));
}
