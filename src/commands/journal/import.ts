// `fcast journal import`: merges an export into the journal, without duplicates.
import type { Run } from '../../cmdutil/command.js';
import { defineCommand, valueFlag } from '../../cmdutil/define.js';
import { parseOriginFlag } from '../../cmdutil/journal-flags.js';
import { dataDir } from '../../config/settings.js';

export default defineCommand({
  name: 'import',
  summary: 'merge an export into the journal',
  description:
    'Merges an export (CSV with the export columns in any order, others ignored; or its JSON Lines) ' +
    'into the journal, without duplicates; --dry-run counts what it would add without writing.',
  args: [{ name: '<file>', help: 'a file written by fcast journal export, or - for stdin' }],
  flags: {
    origin: valueFlag(
      '--origin <url|unknown>',
      'the service of the rows that name none (an export from before fcast kept origins); default unknown',
      (raw) => parseOriginFlag(raw, ['unknown']),
    ),
  },
  examples: [
    ['fcast journal import journal.csv', 'merge an export'],
    ['fcast journal import journal.jsonl --json', 'the counts as JSON'],
    ['fcast journal export | FCAST_DATA_DIR=copy fcast journal import -', 'from stdin'],
  ],
  run: (run, flags, file: string) => importFile(run, file, flags.origin),
});

export async function importFile(run: Run, file: string, origin: string | undefined): Promise<number | undefined> {
  // What it runs loads when it runs: the definition above is read whenever the journal's tree is
  // built (its help, completion).
  const [{ importJournal, importStdin }, { renderImportSummary }] = await Promise.all([
    import('../../journal/import.js'),
    import('../../output/journal-views.js'),
  ]);
  const dryRun = run.flags.dryRun === true;
  const opts = {
    dryRun,
    origin: origin === undefined || origin === 'unknown' ? null : origin,
    signal: run.ctx.signal,
  };
  const summary =
    file === '-'
      ? await importStdin(dataDir(run.ctx), run.ctx.io.stdin, run.nowSeconds(), opts)
      : await importJournal(dataDir(run.ctx), file, run.nowSeconds(), opts);
  const shown = file === '-' ? 'stdin' : file;
  for (const p of summary.problems) run.out.warn(`${shown}:${p.line}: row skipped: ${p.error}`);
  if (summary.skipped > summary.problems.length)
    run.out.warn(`${summary.skipped - summary.problems.length} more row(s) skipped`);
  if (run.flags.json) {
    run.out.json(summary);
    return undefined;
  }
  run.out.data(renderImportSummary(summary, shown, dryRun));
  return undefined;
}
