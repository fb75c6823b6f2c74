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

/**
 * `--min-new-settled`'s floors: one for every timeframe (`20`), and floors of their own for
 * the timeframes named (`20,6h=5,1d=0`): timeframes settle at their own pace, a 15min one
 * hundreds of times a week where a 1d one settles a few, or none once it is no longer forecast.
 */
export interface SettledFloors {
  every?: number;
  timeframes: Readonly<Record<string, number>>;
}

/** Gates on the settlements since the baseline. */
export interface PeriodGateThresholds {
  minNewSettled?: number | SettledFloors;
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

/** The floors of `--min-new-settled` however given: a number is every timeframe's. */
export const settledFloors = (given: number | SettledFloors): SettledFloors =>
  typeof given === 'number' ? { every: given, timeframes: {} } : given;

/** How a floor is shown in a failure: as typed for a timeframe of its own (`6h=5`), else the number. */
const floorText = (floors: SettledFloors, tf: string): string | number | undefined =>
  Object.hasOwn(floors.timeframes, tf) ? `${tf}=${floors.timeframes[tf]}` : floors.every;

export function evaluatePeriodGates(changes: PeriodChange[], g: PeriodGateThresholds): GateFailure[] {
  const floors = g.minNewSettled === undefined ? undefined : settledFloors(g.minNewSettled);
  const rate: Check[] =
    g.minNewWinRate === undefined
      ? []
      : [['--min-new-win-rate', 'new resolved win rate', g.minNewWinRate, atLeast(g.minNewWinRate)]];
  const read = (c: PeriodChange): [string, unknown] => [c.timeframe, c.rate];
  if (changes.length === 0) {
    // Nothing to judge: each gate fails once (a floor for named timeframes only fails below, by name).
    const every: Check[] =
      floors?.every === undefined
        ? []
        : [['--min-new-settled', 'new settlements', floors.every, atLeast(floors.every)]];
    return [...judge(changes, every, read), ...judge(changes, rate, read), ...missingTimeframes(changes, floors)];
  }
  const failures = changes.flatMap((c): GateFailure[] => {
    const floor =
      floors && (Object.hasOwn(floors.timeframes, c.timeframe) ? floors.timeframes[c.timeframe] : floors.every);
    const settled: GateFailure[] =
      floors && floor !== undefined && !atLeast(floor)(c.settled)
        ? [
            {
              timeframe: c.timeframe,
              gate: '--min-new-settled',
              field: 'new settlements',
              figure: c.settled,
              threshold: floorText(floors, c.timeframe)!,
            },
          ]
        : [];
    return [...settled, ...judge([c], rate, read)];
  });
  return [...failures, ...missingTimeframes(changes, floors)];
}

/** A timeframe given a floor of its own above 0 that the result does not hold: nothing proves its floor. */
function missingTimeframes(changes: PeriodChange[], floors: SettledFloors | undefined): GateFailure[] {
  if (!floors) return [];
  return Object.keys(floors.timeframes)
    .filter((tf) => floors.timeframes[tf]! > 0 && !changes.some((c) => c.timeframe === tf))
    .map((tf) => ({
      timeframe: tf,
      gate: '--min-new-settled',
      field: 'new settlements',
      figure: undefined,
      threshold: floorText(floors, tf)!,
    }));
}
