// A track record's rows read by the seed's own names: `timeframe`, `n_settled`, and the
// `outcomes` object that "carries win, loss and neutral counts" (`win`, `loss`, `neutral`).
// Nothing else is guessed: a count under any other name is not a count, and shows as a dash.
import type { Outcome } from '../core/domain.js';
import { asRecord } from '../core/values.js';

export interface OutcomeCounts {
  wins?: number;
  losses?: number;
  neutrals?: number;
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const countOf = (outcomes: Record<string, unknown>, name: Outcome): number | undefined =>
  isCount(outcomes[name]) ? outcomes[name] : undefined;

export function outcomeCounts(outcomes: unknown): OutcomeCounts {
  const o = asRecord(outcomes);
  const counts: OutcomeCounts = {};
  const wins = countOf(o, 'win');
  const losses = countOf(o, 'loss');
  const neutrals = countOf(o, 'neutral');
  if (wins !== undefined) counts.wins = wins;
  if (losses !== undefined) counts.losses = losses;
  if (neutrals !== undefined) counts.neutrals = neutrals;
  return counts;
}

/** The keys an outcomes object has, to name them when the seed's are not among them. */
export function outcomeKeysSeen(outcomes: unknown): string[] {
  return Object.keys(asRecord(outcomes));
}

export type ResultRow = Record<string, unknown>;

/** The rows of `results`, as objects; anything else in the array becomes an empty row. */
export function resultRows(body: unknown): ResultRow[] {
  const results = asRecord(body).results;
  return Array.isArray(results) ? results.map(asRecord) : [];
}

/** A row's timeframe name, or its position when the server left the name out. */
export function timeframeOf(row: ResultRow, index: number): string {
  return typeof row.timeframe === 'string' && row.timeframe !== '' ? row.timeframe : `row ${index + 1}`;
}

/** `n_settled` when it is a count. */
export const settledOf = (row: ResultRow): number | undefined => (isCount(row.n_settled) ? row.n_settled : undefined);
