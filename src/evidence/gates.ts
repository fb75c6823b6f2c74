// CI gates on a track record. Every timeframe in the result must pass every gate given; a
// figure equal to its threshold passes. A figure that is missing or null cannot prove a
// threshold, so it fails, and so does a result with no timeframes at all.
import { MATURITY_LEVELS } from '../domain.js';
import { finiteNumber } from '../values.js';
import { resultRows, timeframeOf } from './results.js';

export type MaturityLevel = (typeof MATURITY_LEVELS)[number];

export interface GateThresholds {
  minMaturity?: MaturityLevel;
  minSettled?: number;
  minWinRate?: number;
}

export type GateFlag = '--min-maturity' | '--min-settled' | '--min-win-rate';

export interface GateFailure {
  /** undefined when the result had no timeframes to judge. */
  timeframe: string | undefined;
  gate: GateFlag;
  field: 'maturity' | 'n_settled' | 'resolved_win_rate' | undefined;
  /** The figure as published (undefined when absent). */
  figure: unknown;
  threshold: string | number;
}

export const hasGates = (g: GateThresholds): boolean =>
  g.minMaturity !== undefined || g.minSettled !== undefined || g.minWinRate !== undefined;

/** Rank of a maturity level, weakest 0; -1 for a value the seed does not list. */
export const maturityRank = (value: unknown): number => (MATURITY_LEVELS as readonly unknown[]).indexOf(value);

function activeGates(g: GateThresholds): Array<[GateFlag, string | number]> {
  const gates: Array<[GateFlag, string | number]> = [];
  if (g.minMaturity !== undefined) gates.push(['--min-maturity', g.minMaturity]);
  if (g.minSettled !== undefined) gates.push(['--min-settled', g.minSettled]);
  if (g.minWinRate !== undefined) gates.push(['--min-win-rate', g.minWinRate]);
  return gates;
}

export function evaluateGates(body: unknown, g: GateThresholds): GateFailure[] {
  const rows = resultRows(body);
  if (rows.length === 0) {
    return activeGates(g).map(([gate, threshold]) => ({
      timeframe: undefined,
      gate,
      field: undefined,
      figure: undefined,
      threshold,
    }));
  }
  const failures: GateFailure[] = [];
  rows.forEach((row, i) => {
    const timeframe = timeframeOf(row, i);
    if (g.minMaturity !== undefined && maturityRank(row.maturity) < maturityRank(g.minMaturity)) {
      failures.push({
        timeframe,
        gate: '--min-maturity',
        field: 'maturity',
        figure: row.maturity,
        threshold: g.minMaturity,
      });
    }
    if (g.minSettled !== undefined) {
      const settled = finiteNumber(row.n_settled);
      if (settled === undefined || settled < g.minSettled) {
        failures.push({
          timeframe,
          gate: '--min-settled',
          field: 'n_settled',
          figure: row.n_settled,
          threshold: g.minSettled,
        });
      }
    }
    if (g.minWinRate !== undefined) {
      const rate = finiteNumber(row.resolved_win_rate);
      if (rate === undefined || rate < g.minWinRate) {
        failures.push({
          timeframe,
          gate: '--min-win-rate',
          field: 'resolved_win_rate',
          figure: row.resolved_win_rate,
          threshold: g.minWinRate,
        });
      }
    }
  });
  return failures;
}
