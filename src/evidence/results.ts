// Reading a track record's rows whatever their exact spelling. The seed says each row's `outcomes` "carries win, loss and neutral counts" but
// fixes no key names, so the common spellings are recognised. A count that cannot be found
// (or that two spellings contradict) stays undefined: shown as a dash, never guessed.
import { asRecord, isRecord } from '../values.js';

export type OutcomeKind = 'wins' | 'losses' | 'neutrals';

export interface OutcomeCounts {
  wins?: number;
  losses?: number;
  neutrals?: number;
}

const SPELLINGS: Record<OutcomeKind, readonly string[]> = {
  wins: ['win', 'wins', 'won', 'hit', 'hits', 'correct', 'success', 'successes'],
  losses: ['loss', 'losses', 'lost', 'lose', 'miss', 'misses', 'incorrect', 'wrong', 'failure', 'failures'],
  neutrals: [
    'neutral',
    'neutrals',
    'flat',
    'flats',
    'push',
    'pushes',
    'draw',
    'draws',
    'tie',
    'ties',
    'scratch',
    'scratches',
  ],
};

const KIND_OF = new Map<string, OutcomeKind>(
  (Object.entries(SPELLINGS) as Array<[OutcomeKind, readonly string[]]>).flatMap(([kind, names]) =>
    names.map((n): [string, OutcomeKind] => [n, kind]),
  ),
);

/** `n_wins`, `win_count`, `Wins`, `num-losses` -> the bare word. */
function bareName(key: string): string {
  return key
    .toLowerCase()
    .replace(/[\s-]+/g, '_')
    .replace(/^(n|num|number|count|total)_(of_)?/, '')
    .replace(/_(count|n|total)$/, '');
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

export function recognizeOutcomes(outcomes: unknown): OutcomeCounts {
  if (!isRecord(outcomes)) return {};
  const found: Partial<Record<OutcomeKind, number[]>> = {};
  for (const [key, value] of Object.entries(outcomes)) {
    const kind = KIND_OF.get(bareName(key));
    if (!kind || !isCount(value)) continue;
    found[kind] ??= [];
    found[kind].push(value);
  }
  const counts: OutcomeCounts = {};
  for (const kind of Object.keys(SPELLINGS) as OutcomeKind[]) {
    const values = found[kind];
    // Two spellings of one outcome that disagree: which one is right cannot be known.
    if (values?.every((v) => v === values[0])) counts[kind] = values[0];
  }
  return counts;
}

/** The keys an outcomes object has, to name them when none could be recognised. */
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
