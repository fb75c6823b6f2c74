// The track record of `track-record` and `accuracy`: the protocol, one row per timeframe, a
// Total row and the attribution; as a terminal table or as Markdown for CI summaries and
// pull-request comments. The figures arrive computed (evidence/rows.ts): this file formats
// them and never reads the body's rows itself. Absent and null figures show as a dash.
import type { BaselineComparison, PeriodChange, RecordRow, RecordRows, Versus50 } from '../core/domain.js';
import { asRecord, nonEmptyText } from '../core/values.js';
import { attributionFooter, withAttribution } from './attribution.js';
import { DASH, formatNumber, formatPercent, formatRate, formatUtc, isoToEpoch } from './format.js';
import { Output } from './io.js';
import { markdownLine, markdownText } from './markdown.js';
import { clean } from './sanitize.js';
import { renderPairs, renderTable, type Cell, type Column } from './table.js';

/** What a baseline comparison adds to the view. */
export interface BaselineView {
  file: string;
  /** The baseline's own `generated_at`, as it wrote it. */
  generatedAt: unknown;
  comparison: BaselineComparison;
}

export interface TrackRecordView {
  /** The body, for its heading (protocol, symbol, times) and its meta. */
  body: unknown;
  figures: RecordRows;
  baseline?: BaselineView;
}

interface FigureColumn {
  column: Column;
  cell: (row: RecordRow, out: Output) => Cell;
  markdown: (row: RecordRow) => string;
}

const count = (v: number | undefined): string => formatNumber(v, 0);
const signedCount = (v: number | undefined): string => (v === undefined ? DASH : `${v >= 0 ? '+' : ''}${count(v)}`);
const rate = (v: number | null | undefined): string => formatRate(v, 2);
const interval = (v: readonly [number, number] | null | undefined): string =>
  v ? `${(v[0] * 100).toFixed(2)}–${(v[1] * 100).toFixed(2)}%` : DASH;
const versusText = (v: Versus50 | undefined): string => v ?? DASH;
const outcomesText = (c: PeriodChange | undefined): string =>
  c ? [c.wins, c.losses, c.neutrals].map((v) => (v === undefined ? DASH : count(v))).join('/') : DASH;

function versusPaint(out: Output, v: Versus50 | undefined): ((s: string) => string) | undefined {
  if (v === 'above') return out.c.green;
  if (v === 'below') return out.c.red;
  return v === 'straddles' ? out.c.dim : undefined;
}

function maturityPaint(out: Output, maturity: string | undefined): ((s: string) => string) | undefined {
  if (maturity === 'insufficient_sample') return (s) => out.c.dim(out.c.red(s));
  if (maturity === 'early_sample') return out.c.yellow;
  if (maturity === 'growing_sample') return out.c.green;
  return undefined;
}

const plainColumn = (
  column: Column,
  text: (row: RecordRow) => string,
  paint?: (row: RecordRow, out: Output) => ((s: string) => string) | undefined,
): FigureColumn => ({
  column,
  cell: (row, out) => (paint ? { text: text(row), paint: paint(row, out) } : text(row)),
  markdown: text,
});

const RECORD_COLUMNS: FigureColumn[] = [
  plainColumn({ header: 'TF', identity: true }, (r) => r.timeframe),
  plainColumn({ header: 'Settled', align: 'right' }, (r) => count(r.settled)),
  // Wins, losses and settled make the win rate checkable; Maturity is what --min-maturity gates
  // on: a narrow terminal keeps them whole and lets the others go. The rate itself goes last,
  // after its header has shrunk to `Rate` (at 60 columns that spares it, and Maturity's
  // `insufficient_sample` its end): it is wins / (wins + losses), which the row still shows.
  plainColumn({ header: 'Wins', align: 'right' }, (r) => count(r.wins)),
  plainColumn({ header: 'Losses', align: 'right' }, (r) => count(r.losses)),
  plainColumn({ header: 'Neutral', align: 'right', priority: 7 }, (r) => count(r.neutrals)),
  plainColumn({ header: 'Win rate', short: 'Rate', align: 'right', priority: 1 }, (r) => rate(r.rate)),
  plainColumn({ header: '95% CI', align: 'right', priority: 3 }, (r) => interval(r.interval)),
  plainColumn(
    { header: 'vs 50%', priority: 2 },
    (r) => versusText(r.versus50),
    (r, out) => versusPaint(out, r.versus50),
  ),
  plainColumn({ header: 'Positive', align: 'right', priority: 9 }, (r) => rate(r.positiveRate)),
  plainColumn({ header: 'Avg return', align: 'right', priority: 8 }, (r) => formatPercent(r.averageReturnPct, 4)),
  plainColumn(
    { header: 'Maturity', whole: true },
    (r) => r.maturity ?? DASH,
    (r, out) => maturityPaint(out, r.maturity),
  ),
];

