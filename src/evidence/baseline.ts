// `--baseline FILE`: the record published now against the one published then. Within one
// protocol cohort a settled forecast stays settled, so every count can only grow: a count that
// went down, or a timeframe that vanished, means the record was rewritten. What grew is the
// period since the baseline, judged on its own: its outcomes, resolved win rate and interval.
import type { BaselineComparison, CountDrop, CountName, PeriodChange } from '../core/domain.js';
import { asRecord, nonEmptyText } from '../core/values.js';
import { outcomeCounts, resultRows, settledOf, timeframeOf } from './results.js';
import { resolvedRate, versus50 } from './wilson.js';

/** What the command asked for, which the baseline must have asked for too. */
export interface RecordFilter {
  symbol?: string;
  tf?: string;
}

/** Why a baseline body answers another question than this run's, or undefined when it is the same one. */
export function filterMismatch(baseline: unknown, filter: RecordFilter): string | undefined {
  const b = asRecord(baseline);
  const theirs = nonEmptyText(b.symbol)?.toUpperCase();
  const ours = filter.symbol?.toUpperCase();
  if (theirs !== ours) {
    return `it is the track record of ${theirs ?? 'all symbols'}, and this run asks for ${ours ?? 'all symbols'}`;
  }
  if (filter.tf !== undefined) {
    const other = resultRows(b)
      .map((row, i) => timeframeOf(row, i))
      .find((tf) => tf !== filter.tf);
    if (other !== undefined) return `it holds timeframe ${other}, and this run asks for --tf ${filter.tf} only`;
  }
  return undefined;
}

const COUNT_NAMES: readonly CountName[] = ['n_settled', 'win', 'loss', 'neutral'];
type Counts = Partial<Record<CountName, number>>;

function countsByTimeframe(body: unknown): Map<string, Counts> {
  const map = new Map<string, Counts>();
  resultRows(body).forEach((row, i) => {
    const tf = timeframeOf(row, i);
    if (map.has(tf)) return;
    const { wins, losses, neutrals } = outcomeCounts(row.outcomes);
    map.set(tf, { n_settled: settledOf(row), win: wins, loss: losses, neutral: neutrals });
  });
  return map;
}

const protocolId = (body: unknown): string | undefined => nonEmptyText(asRecord(asRecord(body).protocol).id);

const delta = (now: Counts, before: Counts | undefined, name: CountName): number | undefined => {
  const n = now[name];
  const b = before ? before[name] : 0;
  return n === undefined || b === undefined ? undefined : n - b;
};

function periodOf(timeframe: string, now: Counts, before: Counts | undefined): PeriodChange {
  const wins = delta(now, before, 'win');
  const losses = delta(now, before, 'loss');
  const resolved = wins !== undefined && losses !== undefined ? resolvedRate(wins, losses) : null;
  return {
    timeframe,
    settled: delta(now, before, 'n_settled'),
    wins,
    losses,
    neutrals: delta(now, before, 'neutral'),
    rate: resolved?.rate ?? null,
    interval: resolved?.interval ?? null,
    versus50: versus50(resolved?.interval),
    appeared: before === undefined,
  };
}

export function compareWithBaseline(baseline: unknown, current: unknown): BaselineComparison {
  const baselineProtocol = protocolId(baseline);
  const currentProtocol = protocolId(current);
  if (baselineProtocol === undefined || baselineProtocol !== currentProtocol) {
    return { comparable: false, baselineProtocol, currentProtocol };
  }
  const before = countsByTimeframe(baseline);
  const now = countsByTimeframe(current);
  const changes: PeriodChange[] = [];
  const drops: Array<{ timeframe: string; drops: CountDrop[] }> = [];
  for (const [tf, counts] of now) {
    const then = before.get(tf);
    changes.push(periodOf(tf, counts, then));
    const down = COUNT_NAMES.flatMap((count): CountDrop[] => {
      const b = then?.[count];
      const n = counts[count];
      return b !== undefined && n !== undefined && n < b ? [{ count, before: b, now: n }] : [];
    });
    if (down.length) drops.push({ timeframe: tf, drops: down });
  }
  const vanished = [...before.keys()].filter((tf) => !now.has(tf));
  return { comparable: true, protocol: currentProtocol, changes, drops, vanished };
}
