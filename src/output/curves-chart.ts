// Curves over x in [0, 1] on the terminal, one glyph per forecaster, for journal compare: the
// CORP reliability curves (the recalibrated probability against the forecast, the diagonal
// dotted) and the Murphy diagram (the mean elementary score against θ). Each column of the
// plot samples every curve at its x; where two curves share a cell the later one's glyph shows
// (the legend's order). Text only, so it pastes into a CI log or a Markdown code block.
import type { Colors } from './io.js';
import { blankGrid, plotLines } from './plot-grid.js';
import { packLine } from './table.js';

const LABEL_WIDTH = 6;

export interface Curve {
  label: string;
  glyph: string;
  paint?: (s: string) => string;
  /** The curve's value at x, or undefined where it has none (outside the forecasts' range). */
  at: (x: number) => number | undefined;
}

export interface CurvesChart {
  /** The y axis's top (its bottom is 0). */
  yMax: number;
  /** The y axis's name, above it; the x axis's, under it. */
  yName: string;
  xName: string;
  curves: readonly Curve[];
  /** Dots along y = x (perfect calibration). */
  diagonal?: boolean;
  /** Total width in columns (labels included), rows of plot. */
  width: number;
  height: number;
}

const label = (v: number): string => (v >= 10 ? v.toFixed(0) : v >= 1 ? v.toFixed(1) : v.toFixed(2));

export function renderCurves(c: Colors, chart: CurvesChart): string {
  const cols = Math.max(11, chart.width - LABEL_WIDTH - 1);
  const rows = Math.max(5, chart.height);
  const top = chart.yMax > 0 && Number.isFinite(chart.yMax) ? chart.yMax : 1;
  const grid = blankGrid(rows, cols);
  const xOf = (col: number) => (cols === 1 ? 0 : col / (cols - 1));
  const rowOf = (y: number) => rows - 1 - Math.round(Math.min(1, Math.max(0, y / top)) * (rows - 1));
  if (chart.diagonal) for (let x = 0; x < cols; x++) grid[rowOf(xOf(x) * top)]![x] = { ch: '·', paint: c.dim };
  for (const curve of chart.curves)
    for (let x = 0; x < cols; x++) {
      const y = curve.at(xOf(x));
      if (y === undefined || !Number.isFinite(y)) continue;
      grid[rowOf(y)]![x] = { ch: curve.glyph, paint: curve.paint };
    }
  const lines = plotLines(c, grid, LABEL_WIDTH, { top: label(top), middle: label(top / 2), bottom: '0' });
  const under = Array.from({ length: cols }, () => ' ');
  const put = (at: number, text: string) => under.splice(at, text.length, ...text);
  put(0, '0');
  put(Math.round((cols - 1) / 2) - 1, '0.5');
  put(cols - 1, '1');
  return [
    `${' '.repeat(LABEL_WIDTH - 1)}${chart.yName}`,
    ...lines,
    `${' '.repeat(LABEL_WIDTH)}${c.dim(`└${'─'.repeat(cols)}`)}`,
    `${' '.repeat(LABEL_WIDTH + 1)}${under.join('').trimEnd()}`,
    `${' '.repeat(LABEL_WIDTH + 1)}${chart.xName}`,
    ...packLine(
      [...chart.curves.map((k) => `${k.glyph} ${k.label}`), ...(chart.diagonal ? ['· calibrated'] : [])],
      chart.width - LABEL_WIDTH - 1,
      '  ',
    ).map((line) => `${' '.repeat(LABEL_WIDTH + 1)}${line}`),
  ].join('\n');
}
