// `journal list --alerts`: the alerts a watch noted with --record (record.ts AlertRecord), file
// by file in the order noted, through the same filter as the forecasts (origin, symbol,
// timeframe; --since and --until on when each fired).
import { join } from 'node:path';
import { monthFiles } from './journal-files.js';
import { noProblems, type ReadProblems, readRecords } from './lines.js';
import type { AlertRecord } from './record.js';
import { type JournalFilter, passes } from './report.js';

export function forEachAlert(
  dir: string | undefined,
  filter: JournalFilter,
  onAlert: (r: AlertRecord) => void,
): ReadProblems & { origins: Set<string | null> } {
  const problems = { ...noProblems(), origins: new Set<string | null>() };
  for (const file of dir === undefined ? [] : monthFiles(dir)) {
    readRecords(
      join(dir!, file),
      0,
      () => undefined,
      problems,
      undefined,
      (r) => {
        if (!passes(filter, r.origin, r.symbol, r.tf ?? '', r.t)) return;
        problems.origins.add(r.origin);
        onAlert(r);
      },
    );
  }
  return problems;
}

/** The columns of `journal list --alerts --format csv|tsv`, and the fields of --json's objects. */
export const ALERT_COLUMNS = [
  'fired_at',
  'origin',
  'symbol',
  'tf',
  'ts',
  'rule',
  'field',
  'op',
  'value',
  'threshold',
  'already',
  'text',
] as const;

export type AlertRow = Record<(typeof ALERT_COLUMNS)[number], string | number | boolean | null>;

/** An alert as a row: its record's fields by ALERT_COLUMNS, the time it fired in ISO 8601. */
export function alertRow(r: AlertRecord): AlertRow {
  const row = {} as AlertRow;
  for (const c of ALERT_COLUMNS)
    row[c] = c === 'fired_at' ? new Date(r.t * 1000).toISOString().replace('.000Z', 'Z') : r[c];
  return row;
}
