// `journal report` for people: a summary row per timeframe (settled, outcomes, hit rate and
// its interval, the scores, the service's published figures beside them), then per timeframe
// the Brier decomposition, the reliability table (a warning where a bin is a small sample)
// and the reliability chart. As a terminal table, as Markdown for CI step summaries, and as
// CSV/TSV rows (one per timeframe, columns the document's field paths joined with dots).
// The figures arrive computed (journal/report.ts); this file formats them.
import { createColors } from 'picocolors';
import { isRecord } from '../core/values.js';
import type { JournalReport, TimeframeReport } from '../journal/report.js';
import type { CallBin, CallScore } from '../journal/score.js';
import { attributionFooter } from './attribution.js';
import { DASH, formatNumber, formatRate, formatUtc, roundsToZero } from './format.js';
import { Output, type Colors } from './io.js';
import { renderReliabilityChart } from './reliability-chart.js';
import { markdownLine, markdownText } from './markdown.js';
import { clean } from './sanitize.js';
import { flowLine, renderTable, type Cell, type Column } from './table.js';
import { renderDelimited, type Cell as DelimitedCell, type DelimitedFormat } from './formats/delimited.js';

/** The report and what the table, Markdown and CSV say around it. */
export interface JournalReportView {
  report: JournalReport;
  symbols: readonly string[];
  /** ts of the first and last forecast reported. */
  first: number | undefined;
  last: number | undefined;
  /** Sentences shown under the table: intervals that do not overlap, service figures skipped. */
  notes: readonly string[];
  /** The meta of a track-record response, when the service's figures are shown: its attribution closes the table. */
  serviceMeta?: unknown;
  /** The tiers and delays the reported forecasts were recorded at (the scan's), for the footer's tier line. */
  recordedTiers?: ReadonlyArray<{ tier: string | null; delay_min: number | null }>;
  /** A bin of fewer forecasts is marked as a small sample (journal/score.ts's SMALL_SAMPLE). */
  smallSample: number;
}

const fixed = (v: number | null | undefined, d = 4): string =>
  v === null || v === undefined || !Number.isFinite(v) ? DASH : roundsToZero(v, d) ? (0).toFixed(d) : v.toFixed(d);
const interval = (v: readonly [number, number] | null | undefined): string =>
  v ? `${(v[0] * 100).toFixed(1)}–${(v[1] * 100).toFixed(1)}%` : DASH;
const count = (n: number | null | undefined): string => formatNumber(n, 0);

interface SummaryColumn {
  column: Column;
  text: (t: TimeframeReport) => string;
}

const SUMMARY: SummaryColumn[] = [
  { column: { header: 'TF', identity: true }, text: (t) => t.tf },
  { column: { header: 'Settled', align: 'right' }, text: (t) => count(t.n_settled) },
  { column: { header: 'W/L/N', align: 'right', priority: 5 }, text: (t) => `${t.wins}/${t.losses}/${t.neutrals}` },
  { column: { header: 'Open', align: 'right', priority: 7 }, text: (t) => count(t.open) },
  { column: { header: 'Unsettleable', align: 'right', priority: 8 }, text: (t) => count(t.unsettleable) },
  { column: { header: 'Hit rate', align: 'right' }, text: (t) => formatRate(t.hit_rate, 1) },
  { column: { header: '95% CI', align: 'right', priority: 3 }, text: (t) => interval(t.hit_rate_ci95) },
  { column: { header: 'Brier (call)', align: 'right' }, text: (t) => fixed(t.call.brier) },
  { column: { header: 'Brier 3-class', align: 'right', priority: 4 }, text: (t) => fixed(t.brier_3class) },
  { column: { header: 'BSS 3-class', align: 'right', priority: 6 }, text: (t) => fixed(t.bss_3class, 3) },
  { column: { header: 'Log loss', align: 'right', priority: 6 }, text: (t) => fixed(t.log_loss) },
  {
    column: { header: 'Service', align: 'right', priority: 2 },
    text: (t) => (t.service ? formatRate(t.service.resolved_win_rate, 1) : DASH),
  },
  {
    column: { header: 'Service 95% CI', align: 'right', priority: 3 },
    text: (t) => interval(t.service?.resolved_win_rate_ci95),
  },
  { column: { header: 'Service n', align: 'right', priority: 9 }, text: (t) => count(t.service?.n_settled) },
];

/** The heading's phrases: what, which symbols, which forecasts, the band. */
function headingParts(view: JournalReportView): string[] {
  const symbols = view.symbols.length ? view.symbols.join(', ') : 'no forecasts';
  const span =
    view.first !== undefined && view.last !== undefined
      ? [`forecasts ${formatUtc(view.first)} → ${formatUtc(view.last)}`]
      : [];
  return ['Journal report', symbols, ...span, `flat band ${view.report.flat_band_pct}%`].map(clean);
}