/** The period since the baseline, as extra columns: shown only when a comparison was made. */
const CHANGE_COLUMNS: FigureColumn[] = [
  plainColumn({ header: 'New', align: 'right' }, (r) => signedCount(r.change?.settled)),
  plainColumn({ header: 'New W/L/N', align: 'right', priority: 5 }, (r) => outcomesText(r.change)),
  plainColumn({ header: 'New rate', align: 'right', priority: 1 }, (r) => rate(r.change?.rate)),
  plainColumn({ header: 'New 95% CI', align: 'right', priority: 2 }, (r) => interval(r.change?.interval)),
];

const compared = (view: TrackRecordView): boolean => view.baseline?.comparison.comparable === true;
const columnsOf = (view: TrackRecordView): FigureColumn[] =>
  compared(view) ? [...RECORD_COLUMNS, ...CHANGE_COLUMNS] : RECORD_COLUMNS;

function heading(view: TrackRecordView): { title: string; pairs: Array<[string, string]> } {
  const b = asRecord(view.body);
  const protocol = asRecord(b.protocol);
  const started = nonEmptyText(protocol.starts_at_utc);
  const startedEpoch = isoToEpoch(started);
  const generated = isoToEpoch(b.generated_at);
  const pairs: Array<[string, string]> = [
    ['Protocol', [nonEmptyText(protocol.id) ?? DASH, nonEmptyText(protocol.status)].filter(Boolean).join(' · ')],
    ['Since', startedEpoch !== undefined ? formatUtc(startedEpoch) : (started ?? DASH)],
    ['Direction', nonEmptyText(protocol.direction) ?? DASH],
    ['Settlement', nonEmptyText(protocol.settlement) ?? DASH],
  ];
  if (generated !== undefined) pairs.push(['Generated', formatUtc(generated)]);
  if (view.baseline) pairs.push(['Baseline', baselineText(view.baseline)]);
  return { title: `Track record · ${nonEmptyText(b.symbol) ?? 'all symbols'}`, pairs };
}

function baselineText(baseline: BaselineView): string {
  const when = isoToEpoch(baseline.generatedAt);
  const generated = when !== undefined ? `, generated ${formatUtc(when)}` : '';
  const verdict = baseline.comparison.comparable ? '' : ' (another protocol: not comparable)';
  return `${baseline.file}${generated}${verdict}`;
}

export function renderTrackRecordTable(out: Output, view: TrackRecordView): string {
  const { title, pairs } = heading(view);
  const { rows, total } = view.figures;
  const figureColumns = columnsOf(view);
  const cells: Cell[][] = rows.map((row) => figureColumns.map((c) => c.cell(row, out)));
  if (total) {
    const [first, ...rest] = figureColumns.map((c) => c.cell(total, out));
    cells.push([{ text: typeof first === 'string' ? first : (first?.text ?? ''), paint: out.c.bold }, ...rest]);
  }
  const parts = [out.c.bold(clean(title)), renderPairs(out, pairs), ''];
  parts.push(
    rows.length
      ? renderTable(
          out,
          figureColumns.map((c) => c.column),
          cells,
        )
      : out.c.dim('(no timeframes in this result)'),
  );
  return withAttribution(out, parts.join('\n'), asRecord(view.body).meta);
}

/** A cell of a Markdown table, or any text in the Markdown: one line, rendering as the characters sent. */
const markdownCell = markdownText;

function markdownTable(columns: FigureColumn[], figures: RecordRows): string[] {
  const lines = [`| ${columns.map((c) => c.column.header).join(' | ')} |`];
  lines.push(`|${columns.map((c) => (c.column.align === 'right' ? '---:' : ':---')).join('|')}|`);
  for (const r of figures.rows) lines.push(`| ${columns.map((c) => markdownCell(c.markdown(r))).join(' | ')} |`);
  if (figures.total) {
    const [first, ...rest] = columns.map((c) => markdownCell(c.markdown(figures.total!)));
    lines.push(`| **${first}** | ${rest.join(' | ')} |`);
  }
  return lines;
}

