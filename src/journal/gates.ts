// CI gates on a journal report, as evidence/gates.ts does them for the track record: every
// timeframe in the report must pass every gate given; a figure equal to its threshold passes;
// a null figure proves nothing and fails; a report with no timeframes fails each gate once.
// The failures are data (a list), so the command prints them and other renderers (GitHub
// annotations) can take the same list.
export interface JournalGateThresholds {
  minSettled?: number;
  maxBrier?: number;
  minHitRate?: number;
}

export type JournalGateFlag = '--min-settled' | '--max-brier' | '--min-hit-rate';
export type JournalGatedField = 'n_settled' | 'call.brier' | 'hit_rate';

export interface JournalGateFailure {
  /** undefined when the report had no timeframes to judge. */
  timeframe: string | undefined;
  gate: JournalGateFlag;
  field: JournalGatedField | undefined;
  figure: number | null | undefined;
  threshold: number;
  /** Which way the figure must lie from the threshold. */
  bound: 'at least' | 'at most';
}

interface GatedRow {
  tf: string;
  n_settled: number;
  hit_rate: number | null;
  call: { brier: number | null };
}

export const hasJournalGates = (g: JournalGateThresholds): boolean =>
  g.minSettled !== undefined || g.maxBrier !== undefined || g.minHitRate !== undefined;

type Check = [JournalGateFlag, JournalGatedField, number, 'at least' | 'at most', (row: GatedRow) => number | null];

export function evaluateJournalGates(rows: readonly GatedRow[], g: JournalGateThresholds): JournalGateFailure[] {
  const checks: Check[] = [];
  if (g.minSettled !== undefined)
    checks.push(['--min-settled', 'n_settled', g.minSettled, 'at least', (r) => r.n_settled]);
  if (g.maxBrier !== undefined) checks.push(['--max-brier', 'call.brier', g.maxBrier, 'at most', (r) => r.call.brier]);
  if (g.minHitRate !== undefined)
    checks.push(['--min-hit-rate', 'hit_rate', g.minHitRate, 'at least', (r) => r.hit_rate]);
  if (rows.length === 0) {
    return checks.map(([gate, , threshold, bound]) => ({
      timeframe: undefined,
      gate,
      field: undefined,
      figure: undefined,
      threshold,
      bound,
    }));
  }
  return rows.flatMap((row) =>
    checks.flatMap(([gate, field, threshold, bound, read]): JournalGateFailure[] => {
      const figure = read(row);
      const ok = figure !== null && (bound === 'at least' ? figure >= threshold : figure <= threshold);
      return ok ? [] : [{ timeframe: row.tf, gate, field, figure, threshold, bound }];
    }),
  );
}

export function describeJournalGateFailure(f: JournalGateFailure): string {
  if (f.timeframe === undefined)
    return `gate failed: ${f.gate} ${f.threshold}: the report has no timeframes, so nothing proves the threshold`;
  if (f.figure === null || f.figure === undefined) {
    const why = f.field === 'hit_rate' ? 'no wins or losses' : 'nothing settled';
    return `gate failed: ${f.timeframe}: ${f.field} is null (${why}): a null figure fails ${f.gate} ${f.threshold}`;
  }
  const shown = f.field === 'n_settled' ? String(f.figure) : f.figure.toFixed(4);
  const side = f.bound === 'at least' ? 'below' : 'above';
  return `gate failed: ${f.timeframe}: ${f.field} ${shown} is ${side} ${f.gate} ${f.threshold}`;
}
