// `journal compare` for people: per timeframe the three forecasters' scores, the pairs' tests
// and one verdict line (ia3 against ia2 on RPS), then the CORP reliability curves of up, down
// and flat and the Murphy diagrams of up and down; as a terminal table, as Markdown for a CI
// step summary (the charts in code blocks, 60 columns), and as CSV/TSV (one row per
// timeframe, pair and score). The figures arrive computed (evidence/compare/); this formats.
import { createColors } from 'picocolors';
import type {
  CorpCurves,
  EventName,
  Forecaster,
  PairResult,
  ScoreName,
  TimeframeComparison,
} from '../evidence/compare/compare.js';
import type { CorpBlock } from '../evidence/compare/corp.js';
import { type CompareFacts, compareNotes, fixed, MINUS, pValue, signed, verdictLine } from './compare-verdict.js';
import { type Curve, renderCurves } from './curves-chart.js';
import { DASH, formatNumber } from './format.js';
import type { Colors, Output } from './io.js';
import { markdownText } from './markdown.js';
import { clean } from './sanitize.js';
import { renderTable, type Column, wrapText } from './table.js';
import { renderDelimited, type Cell as DelimitedCell, type DelimitedFormat } from './formats/delimited.js';

export interface JournalCompareView extends CompareFacts {
  curves: ReadonlyMap<string, CorpCurves>;
}

// The document's orders (evidence/compare/compare.ts), restated: output/ names their types only.
const FORECASTERS: readonly Forecaster[] = ['ia2', 'ia3', 'climatology'];
const SCORES: readonly ScoreName[] = ['rps', 'brier_3class', 'log_loss'];
const EVENTS: readonly EventName[] = ['up', 'down', 'flat'];

/** The fit's value at forecast p: the block holding p, or the last one starting below it (a step). */
function stepAt(blocks: readonly CorpBlock[], p: number): number | undefined {
  let found: number | undefined;
  for (const b of blocks) {
    if (b.lo > p) break;
    found = b.value;
  }
  return found;
}

const SCORE_NAMES: Record<ScoreName, string> = { rps: 'RPS', brier_3class: 'Brier', log_loss: 'log loss' };

const main = (t: TimeframeComparison): PairResult | undefined => t.pairs.find((p) => p.a === 'ia3' && p.b === 'ia2');

function heading(view: JournalCompareView): string {
  const n = view.doc.timeframes.reduce((s, t) => s + t.n, 0);
  return `fcast journal compare · ${formatNumber(n, 0)} settled forecast${n === 1 ? '' : 's'} with ia2 and ia3`;
}

const settings = (view: JournalCompareView): string =>
  `flat band ${view.doc.flat_band_pct}% · ${formatNumber(view.doc.bootstrap.replicates, 0)} bootstrap replicates (seed ${view.doc.bootstrap.seed}) · α ${view.doc.alpha}`;

const FORECASTER_COLUMNS: Column[] = [
  { header: 'Forecaster', identity: true },
  { header: 'RPS', align: 'right' },
  { header: 'Brier', align: 'right' },
  { header: 'Log loss', align: 'right' },
  { header: 'RPS skill', align: 'right', priority: 2 },
  { header: 'MCB up', align: 'right', priority: 4 },
  { header: 'DSC up', align: 'right', priority: 4 },
];

const forecasterRows = (t: TimeframeComparison): string[][] =>
  FORECASTERS.map((f) => {
    const s = t.forecasters[f];
    return [
      f,
      fixed(s.rps),
      fixed(s.brier_3class),
      fixed(s.log_loss),
      fixed(s.rps_skill, 3),
      fixed(s.corp.up.mcb),
      fixed(s.corp.up.dsc),
    ];
  });

const PAIR_COLUMNS: Column[] = [
  { header: 'Pair', identity: true },
  { header: 'Score' },
  { header: 'Mean diff', align: 'right' },
  { header: 'DM', align: 'right', priority: 3 },
  { header: 'DM p', align: 'right' },
  { header: 'Holm p', align: 'right' },
  { header: 'Bootstrap 95% CI', align: 'right', priority: 2 },
  { header: 'Boot p', align: 'right', priority: 5 },
];

