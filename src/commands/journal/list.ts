// `fcast journal list`: the recorded forecasts with their settlement, one row each.
import type { Run } from '../../cmdutil/command.js';
import { defineCommand, type FlagValues, flag, valueFlag } from '../../cmdutil/define.js';
import { parseChoice } from '../../cmdutil/input.js';
import { FILTER_FLAGS, FLAT_BAND_FLAG, ORIGIN_FLAG } from '../../cmdutil/journal-flags.js';
import { dataDir } from '../../config/settings.js';
import { DEFAULT_FLAT_BAND_PCT } from '../../journal/record.js';
import type { JournalRow, RowStatus } from '../../journal/rows.js';
import { checkOneOrigin, filterOf, noteLeftOut, warnProblems } from './shared.js';
import { UsageError } from '../../core/errors.js';
import type { AlertRow } from '../../journal/alerts-list.js';
import type { Cell } from '../../output/formats/delimited.js';

const FLAGS = {
  ...FILTER_FLAGS,
  status: valueFlag(
    '--status <status,...>',
    'only open, settled or unsettleable ones (comma-separated)',
    (raw: string, previous: RowStatus[] = []): RowStatus[] => [
      ...previous,
      ...raw.split(',').map((s) => parseChoice(s, ['open', 'settled', 'unsettleable'] as const, '--status')),
    ],
  ),
  alerts: flag('--alerts', 'the alerts a watch noted instead (--watch --alert --record)'),
  ...ORIGIN_FLAG,
  ...FLAT_BAND_FLAG,
};

export type ListFlags = FlagValues<typeof FLAGS>;

export default defineCommand({
  name: 'list',
  summary: 'the recorded forecasts, one row each',
  description: 'The recorded forecasts with their settlement, one row each.',
  flags: FLAGS,
  formats: ['table', 'json', 'csv', 'tsv', 'markdown'],
  examples: [
    ['fcast journal list --status open', 'what is still to settle'],
    ['fcast journal list --tf 1h --format csv', 'for a spreadsheet'],
  ],
  run: list,
});

export async function list(run: Run, opts: ListFlags): Promise<void> {
  if (opts.alerts) return listAlerts(run, opts);
  // What it runs loads when it runs: the definition above is read whenever the journal's tree is
  // built (its help, completion).
  const [{ forEachRow, LIST_COLUMNS }, { openJournalDir }, { renderJournalRows }] = await Promise.all([
    import('../../journal/rows.js'),
    import('../../journal/journal-files.js'),
    import('../../output/journal-views.js'),
  ]);
  const filter = {
    ...filterOf(run, opts),
    status: opts.status,
  };
  const dir = openJournalDir(dataDir(run.ctx), { create: false });
  const rows: JournalRow[] = [];
  const read = forEachRow(dir, filter, opts.flatBand ?? DEFAULT_FLAT_BAND_PCT, (r) => rows.push(r));
  warnProblems(run, read);
  checkOneOrigin(filter, read.origins);
  noteLeftOut(run, read.leftOut);
  return writeRows(run, rows, LIST_COLUMNS, () => renderJournalRows(run.out, rows));
}

/** `--alerts`: the alerts a watch noted (--watch --alert --record), one row each, in the order noted. */
async function listAlerts(run: Run, opts: ListFlags): Promise<void> {
  if (opts.status !== undefined)
    throw new UsageError('--status is of forecasts; --alerts lists the alerts noted', {
      hint: "drop one of them, or see 'fcast journal list --help'",
    });
  const [{ ALERT_COLUMNS, alertRow, forEachAlert }, { openJournalDir }, { renderAlertRows }] = await Promise.all([
    import('../../journal/alerts-list.js'),
    import('../../journal/journal-files.js'),
    import('../../output/journal-views.js'),
  ]);
  const filter = filterOf(run, opts);
  const dir = openJournalDir(dataDir(run.ctx), { create: false });
  const rows: AlertRow[] = [];
  const read = forEachAlert(dir, filter, (r) => rows.push(alertRow(r)));
  warnProblems(run, read);
  checkOneOrigin(filter, read.origins);
  return writeRows(run, rows, ALERT_COLUMNS, () => renderAlertRows(run.out, rows));
}

/** The rows as the format asks: --json as they are, csv and tsv by `columns`, else as `table` draws them. */
async function writeRows<R>(
  run: Run,
  rows: R[],
  columns: readonly (keyof R & string)[],
  table: () => string,
): Promise<void> {
  if (run.format === 'json') return run.out.json(rows);
  if (run.format === 'csv' || run.format === 'tsv') {
    const { renderDelimited } = await import('../../output/formats/delimited.js');
    return run.out.data(
      renderDelimited(
        run.format,
        columns,
        rows.map((r) => columns.map((c) => r[c] as Cell)),
      ),
    );
  }
  run.out.data(table());
}