const heading = (view: JournalReportView): string => headingParts(view).join(' · ');

/** The decomposition's terms, as phrases: brier = REL − RES + UNC + WBV − WBC. */
function decompositionParts(call: CallScore): string[] {
  if (call.brier === null) return ['no calls settled'];
  return [
    `Brier ${fixed(call.brier)} =`,
    `reliability ${fixed(call.reliability)}`,
    `− resolution ${fixed(call.resolution)}`,
    `+ uncertainty ${fixed(call.uncertainty)}`,
    `+ within-bin variance ${fixed(call.within_bin_variance)}`,
    `− within-bin covariance ${fixed(call.within_bin_covariance)}`,
  ];
}

const decomposition = (call: CallScore): string => decompositionParts(call).join(' ');

const binName = (b: CallBin, first: boolean): string => `${first ? '[' : '('}${b.lo}, ${b.hi}]`;

function binRows(
  call: CallScore,
  smallSample: number,
): Array<{ bin: string; n: string; mean: string; freq: string; ci: string; small: boolean }> {
  return call.bins.flatMap((b, i) =>
    b.n === 0
      ? []
      : [
          {
            bin: binName(b, i === 0),
            n: count(b.n),
            mean: fixed(b.mean_p, 3),
            freq: fixed(b.freq, 3),
            ci: b.freq_ci95 ? `${fixed(b.freq_ci95[0], 3)}–${fixed(b.freq_ci95[1], 3)}` : DASH,
            small: b.n < smallSample,
          },
        ],
  );
}

const calledCount = (call: CallScore): number => call.bins.reduce((s, b) => s + b.n, 0);

export function renderJournalReportTable(out: Output, view: JournalReportView): string {
  const { timeframes } = view.report;
  const parts = [
    flowLine(
      out,
      headingParts(view).map((p) => [p, out.c.bold(p)]),
      ' · ',
    ),
    '',
  ];
  if (timeframes.length === 0) {
    parts.push(out.c.dim('(nothing recorded matches: record with --record, then fcast journal settle)'));
    return parts.join('\n');
  }
  parts.push(
    renderTable(
      out,
      SUMMARY.map((s) => s.column),
      timeframes.map((t): Cell[] => SUMMARY.map((s) => s.text(t))),
    ),
  );
  const width = Math.min(out.tty && !out.wide ? out.columns : 80, 80);
  for (const t of timeframes) {
    if (t.call.brier === null) continue;
    parts.push(
      '',
      out.c.bold(`${clean(t.tf)} · the call's probability against a win (${count(calledCount(t.call))} calls)`),
    );
    parts.push(
      flowLine(
        out,
        decompositionParts(t.call).map((p) => [p, p]),
        ' ',
      ),
    );
    const rows = binRows(t.call, view.smallSample);
    parts.push(
      renderTable(
        out,
        [
          { header: 'Bin' },
          { header: 'n', align: 'right' },
          { header: 'Mean p', align: 'right' },
          { header: 'Observed', align: 'right' },
          { header: '95% CI', align: 'right' },
          { header: '' },
        ],
        rows.map((r): Cell[] => [
          r.bin,
          r.n,
          r.mean,
          r.freq,
          r.ci,
          r.small ? { text: `⚠ n < ${view.smallSample}`, paint: out.c.yellow } : '',
        ]),
      ),
    );
    parts.push('', renderReliabilityChart(out.c, t.call.bins, { width, height: 11, smallSample: view.smallSample }));
  }
  for (const note of view.notes) parts.push('', `note: ${clean(note)}`);
  if (view.serviceMeta !== undefined) {
    const footer = attributionFooter(out, view.serviceMeta, clean, recordedTier(view));
    if (footer) parts.push('', serviceLine(view), footer);
  }
  return parts.join('\n');
}

/**
 * What the footer's attribution is for: the Service columns, when a timeframe has the
 * service's figures; else why none shows (the published record has none of these timeframes).
 */
function serviceLine(view: JournalReportView): string {
  return view.report.timeframes.some((t) => t.service !== null)
    ? 'Service figures from the published track record:'
    : 'No service figures: the published track record has none of these timeframes.';
}

/**
 * The footer's tier and delay: those the reported forecasts were recorded at (a track record
 * is published keyless, so its own meta says `demo` of forecasts a free key was shown).
 */
function recordedTier(view: JournalReportView): { tier: string; delay: string } | undefined {
  const tiers = view.recordedTiers;
  if (!tiers || tiers.length === 0) return undefined;
  const names = [...new Set(tiers.map((t) => t.tier ?? 'unknown'))];
  const delays = [...new Set(tiers.map((t) => t.delay_min))]
    .filter((d): d is number => d !== null)
    .sort((a, b) => a - b);
  const delay =
    delays.length === 0
      ? 'data delay unknown'
      : `data delayed ${delays.length === 1 ? delays[0] : `${delays[0]}–${delays.at(-1)}`} min`;
  return { tier: names.join(', '), delay };
}