const pairRows = (t: TimeframeComparison): string[][] =>
  t.pairs.flatMap((p) =>
    SCORES.map((sc) => {
      const s = p.scores[sc];
      const ci = s.bootstrap.ci95;
      return [
        `${p.a} ${MINUS} ${p.b}`,
        SCORE_NAMES[sc],
        signed(s.mean_diff),
        fixed(s.dm.statistic, 2),
        pValue(s.dm.p_value),
        sc === 'rps' ? pValue(p.p_holm) : '',
        ci ? `${fixed(ci[0])} to ${fixed(ci[1])}` : DASH,
        pValue(s.bootstrap.p_value),
      ];
    }),
  );

const GLYPHS: Record<Forecaster, string> = { ia2: 'o', ia3: '●', climatology: '+' };
const paintOf = (c: Colors, f: Forecaster) => (f === 'ia3' ? c.green : f === 'ia2' ? c.cyan : c.yellow);
const EVENT_PROBABILITY: Record<EventName, string> = { up: 'p_long', down: 'p_short', flat: 'p_flat' };

/** The CORP reliability curves of one event: ia2's and ia3's recalibrated probability against the forecast. */
export function reliabilityChart(
  c: Colors,
  t: TimeframeComparison,
  curves: CorpCurves,
  e: EventName,
  width: number,
): string {
  const lines: Curve[] = (['ia2', 'ia3'] as const).map((f) => {
    const blocks = curves[f][e];
    const lo = blocks[0]?.lo ?? 1;
    const hi = blocks.at(-1)?.hi ?? 0;
    return {
      label: `${f} (MCB ${fixed(t.forecasters[f].corp[e].mcb)}, DSC ${fixed(t.forecasters[f].corp[e].dsc)})`,
      glyph: GLYPHS[f],
      paint: paintOf(c, f),
      at: (x: number) => (x < lo - 0.5 / 200 || x > hi + 0.5 / 200 ? undefined : stepAt(blocks, x)),
    };
  });
  return renderCurves(c, {
    yMax: 1,
    yName: `observed ${e} (CORP, PAV)`,
    xName: `forecast ${EVENT_PROBABILITY[e]}`,
    curves: lines,
    diagonal: true,
    width,
    height: 9,
  });
}

/** The Murphy diagram of one event: each forecaster's mean elementary score against θ. */
export function murphyChart(c: Colors, t: TimeframeComparison, e: 'up' | 'down', width: number): string {
  const values = t.murphy[e];
  const top = Math.max(...FORECASTERS.flatMap((f) => values[f].filter(Number.isFinite)), 0);
  const lines: Curve[] = FORECASTERS.map((f) => ({
    label: f,
    glyph: GLYPHS[f],
    paint: paintOf(c, f),
    at: (x: number) => values[f][Math.min(199, Math.max(0, Math.floor(x * 200)))],
  }));
  return renderCurves(c, {
    yMax: top,
    yName: `elementary score, ${e} (lower is better)`,
    xName: 'θ',
    curves: lines,
    width,
    height: 8,
  });
}

/** The notes under the figures: what was left out, the small samples. */
export function renderJournalCompareTable(out: Output, view: JournalCompareView): string {
  const parts = [out.c.bold(wrapText(out, clean(heading(view)))), out.c.dim(wrapText(out, settings(view))), ''];
  if (view.doc.timeframes.length === 0) {
    parts.push(
      out.c.dim('(no settled forecast with ia2 and ia3 matches: record with --record, then fcast journal settle)'),
    );
    for (const note of compareNotes(view)) parts.push('', `note: ${clean(note)}`);
    return parts.join('\n');
  }
  const width = Math.min(out.tty && !out.wide ? out.columns : 80, 80);
  for (const t of view.doc.timeframes) {
    parts.push(
      out.c.bold(
        wrapText(out, `${clean(t.tf)} · ${formatNumber(t.n, 0)} forecasts · lags ${t.lags} (overlapping horizons)`),
      ),
      renderTable(out, FORECASTER_COLUMNS, forecasterRows(t)),
      '',
      renderTable(out, PAIR_COLUMNS, pairRows(t)),
    );
    const pair = main(t);
    if (pair) parts.push('', out.c.bold(wrapText(out, clean(verdictLine(t, pair, view.doc.alpha)))));
    const curves = view.curves.get(t.tf);
    if (curves) for (const e of EVENTS) parts.push('', reliabilityChart(out.c, t, curves, e, width));
    for (const e of ['up', 'down'] as const) parts.push('', murphyChart(out.c, t, e, width));
    parts.push('');
  }
  for (const note of compareNotes(view)) parts.push(wrapText(out, `note: ${clean(note)}`));
  return parts.join('\n').trimEnd();
}

