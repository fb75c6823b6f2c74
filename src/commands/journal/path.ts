// `fcast journal path`: the body, loaded when the subcommand runs (its flags are in index.ts).
import { resolve } from 'node:path';
import type { Run } from '../../cmdutil/command.js';
import { dataDir } from '../../config/settings.js';
import { journalDirOf, monthFiles, openJournalDir } from '../../journal/journal-files.js';

export async function path(run: Run): Promise<void> {
  const where = resolve(journalDirOf(dataDir(run.ctx)));
  if (!run.flags.json) return run.out.data(where);
  const dir = openJournalDir(dataDir(run.ctx), { create: false });
  run.out.json({ path: where, exists: dir !== undefined, files: dir ? monthFiles(dir) : [] });
}