/** A cell of a Markdown table, or any text in the Markdown: one line, rendering as the characters sent. */
const markdownCell = markdownText;

export function renderJournalReportMarkdown(out: Output, view: JournalReportView): string {
  const { timeframes } = view.report;
  const lines = [`### ${markdownCell(heading(view))}`, ''];
  if (timeframes.length === 0) return [...lines, '_Nothing recorded matches._'].join('\n');
  lines.push(`| ${SUMMARY.map((s) => s.column.header).join(' | ')} |`);
  lines.push(`|${SUMMARY.map((s) => (s.column.align === 'right' ? '---:' : ':---')).join('|')}|`);
  for (const t of timeframes) lines.push(`| ${SUMMARY.map((s) => markdownCell(s.text(t))).join(' | ')} |`);
  const plain: Colors = createColors(false);
  for (const t of timeframes) {
    if (t.call.brier === null) continue;
    lines.push('', `#### ${markdownCell(t.tf)}: reliability of the call (${calledCount(t.call)} calls)`, '');
    lines.push(markdownCell(decomposition(t.call)), '');
    lines.push('| Bin | n | Mean p | Observed | 95% CI | |', '|:---|---:|---:|---:|---:|:---|');
    for (const r of binRows(t.call, view.smallSample))
      lines.push(
        `| ${r.bin} | ${r.n} | ${r.mean} | ${r.freq} | ${r.ci} | ${r.small ? `⚠ n < ${view.smallSample}` : ''} |`,
      );
    lines.push(
      '',
      '```text',
      renderReliabilityChart(plain, t.call.bins, { width: 60, height: 11, smallSample: view.smallSample }),
      '```',
    );
  }
  for (const note of view.notes) lines.push('', `**Note:** ${markdownCell(note)}`);
  if (view.serviceMeta !== undefined) {
    const footer = attributionFooter(
      new Output(out.io, false, false, { wide: true }),
      view.serviceMeta,
      markdownLine,
      recordedTier(view),
    );
    if (footer) lines.push('', footer.split('\n').join('\\\n'));
  }
  return out.markdownAsIs(lines.join('\n'));
}

/**
 * One row per timeframe; the columns are the document's field paths joined with dots, the bins'
 * included, then `source`: the track record's attribution, which the table ends with when the
 * service's figures are shown (a footer line would break parsers); empty without them.
 */
export function renderJournalReportDelimited(format: DelimitedFormat, view: JournalReportView): string {
  const nBins = view.report.bins;
  const header = [
    'tf',
    'n_settled',
    'wins',
    'losses',
    'neutrals',
    'open',
    'unsettleable',
    'hit_rate',
    'hit_rate_ci95.0',
    'hit_rate_ci95.1',
    'brier_3class',
    'bss_3class',
    'log_loss',
    'call.brier',
    'call.reliability',
    'call.resolution',
    'call.uncertainty',
    'call.within_bin_variance',
    'call.within_bin_covariance',
    ...Array.from({ length: nBins }, (_, i) =>
      ['lo', 'hi', 'n', 'mean_p', 'freq', 'freq_ci95.0', 'freq_ci95.1'].map((f) => `call.bins.${i}.${f}`),
    ).flat(),
    'service.resolved_win_rate',
    'service.resolved_win_rate_ci95.0',
    'service.resolved_win_rate_ci95.1',
    'service.n_settled',
    'source',
  ];
  const meta = view.serviceMeta;
  const source = isRecord(meta) && typeof meta.source === 'string' ? meta.source : null;
  const rows = view.report.timeframes.map((t): DelimitedCell[] => [
    t.tf,
    t.n_settled,
    t.wins,
    t.losses,
    t.neutrals,
    t.open,
    t.unsettleable,
    t.hit_rate,
    t.hit_rate_ci95?.[0],
    t.hit_rate_ci95?.[1],
    t.brier_3class,
    t.bss_3class,
    t.log_loss,
    t.call.brier,
    t.call.reliability,
    t.call.resolution,
    t.call.uncertainty,
    t.call.within_bin_variance,
    t.call.within_bin_covariance,
    ...Array.from({ length: nBins }, (_, i) => {
      const b = t.call.bins[i];
      return [b?.lo, b?.hi, b?.n, b?.mean_p, b?.freq, b?.freq_ci95?.[0], b?.freq_ci95?.[1]];
    }).flat(),
    t.service?.resolved_win_rate,
    t.service?.resolved_win_rate_ci95?.[0],
    t.service?.resolved_win_rate_ci95?.[1],
    t.service?.n_settled,
    source,
  ]);
  return renderDelimited(format, header, rows);
}