const cellMd = markdownText;

export function renderJournalCompareMarkdown(out: Output, view: JournalCompareView): string {
  const lines = [`### ${cellMd(heading(view))}`, '', cellMd(settings(view)), ''];
  const table = (columns: Column[], rows: string[][]) => [
    `| ${columns.map((c) => cellMd(c.header)).join(' | ')} |`,
    `|${columns.map((c) => (c.align === 'right' ? '---:' : ':---')).join('|')}|`,
    ...rows.map((r) => `| ${r.map(cellMd).join(' | ')} |`),
  ];
  if (view.doc.timeframes.length === 0) lines.push('_No settled forecast with ia2 and ia3 matches._');
  const plain = createColors(false);
  for (const t of view.doc.timeframes) {
    lines.push(`#### ${cellMd(t.tf)}: ${t.n} forecasts, lags ${t.lags}`, '');
    lines.push(...table(FORECASTER_COLUMNS, forecasterRows(t)), '');
    lines.push(...table(PAIR_COLUMNS, pairRows(t)), '');
    const pair = main(t);
    if (pair) lines.push(`**${cellMd(verdictLine(t, pair, view.doc.alpha))}**`, '');
    const curves = view.curves.get(t.tf);
    const charts = [
      ...(curves ? EVENTS.map((e) => reliabilityChart(plain, t, curves, e, 60)) : []),
      murphyChart(plain, t, 'up', 60),
      murphyChart(plain, t, 'down', 60),
    ];
    lines.push('```text', charts.join('\n\n'), '```', '');
  }
  for (const note of compareNotes(view)) lines.push(`**Note:** ${cellMd(note)}`, '');
  return out.markdownAsIs(lines.join('\n').trimEnd());
}

export const COMPARE_COLUMNS = [
  'tf',
  'n',
  'lags',
  'a',
  'b',
  'score',
  'a_score',
  'b_score',
  'mean_diff',
  'dm.statistic',
  'dm.p_value',
  'dm.lags',
  'dm.variance',
  'bootstrap.block',
  'bootstrap.se',
  'bootstrap.ci95_lo',
  'bootstrap.ci95_hi',
  'bootstrap.p_value',
  'p_holm',
] as const;

/** One row per timeframe, pair and score; p_holm on the RPS rows (Holm's family is the RPS tests). */
export function renderJournalCompareDelimited(format: DelimitedFormat, view: JournalCompareView): string {
  const rows: DelimitedCell[][] = view.doc.timeframes.flatMap((t) =>
    t.pairs.flatMap((p) =>
      SCORES.map((sc): DelimitedCell[] => {
        const s = p.scores[sc];
        return [
          t.tf,
          t.n,
          t.lags,
          p.a,
          p.b,
          sc,
          t.forecasters[p.a][sc],
          t.forecasters[p.b][sc],
          s.mean_diff,
          s.dm.statistic,
          s.dm.p_value,
          s.dm.lags,
          s.dm.variance,
          s.bootstrap.block,
          s.bootstrap.se,
          s.bootstrap.ci95?.[0] ?? null,
          s.bootstrap.ci95?.[1] ?? null,
          s.bootstrap.p_value,
          sc === 'rps' ? p.p_holm : null,
        ];
      }),
    ),
  );
  return renderDelimited(format, [...COMPARE_COLUMNS], rows);
}
