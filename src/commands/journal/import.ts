// `fcast journal import`: the body, loaded when the subcommand runs (its flags are in index.ts).
import type { Run } from '../../cmdutil/command.js';
import { dataDir } from '../../config/settings.js';
import { importJournal, importStdin } from '../../journal/import.js';
import { renderImportSummary } from '../../output/journal-views.js';

export async function importFile(run: Run, file: string, origin: string | undefined): Promise<number | undefined> {
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
