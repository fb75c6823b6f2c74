// The journal's smaller views: the forecasts of `journal list` as a table, and the summaries of
// `settle`, `import` and `prune`. Rows and counts arrive computed (journal/); this file
// formats them.
import type { ImportSummary } from '../journal/import.js';
import type { PruneSummary } from '../journal/prune.js';
import type { JournalRow } from '../journal/rows.js';
import type { SettleSummary } from '../journal/settling.js';
import { DASH, formatNumber, formatPercent, formatPrice, formatRate, formatUtc } from './format.js';
import type { Output } from './io.js';
import { clean } from './sanitize.js';
import { renderTable, type Cell, type Column } from './table.js';

const text = (v: unknown): string => (v === null || v === undefined ? DASH : String(v));

/** `journal list --alerts` as a table: when each fired, on what, and what it said. */
export function renderAlertRows(
  out: Output,
  rows: ReadonlyArray<{
    fired_at: unknown;
    symbol: unknown;
    tf: unknown;
    ts: unknown;
    text: unknown;
    origin: unknown;
    rule: unknown;
  }>,
): string {
  if (rows.length === 0) return out.c.dim('(no alerts noted: --watch --alert with --record notes them)');
  const columns: Column[] = [
    { header: 'Fired (UTC)', whole: true },
    { header: 'Symbol', identity: true },
    { header: 'TF', identity: true },
    { header: 'Forecast (UTC)', priority: 3, whole: true },
    { header: 'Rule', priority: 2 },
    { header: 'Alert', maxWidth: 60 },
    { header: 'Origin', priority: 4 },
  ];
  const cells = rows.map((r): Cell[] => [
    text(
      String(r.fired_at)
        .replace('T', ' ')
        .replace(/:\d\dZ$/, ''),
    ),
    text(r.symbol),
    r.tf === null ? '–' : text(r.tf),
    typeof r.ts === 'number' ? formatUtc(r.ts).replace(' UTC', '') : '–',
    text(r.rule),
    text(r.text),
    r.origin === null ? 'unknown' : text(r.origin),
  ]);
  return renderTable(out, columns, cells);
}

export function renderJournalRows(out: Output, rows: readonly JournalRow[]): string {
  if (rows.length === 0) return out.c.dim('(no forecasts match)');
  const columns: Column[] = [
    // The row's identity: never cut (a narrow terminal loses columns instead).
    { header: 'Symbol', identity: true },
    { header: 'TF', identity: true },
    { header: 'Created (UTC)', priority: 5, whole: true },
    { header: 'Target (UTC)', whole: true },
    { header: 'Call' },
    { header: 'p', align: 'right' },
    { header: 'Anchor', align: 'right', priority: 6 },
    // Said again by the outcome (a dash while open, the reason when unsettleable): it goes before the prices.
    { header: 'Status', priority: 4 },
    { header: 'Close', align: 'right', priority: 3 },
    { header: 'From', priority: 7 },
    { header: 'Return', align: 'right', priority: 2 },
    // An unsettleable record's reason is a sentence: on a terminal it ends in an ellipsis
    // rather than push the prices out (the CSV and --wide keep it whole).
    { header: 'Outcome', maxWidth: 20 },
    // Which service it came from (unknown: recorded before fcast kept origins); the first to go when narrow.
    { header: 'Origin', priority: 8 },
  ];
  const paintOutcome = (o: unknown) =>
    o === 'win' ? out.c.green : o === 'loss' ? out.c.red : o === 'neutral' ? out.c.dim : undefined;
  const cells = rows.map((r): Cell[] => {
    const p = r.direction === 'long' ? r.p_long : r.direction === 'short' ? r.p_short : null;
    return [
      text(r.symbol),
      text(r.tf),
      formatUtc(r.ts).replace(' UTC', ''),
      formatUtc(r.target_t).replace(' UTC', ''),
      text(r.direction),
      formatRate(p, 1),
      formatPrice(r.anchor_price),
      { text: text(r.status), paint: r.status === 'unsettleable' ? out.c.yellow : undefined },
      formatPrice(r.settle_price),
      text(r.settle_source),
      formatPercent(r.return_pct, 3),
      // An unsettleable record has no outcome: its place says why (the CSV's reason column).
      r.status === 'unsettleable' && r.reason
        ? { text: clean(r.reason), paint: out.c.yellow }
        : { text: text(r.outcome), paint: paintOutcome(r.outcome) },
      r.origin === null ? 'unknown' : text(r.origin),
    ];
  });
  return renderTable(out, columns, cells);
}

export function renderSettleSummary(out: Output, s: SettleSummary): string {
  const lines = [
    `settled       ${formatNumber(s.settled, 0)} (${formatNumber(s.fromCandles, 0)} from candles, ${formatNumber(s.fromPrices, 0)} from recorded prices)`,
    `unsettleable  ${formatNumber(s.unsettleable, 0)}`,
    `still open    ${formatNumber(s.notDue + s.waiting, 0)} (${formatNumber(s.notDue, 0)} not due by the server's clock, ${formatNumber(s.waiting, 0)} waiting for data)`,
  ];
  if (s.otherOrigins > 0)
    lines.push(
      `not touched   ${formatNumber(s.otherOrigins, 0)} open forecast(s) of other services (or of an unknown one: --adopt-unknown-origin)`,
    );
  if (s.failed.length > 0) lines.push(`not asked     ${clean(s.failed.join(', '))} (the request failed; see above)`);
  return lines.map((l) => (l.startsWith('settled') ? out.c.bold(l) : l)).join('\n');
}

export function renderImportSummary(s: ImportSummary, file: string, dryRun = false): string {
  return [
    `read          ${formatNumber(s.rows, 0)} rows of ${clean(file)} (${s.format})`,
    `${dryRun ? 'would add    ' : 'added        '} ${formatNumber(s.forecasts, 0)} forecasts, ${formatNumber(s.settlements, 0)} settlements, ${formatNumber(s.prices, 0)} prices`,
    `already there ${formatNumber(s.duplicates, 0)}`,
    `skipped       ${formatNumber(s.skipped, 0)}`,
  ].join('\n');
}

export function renderPruneSummary(s: PruneSummary, dryRun: boolean): string {
  const verb = dryRun ? 'would remove' : 'removed';
  const files = [
    s.files_removed.length ? `${s.files_removed.length} file(s) deleted (${s.files_removed.join(', ')})` : '',
    s.files_rewritten.length ? `${s.files_rewritten.join(', ')} rewritten` : '',
  ].filter(Boolean);
  return [
    `${verb} ${formatNumber(s.removed, 0)} record(s) dated before ${formatUtc(s.before)}; ${formatNumber(s.kept, 0)} kept`,
    ...(files.length ? [`${dryRun ? 'would be: ' : ''}${files.join('; ')}`] : []),
  ].join('\n');
}
