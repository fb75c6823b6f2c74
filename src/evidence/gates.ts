// CI gates on a track record, and on the period since a baseline. Every timeframe in the result
// must pass every gate given; a figure equal to its threshold passes. A figure that is missing
// or null cannot prove a threshold, so it fails, and so does a result with no timeframes at all.
import { MATURITY_LEVELS, type Maturity, type PeriodChange } from '../core/domain.js';
import { finiteNumber } from '../core/values.js';
import { resultRows, timeframeOf } from './results.js';

export interface GateThresholds {
  minMaturity?: Maturity;
  minSettled?: number;
  minWinRate?: number;
}

/** Gates on the settlements since the baseline. */
export interface PeriodGateThresholds {
  minNewSettled?: number;
  minNewWinRate?: number;
}

export type GateFlag =
  | '--min-maturity'
  | '--min-settled'
  | '--min-win-rate'
  | '--min-new-settled'
  | '--min-new-win-rate';
export type GatedField = 'maturity' | 'n_settled' | 'resolved_win_rate' | 'new settlements' | 'new resolved win rate';

export interface GateFailure {
  /** undefined when the result had no timeframes to judge. */
  timeframe: string | undefined;
  gate: GateFlag;
  field: GatedField | undefined;
  /** The figure as published or computed (undefined when absent). */
  figure: unknown;
  threshold: string | number;
}

export const hasGates = (g: GateThresholds): boolean =>
  g.minMaturity !== undefined || g.minSettled !== undefined || g.minWinRate !== undefined;

export const hasPeriodGates = (g: PeriodGateThresholds): boolean =>
  g.minNewSettled !== undefined || g.minNewWinRate !== undefined;

/** Rank of a maturity level, weakest 0; -1 for a value the seed does not list. */
export const maturityRank = (value: unknown): number => (MATURITY_LEVELS as readonly unknown[]).indexOf(value);

type Check = [gate: GateFlag, field: GatedField, threshold: string | number, passes: (figure: unknown) => boolean];

const atLeast = (threshold: number) => (figure: unknown) => {
  const n = finiteNumber(figure);
  return n !== undefined && n >= threshold;
};

/** Each row is judged by every check; with no rows, every check fails once; with no checks, nothing fails. */
function judge<R>(rows: R[], checks: Check[], read: (row: R, field: GatedField) => [string, unknown]): GateFailure[] {
  if (rows.length === 0) {
    return checks.map(([gate, , threshold]) => ({
      timeframe: undefined,
      gate,
      field: undefined,
      figure: undefined,
      threshold,
    }));
  }
  return rows.flatMap((row) =>
    checks.flatMap(([gate, field, threshold, passes]): GateFailure[] => {
      const [timeframe, figure] = read(row, field);
      return passes(figure) ? [] : [{ timeframe, gate, field, figure, threshold }];
    }),
  );
}

export function evaluateGates(body: unknown, g: GateThresholds): GateFailure[] {
  const checks: Check[] = [];
  if (g.minMaturity !== undefined) {
    const rank = maturityRank(g.minMaturity);
    checks.push(['--min-maturity', 'maturity', g.minMaturity, (m) => maturityRank(m) >= rank]);
  }
  if (g.minSettled !== undefined) checks.push(['--min-settled', 'n_settled', g.minSettled, atLeast(g.minSettled)]);
  if (g.minWinRate !== undefined)
    checks.push(['--min-win-rate', 'resolved_win_rate', g.minWinRate, atLeast(g.minWinRate)]);
  const rows = resultRows(body).map((row, i) => ({ row, timeframe: timeframeOf(row, i) }));
  return judge(rows, checks, ({ row, timeframe }, field) => [timeframe, row[field]]);
}

export function evaluatePeriodGates(changes: PeriodChange[], g: PeriodGateThresholds): GateFailure[] {
  const checks: Check[] = [];
  if (g.minNewSettled !== undefined)
    checks.push(['--min-new-settled', 'new settlements', g.minNewSettled, atLeast(g.minNewSettled)]);
  if (g.minNewWinRate !== undefined)
    checks.push(['--min-new-win-rate', 'new resolved win rate', g.minNewWinRate, atLeast(g.minNewWinRate)]);
  return judge(changes, checks, (c, field) => [c.timeframe, field === 'new settlements' ? c.settled : c.rate]);
}
