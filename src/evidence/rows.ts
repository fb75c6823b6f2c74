// The figures of a track record table, computed once: one row per timeframe, read by the
// seed's names, and (for two rows or more) a Total row computed from the counts: the body's
// `totals` has no field names in the seed, so no spelling of them is guessed. Renderers only
// format these rows (domain.ts holds their types, shared by both sides).
import type { PeriodChange, RecordRow, RecordRows } from '../core/domain.js';
import { finiteNumber, nonEmptyText } from '../core/values.js';
import { outcomeCounts, resultRows, settledOf, timeframeOf } from './results.js';
import { resolvedRate, versus50 } from './wilson.js';

function publishedInterval(v: unknown): readonly [number, number] | undefined {
  if (!Array.isArray(v) || v.length !== 2) return undefined;
  const [low, high] = v.map(finiteNumber);
  return low === undefined || high === undefined ? undefined : [low, high];
}

const sum = (rows: RecordRow[], pick: (r: RecordRow) => number | undefined): number | undefined =>
  rows.reduce<number | undefined>((acc, r) => {
    const v = pick(r);
    return acc === undefined || v === undefined ? undefined : acc + v;
  }, 0);

/** Sums of the counts; the resolved rate and its interval from the summed wins and losses. */
function totalRow(rows: RecordRow[], changes: Map<string, PeriodChange> | undefined): RecordRow {
  const wins = sum(rows, (r) => r.wins);
  const losses = sum(rows, (r) => r.losses);
  const resolved = wins !== undefined && losses !== undefined ? resolvedRate(wins, losses) : null;
  const total: RecordRow = {
    timeframe: 'Total',
    settled: sum(rows, (r) => r.settled),
    wins,
    losses,
    neutrals: sum(rows, (r) => r.neutrals),
    rate: resolved?.rate,
    interval: resolved?.interval,
    versus50: versus50(resolved?.interval),
  };
  if (changes) {
    const newWins = sum(rows, (r) => r.change?.wins);
    const newLosses = sum(rows, (r) => r.change?.losses);
    const newResolved = newWins !== undefined && newLosses !== undefined ? resolvedRate(newWins, newLosses) : null;
    total.change = {
      timeframe: 'Total',
      settled: sum(rows, (r) => r.change?.settled),
      wins: newWins,
      losses: newLosses,
      neutrals: sum(rows, (r) => r.change?.neutrals),
      rate: newResolved?.rate ?? null,
      interval: newResolved?.interval ?? null,
      versus50: versus50(newResolved?.interval),
      appeared: false,
    };
  }
  return total;
}

export function recordRows(body: unknown, changes?: PeriodChange[]): RecordRows {
  const byTimeframe = changes ? new Map(changes.map((c) => [c.timeframe, c])) : undefined;
  const rows = resultRows(body).map((row, i): RecordRow => {
    const timeframe = timeframeOf(row, i);
    const interval = publishedInterval(row.resolved_win_rate_ci95);
    return {
      timeframe,
      settled: settledOf(row),
      ...outcomeCounts(row.outcomes),
      rate: finiteNumber(row.resolved_win_rate),
      interval,
      versus50: versus50(interval),
      positiveRate: finiteNumber(row.positive_outcome_rate),
      averageReturnPct: finiteNumber(row.average_return_pct),
      maturity: nonEmptyText(row.maturity),
      change: byTimeframe?.get(timeframe),
    };
  });
  return { rows, total: rows.length > 1 ? totalRow(rows, byTimeframe) : undefined };
}
