// `fcast journal export`: every recorded forecast with its settlement, as CSV, TSV or JSON Lines.
import type { Run } from '../../cmdutil/command.js';
import { defineCommand, flag, type FlagValues } from '../../cmdutil/define.js';
import { FILTER_FLAGS, FLAT_BAND_FLAG, ORIGIN_FLAG } from '../../cmdutil/journal-flags.js';
import { dataDir } from '../../config/settings.js';
import { UsageError } from '../../core/errors.js';
import { exactJson } from '../../core/exact-text.js';
import type { JournalRow } from '../../journal/rows.js';
import { DEFAULT_FLAT_BAND_PCT, rebuildRecord, type PriceRecord } from '../../journal/record.js';
import { checkOneOrigin, filterOf, noteLeftOut, warnProblems } from './shared.js';

const FLAGS = {
  ...FILTER_FLAGS,
  ...ORIGIN_FLAG,
  ...FLAT_BAND_FLAG,
  prices: flag(
    '--prices',
    "with --format jsonl: also the recorded price observations, as the journal's own lines after each month's rows (what an import into an empty journal needs to give every record back)",
  ),
};

export type ExportFlags = FlagValues<typeof FLAGS>;

export default defineCommand({
  name: 'export',
  summary: 'every forecast with its settlement, as CSV or JSON Lines',
  description:
    'Every recorded forecast with its settlement, one row each, on stdout: CSV (the columns of the ' +
    'contract in its order, then extras with ISO twins of the times) or JSON Lines (--format jsonl).',
  flags: FLAGS,
  formats: ['csv', 'tsv', 'jsonl'],
  examples: [
    ['fcast journal export > journal.csv', 'everything, as CSV'],
    ['fcast journal export --format jsonl', 'JSON Lines'],
    ['fcast journal export --format jsonl --prices > journal.jsonl', 'every record, prices too'],
  ],
  run: exportRows,
});

/** Rows written as they are read, a batch at a time: an export of a million rows is not held whole. */
export async function exportRows(run: Run, opts: ExportFlags): Promise<void> {
  if (opts.prices && run.format !== 'jsonl')
    throw new UsageError("--prices writes the journal's own price lines, which only JSON Lines can hold", {
      hint: 'add --format jsonl',
    });
  const filter = filterOf(run, opts);
  // What it runs loads when it runs: the definition above is read whenever the journal's tree is
  // built (its help, completion).
  const [
    { EXPORT_COLUMNS, EXTRA_COLUMNS, forEachRow, selectedOrigins },
    { monthFiles, openJournalDir },
    { renderDelimited },
  ] = await Promise.all([
    import('../../journal/rows.js'),
    import('../../journal/journal-files.js'),
    import('../../output/formats/delimited.js'),
  ]);
  const dir = openJournalDir(dataDir(run.ctx), { create: false });
  // Rows are written as they are read: two services, or a month file that is no regular file,
  // are refused before the header.
  if (dir !== undefined) monthFiles(dir);
  // The origins of what it would write, as list checks what it shows: the filter's forecasts,
  // and with prices theirs too (an export pools no two services' records of any kind).
  if (filter.auto) {
    const origins = selectedOrigins(dir, filter, { prices: opts.prices });
    checkOneOrigin(filter, origins.forecasts, opts.prices ? origins.prices : undefined);
  }
  const header = [...EXPORT_COLUMNS, ...EXTRA_COLUMNS];
  // CSV or TSV: the header once, then each batch's rows without it. Every text exactly as held,
  // what a terminal would act on shown as an escape that the import reads back
  // (core/exact-text.ts); a key, known or key-shaped, is still masked at the output boundary.
  const delimited = run.format === 'tsv' ? 'tsv' : 'csv';
  const headerLine = renderDelimited(delimited, header, [], { exact: true });
  if (run.format !== 'jsonl') run.out.data(headerLine);
  let batch: Array<JournalRow | PriceRecord> = [];
  const flush = () => {
    if (batch.length === 0) return;
    if (run.format === 'jsonl') run.out.data(batch.map(exactJson).join('\n'));
    else
      run.out.data(
        renderDelimited(
          delimited,
          header,
          // Rows only: --prices is JSON Lines' alone (refused above for CSV and TSV).
          (batch as JournalRow[]).map((r) => header.map((c) => r[c])),
          { exact: true },
        ).slice(headerLine.length),
      );
    batch = [];
  };
  const add = (row: JournalRow | PriceRecord) => {
    batch.push(row);
    if (batch.length >= 5000) flush();
  };
  // The price observations as the journal's own lines of this version (a version 1 line with its
  // origin null made explicit would be no line of either), which the import reads as they are.
  const price = (r: PriceRecord) => add(rebuildRecord(r, null) as PriceRecord);
  const problems = forEachRow(
    dir,
    filter,
    opts.flatBand ?? DEFAULT_FLAT_BAND_PCT,
    add,
    opts.prices ? price : undefined,
  );
  flush();
  warnProblems(run, problems);
  noteLeftOut(run, problems.leftOut);
}
