// The track record of `track-record` and `accuracy`: the protocol, one row per timeframe,
// the totals and the attribution; as a terminal table or as Markdown for CI summaries and
// pull-request comments. Absent and null figures show as a dash.
import type { TrackRecord } from '../api/schemas.js';
import { recognizeOutcomes, resultRows, timeframeOf, type ResultRow } from '../evidence/results.js';
import { attributionFooter, withAttribution } from './attribution.js';
import { DASH, formatNumber, formatPercent, formatRate, formatUtc, isoToEpoch } from './format.js';
import { Output } from './io.js';
import { clean } from './sanitize.js';
import { renderPairs, renderTable, type Cell, type Column } from './table.js';
import { asRecord, finiteNumber, nonEmptyText } from '../values.js';

type Body = Partial<TrackRecord> | Record<string, unknown>;
const obj = asRecord;
const text = nonEmptyText;

const COLUMNS: Column[] = [
  { header: 'TF' },
  { header: 'Settled', align: 'right' },
  { header: 'Wins', align: 'right' },
  { header: 'Losses', align: 'right' },
  { header: 'Neutral', align: 'right' },
  { header: 'Win rate', align: 'right' },
  { header: '95% CI', align: 'right' },
  { header: 'Positive', align: 'right' },
  { header: 'Avg return', align: 'right' },
  { header: 'Maturity' },
];

const count = (v: unknown): string => formatNumber(v, 0);
const rate = (v: unknown): string => formatRate(v, 2);

function interval(v: unknown): string {
  if (!Array.isArray(v) || v.length !== 2) return DASH;
  const [low, high] = v.map(finiteNumber);
  return low === undefined || high === undefined ? DASH : `${(low * 100).toFixed(2)}–${(high * 100).toFixed(2)}%`;
}

/** The totals object carries its counts at the top or under `outcomes`; neither is fixed by the seed. */
function settledOf(row: ResultRow): unknown {
  return row.n_settled ?? row.settled ?? row.n;
}

/** The figures of one row, as text, in column order (maturity last, uncoloured). */
function figures(row: ResultRow, label: string): string[] {
  const outcomes = recognizeOutcomes(row.outcomes ?? row);
  return [
    label,
    count(settledOf(row)),
    count(outcomes.wins),
    count(outcomes.losses),
    count(outcomes.neutrals),
    rate(row.resolved_win_rate),
    interval(row.resolved_win_rate_ci95),
    rate(row.positive_outcome_rate),
    formatPercent(row.average_return_pct, 4),
    text(row.maturity) ?? DASH,
  ];
}

function maturityPaint(out: Output, maturity: string): ((s: string) => string) | undefined {
  if (maturity === 'insufficient_sample') return (s) => out.c.dim(out.c.red(s));
  if (maturity === 'early_sample') return out.c.yellow;
  if (maturity === 'growing_sample') return out.c.green;
  return undefined;
}

interface Heading {
  title: string;
  pairs: Array<[string, string]>;
}

function heading(body: Body): Heading {
  const b = body as Record<string, unknown>;
  const protocol = obj(b.protocol);
  const symbol = text(b.symbol);
  const started = text(protocol.starts_at_utc);
  const startedEpoch = isoToEpoch(started);
  const generated = isoToEpoch(b.generated_at);
  const pairs: Array<[string, string]> = [
    ['Protocol', [text(protocol.id) ?? DASH, text(protocol.status)].filter(Boolean).join(' · ')],
    ['Since', startedEpoch !== undefined ? formatUtc(startedEpoch) : (started ?? DASH)],
    ['Direction', text(protocol.direction) ?? DASH],
    ['Settlement', text(protocol.settlement) ?? DASH],
  ];
  if (generated !== undefined) pairs.push(['Generated', formatUtc(generated)]);
  return { title: `Track record · ${symbol ?? 'all symbols'}`, pairs };
}

function tableRows(body: Body): { rows: string[][]; totals: string[] | undefined } {
  const rows = resultRows(body).map((row, i) => figures(row, timeframeOf(row, i)));
  const totals = (body as Record<string, unknown>).totals;
  return { rows, totals: totals === undefined ? undefined : figures(obj(totals), 'Total') };
}

export function renderTrackRecordTable(out: Output, body: Body): string {
  const { title, pairs } = heading(body);
  const { rows, totals } = tableRows(body);
  const painted: Cell[][] = rows.map((r) => {
    const maturity = r[r.length - 1]!;
    return [...r.slice(0, -1), { text: maturity, paint: maturityPaint(out, maturity) }];
  });
  if (totals) painted.push([{ text: totals[0]!, paint: out.c.bold }, ...totals.slice(1)]);
  const parts = [out.c.bold(clean(title)), renderPairs(out, pairs), ''];
  parts.push(rows.length ? renderTable(out, COLUMNS, painted) : out.c.dim('(no timeframes in this result)'));
  return withAttribution(out, parts.join('\n'), asRecord(body).meta);
}

/** A cell of a Markdown table: one line, and a `|` must not end the cell. */
const markdownCell = (s: string): string => clean(s).replace(/\\/g, '\\\\').replace(/\|/g, '\\|');

export function renderTrackRecordMarkdown(out: Output, body: Body): string {
  const { title, pairs } = heading(body);
  const { rows, totals } = tableRows(body);
  const lines = [`### ${markdownCell(title)}`, ''];
  lines.push(pairs.map(([k, v]) => `**${k}:** ${markdownCell(v)}`).join('<br>'), '');
  if (rows.length) {
    lines.push(`| ${COLUMNS.map((c) => c.header).join(' | ')} |`);
    lines.push(`|${COLUMNS.map((c) => (c.align === 'right' ? '---:' : ':---')).join('|')}|`);
    for (const r of rows) lines.push(`| ${r.map(markdownCell).join(' | ')} |`);
    if (totals) lines.push(`| **${markdownCell(totals[0]!)}** | ${totals.slice(1).map(markdownCell).join(' | ')} |`);
  } else {
    lines.push('_No timeframes in this result._');
  }
  // Markdown is read in a browser, never on this terminal: no colour. A trailing backslash is
  // a hard line break, so the footer stays three lines in the source and in the rendering.
  const footer = attributionFooter(new Output(out.io, false, false), asRecord(body).meta);
  if (footer) lines.push('', footer.split('\n').join('\\\n'));
  return lines.join('\n');
}
