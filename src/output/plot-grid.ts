// The grid the terminal charts draw on (reliability-chart.ts, curves-chart.ts): cells of one
// glyph each, and the lines they make behind the y axis, labelled at its top, middle and bottom.
import type { Colors } from './io.js';

export interface PlotCell {
  ch: string;
  paint?: (s: string) => string;
}

/** `rows` rows of `cols` blank cells. */
export const blankGrid = (rows: number, cols: number): PlotCell[][] =>
  Array.from({ length: rows }, () => Array.from({ length: cols }, () => ({ ch: ' ' })));

/**
 * The grid's lines, each behind the y axis (`labelWidth` columns of label, then the axis): the
 * top, middle and bottom rows carry their labels and a tick, the others none.
 */
export function plotLines(
  c: Colors,
  grid: readonly PlotCell[][],
  labelWidth: number,
  labels: { top: string; middle: string; bottom: string },
): string[] {
  const rows = grid.length;
  const labelAt = (r: number): string => {
    if (r === 0) return labels.top;
    if (r === rows - 1) return labels.bottom;
    if (r === Math.round((rows - 1) / 2)) return labels.middle;
    return '';
  };
  return grid.map((cells, r) => {
    const tick = labelAt(r) ? '┤' : '│';
    const plot = cells
      .map((cell) => (cell.paint ? cell.paint(cell.ch) : cell.ch))
      .join('')
      .trimEnd();
    return `${labelAt(r).padStart(labelWidth - 1)} ${c.dim(tick)}${plot}`;
  });
}
