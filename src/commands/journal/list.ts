// `fcast journal list`: the body, loaded when the subcommand runs (its flags are in index.ts).
import type { Run } from '../../cmdutil/command.js';
import type { JournalFilterFlags } from '../../cmdutil/journal-flags.js';
import { dataDir } from '../../config/settings.js';
import { DEFAULT_FLAT_BAND_PCT } from '../../journal/record.js';
import { forEachRow, LIST_COLUMNS, type JournalRow, type RowStatus } from '../../journal/rows.js';
import { openJournalDir } from '../../journal/journal-files.js';
import { renderDelimited } from '../../output/formats/delimited.js';
import { renderJournalRows } from '../../output/journal-views.js';
import { checkOneOrigin, filterOf, noteLeftOut, warnProblems } from './shared.js';

export interface ListFlags extends JournalFilterFlags {
  status?: string[];
  flatBand?: number;
}

export async function list(run: Run, opts: ListFlags): Promise<void> {
  const filter = {
    ...filterOf(run, opts),
    status: opts.status as RowStatus[] | undefined,
  };
  const dir = openJournalDir(dataDir(run.ctx), { create: false });
  const rows: JournalRow[] = [];
  const read = forEachRow(dir, filter, opts.flatBand ?? DEFAULT_FLAT_BAND_PCT, (r) => rows.push(r));
  warnProblems(run, read);
  checkOneOrigin(filter, read.origins);
  noteLeftOut(run, read.leftOut);
  if (run.format === 'json') return run.out.json(rows);
  if (run.format === 'csv' || run.format === 'tsv') {
    const header = LIST_COLUMNS;
    return run.out.data(
      renderDelimited(
        run.format,
        header,
        rows.map((r) => header.map((c) => r[c])),
      ),
    );
  }
  run.out.data(renderJournalRows(run.out, rows));
}
