// `fcast journal path`: where the journal is.
import { resolve } from 'node:path';
import type { Run } from '../../cmdutil/command.js';
import { defineCommand } from '../../cmdutil/define.js';
import { dataDir } from '../../config/settings.js';
import { journalDirOf, monthFiles, openJournalDir } from '../../journal/journal-files.js';

export default defineCommand({
  name: 'path',
  summary: 'where the journal is',
  description: 'The journal directory (in FCAST_DATA_DIR, else the OS data directory).',
  flags: {},
  examples: [
    ['fcast journal path', 'where the month files are'],
    ['jq -c .symbol "$(fcast journal path)"/*.jsonl', 'read it with jq'],
  ],
  run: (run) => path(run),
});

export async function path(run: Run): Promise<void> {
  const where = resolve(journalDirOf(dataDir(run.ctx)));
  if (!run.flags.json) return run.out.data(where);
  const dir = openJournalDir(dataDir(run.ctx), { create: false });
  run.out.json({ path: where, exists: dir !== undefined, files: dir ? monthFiles(dir) : [] });
}
