// `fcast journal list`: the body, loaded when the subcommand runs (its flags are in index.ts).
import type { Run } from '../../cmdutil/command.js';
import type { JournalFilterFlags } from '../../cmdutil/journal-flags.js';
import { dataDir } from '../../config/settings.js';
import { DEFAULT_FLAT_BAND_PCT } from '../../journal/record.js';
import { forEachRow, LIST_COLUMNS, type JournalRow, type RowStatus } from '../../journal/rows.js';
import { openJournalDir } from '../../journal/journal-files.js';
import { renderDelimited } from '../../output/formats/delimited.js';
import { renderAlertRows, renderJournalRows } from '../../output/journal-views.js';
import { checkOneOrigin, filterOf, noteLeftOut, warnProblems } from './shared.js';
import { UsageError } from '../../core/errors.js';
import type { AlertRow } from '../../journal/alerts-list.js';

export interface ListFlags extends JournalFilterFlags {
  status?: string[];
  flatBand?: number;
  alerts?: boolean;
}

export async function list(run: Run, opts: ListFlags): Promise<void> {
  if (opts.alerts) return listAlerts(run, opts);
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

/** `--alerts`: the alerts a watch noted (--watch --alert --record), one row each, in the order noted. */
async function listAlerts(run: Run, opts: ListFlags): Promise<void> {
  if (opts.status !== undefined)
    throw new UsageError('--status is of forecasts; --alerts lists the alerts noted', {
      hint: "drop one of them, or see 'fcast journal list --help'",
    });
  const { ALERT_COLUMNS, alertRow, forEachAlert } = await import('../../journal/alerts-list.js');
  const filter = filterOf(run, opts);
  const dir = openJournalDir(dataDir(run.ctx), { create: false });
  const rows: AlertRow[] = [];
  const read = forEachAlert(dir, filter, (r) => rows.push(alertRow(r)));
  warnProblems(run, read);
  checkOneOrigin(filter, read.origins);
  if (run.format === 'json') return run.out.json(rows);
  if (run.format === 'csv' || run.format === 'tsv') {
    const header = [...ALERT_COLUMNS];
    return run.out.data(
      renderDelimited(
        run.format,
        header,
        rows.map((r) => header.map((c) => r[c])),
      ),
    );
  }
  run.out.data(renderAlertRows(run.out, rows));
}