const PERIOD_MARKDOWN_COLUMNS: FigureColumn[] = [
  RECORD_COLUMNS[0]!,
  plainColumn({ header: 'New settled', align: 'right' }, (r) => signedCount(r.change?.settled)),
  plainColumn({ header: 'New wins', align: 'right' }, (r) => signedCount(r.change?.wins)),
  plainColumn({ header: 'New losses', align: 'right' }, (r) => signedCount(r.change?.losses)),
  plainColumn({ header: 'New neutral', align: 'right' }, (r) => signedCount(r.change?.neutrals)),
  plainColumn({ header: 'Win rate', align: 'right' }, (r) => rate(r.change?.rate)),
  plainColumn({ header: '95% CI', align: 'right' }, (r) => interval(r.change?.interval)),
  plainColumn({ header: 'vs 50%' }, (r) => versusText(r.change?.versus50)),
];

function baselineSection(view: TrackRecordView): string[] {
  const baseline = view.baseline;
  if (!baseline) return [];
  const lines = ['', `#### Since the baseline (${markdownCell(baselineText(baseline))})`, ''];
  const comparison = baseline.comparison;
  if (!comparison.comparable) {
    const theirs = comparison.baselineProtocol ?? 'no protocol id';
    const ours = comparison.currentProtocol ?? 'no protocol id';
    lines.push(
      `_Not comparable: protocol ${markdownCell(theirs)} there, ${markdownCell(ours)} now; nothing compared._`,
    );
    return lines;
  }
  lines.push(...markdownTable(PERIOD_MARKDOWN_COLUMNS, view.figures));
  const trouble = [
    ...comparison.drops.map(
      ({ timeframe, drops }) =>
        `${markdownCell(timeframe)} (${drops.map((d) => `${d.count} ${d.before} → ${d.now}`).join(', ')})`,
    ),
    ...comparison.vanished.map((tf) => `${markdownCell(tf)} (missing now)`),
  ];
  if (trouble.length) lines.push('', `**Counts went down since the baseline:** ${trouble.join('; ')}`);
  return lines;
}

export function renderTrackRecordMarkdown(out: Output, view: TrackRecordView): string {
  const { title, pairs } = heading(view);
  const lines = [`### ${markdownCell(title)}`, ''];
  lines.push(pairs.map(([k, v]) => `**${k}:** ${markdownCell(v)}`).join('<br>'), '');
  if (view.figures.rows.length) lines.push(...markdownTable(RECORD_COLUMNS, view.figures));
  else lines.push('_No timeframes in this result._');
  lines.push(...baselineSection(view));
  // Markdown is read in a browser, never on this terminal: no colour, and not fitted to the
  // terminal's width (`wide`), or a wrapped disclaimer would turn into hard breaks. A trailing
  // backslash is a hard line break, so the footer stays three lines in the source and in the rendering.
  const footer = attributionFooter(
    new Output(out.io, false, false, { wide: true }),
    asRecord(view.body).meta,
    markdownLine,
  );
  if (footer) lines.push('', footer.split('\n').join('\\\n'));
  return out.markdownAsIs(lines.join('\n'));
}

const fraction = (v: number | null | undefined): string => (v === null || v === undefined ? 'null' : v.toFixed(4));

/** The period since the baseline as lines for stderr, where it goes when stdout holds --json. */
export function renderChangeLines(view: TrackRecordView): string[] {
  const baseline = view.baseline;
  if (!baseline?.comparison.comparable) return [];
  const line = (r: RecordRow): string => {
    const c = r.change;
    if (!c) return `  ${r.timeframe}: ${DASH}`;
    const ci = c.interval ? `[${fraction(c.interval[0])}, ${fraction(c.interval[1])}]` : 'null';
    const appeared = c.appeared ? ' (new timeframe)' : '';
    return `  ${r.timeframe}: ${signedCount(c.settled)} settled (win ${signedCount(c.wins)}, loss ${signedCount(c.losses)}, neutral ${signedCount(c.neutrals)}); resolved win rate ${fraction(c.rate)}, 95% CI ${ci}${c.versus50 ? `, ${c.versus50} 50%` : ''}${appeared}`;
  };
  const { rows, total } = view.figures;
  return [`since the baseline ${baselineText(baseline)}:`, ...rows.map(line), ...(total ? [line(total)] : [])];
}
