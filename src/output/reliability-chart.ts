// A reliability diagram on the terminal: the mean forecast of each bin across, the observed
// frequency up, the diagonal of perfect calibration dotted, each bin's Wilson 95% band drawn
// as a vertical bar and its frequency as a dot (hollow where the bin holds too few forecasts to
// read much into, by the journal's rule). Text only, so it pastes into a CI log or a Markdown
// code block as it shows.
import type { CallBin } from '../journal/score.js';
import type { Colors } from './io.js';
import { blankGrid, plotLines } from './plot-grid.js';
import { packLine } from './table.js';

const LABEL_WIDTH = 5;

/**
 * The chart as lines of text, `width` columns wide (labels included), `height` rows of plot; a
 * bin of fewer than `smallSample` forecasts (journal/score.ts's SMALL_SAMPLE) is drawn hollow.
 */
export function renderReliabilityChart(
  c: Colors,
  bins: readonly CallBin[],
  size: { width: number; height: number; smallSample: number },
): string {
  const cols = Math.max(11, size.width - LABEL_WIDTH - 1);
  const rows = Math.max(5, size.height);
  const grid = blankGrid(rows, cols);
  const colOf = (x: number) => Math.round(Math.min(1, Math.max(0, x)) * (cols - 1));
  const rowOf = (y: number) => rows - 1 - Math.round(Math.min(1, Math.max(0, y)) * (rows - 1));
  // The diagonal first, so that bands and dots are drawn over it.
  for (let x = 0; x < cols; x++) grid[rowOf(x / (cols - 1))]![x] = { ch: '·', paint: c.dim };
  for (const b of bins) {
    if (b.n === 0 || b.mean_p === null || b.freq === null) continue;
    const x = colOf(b.mean_p);
    if (b.freq_ci95) {
      for (let r = rowOf(b.freq_ci95[1]); r <= rowOf(b.freq_ci95[0]); r++) grid[r]![x] = { ch: '│', paint: c.cyan };
    }
    grid[rowOf(b.freq)]![x] = b.n < size.smallSample ? { ch: '○', paint: c.yellow } : { ch: '●', paint: c.green };
  }
  const lines = plotLines(c, grid, LABEL_WIDTH, { top: '1.0', middle: '0.5', bottom: '0.0' });
  const axis = `${' '.repeat(LABEL_WIDTH)}${c.dim(`└${'─'.repeat(cols)}`)}`;
  // Each tick label under its column of the plot: 0.0 from the first, 0.5 centred on the
  // middle one, 1.0 ending at the last; the line is as wide as the plot's, never wider.
  const middle = Math.round((cols - 1) / 2);
  const under = Array.from({ length: cols }, () => ' ');
  const put = (at: number, text: string) => under.splice(at, text.length, ...text);
  put(0, '0.0');
  put(middle - 1, '0.5');
  put(cols - 3, '1.0');
  const ticks = `${' '.repeat(LABEL_WIDTH + 1)}${under.join('')}`;
  return [
    `${' '.repeat(LABEL_WIDTH - 1)}observed`,
    ...lines,
    axis,
    ticks,
    `${' '.repeat(LABEL_WIDTH + 1)}forecast probability of the call`,
    // The legend on as many lines as keep it within the width.
    ...packLine(
      [`● observed (○ n < ${size.smallSample})`, '│ 95% CI', '· calibrated'],
      size.width - LABEL_WIDTH - 1,
      '  ',
    ).map((line) => `${' '.repeat(LABEL_WIDTH + 1)}${line}`),
  ].join('\n');
}
