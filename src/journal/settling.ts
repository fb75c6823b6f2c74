// `journal settle` in three steps around the one request per symbol the command makes:
// what is open (read without the lock: it may take a second over a large journal), the rule
// applied to each open forecast (settle.ts), and the settlements appended under the lock, less
// any another settle wrote meanwhile (the files' tails since the read are checked first).
import { join } from 'node:path';
import { noProblems, readRecords, type ReadProblems } from './lines.js';
import {
  forecastKey,
  type ForecastRecord,
  type JournalRecord,
  type PriceRecord,
  type SettlementRecord,
} from './record.js';
import { fileInRange, passes, type JournalFilter } from './report.js';
import { settleForecast, type Observation, type SymbolEvidence, type Verdict } from './settle.js';
import { monthFiles, statSizeOr0 } from './journal-files.js';
import { withJournal } from './store.js';

export interface OpenJournal {
  /** Forecasts with no settlement (nor an unsettleable mark), by symbol. */
  open: Map<string, ForecastRecord[]>;
  /** Recorded price observations by symbol, sorted by t. */
  observations: Map<string, Observation[]>;
  /** Each file's length when read: what a writer must check beyond. */
  sizes: Map<string, number>;
  problems: ReadProblems;
  /** Open forecasts the filter let through but for their origin: another service's, never settled here. */
  otherOrigins: number;
}

/** What `journal settle` did: counts by outcome and why the rest stays open, and the symbols asked. */
export interface SettleSummary {
  settled: number;
  fromCandles: number;
  fromPrices: number;
  unsettleable: number;
  notDue: number;
  waiting: number;
  /** Open forecasts of other origins (and of an unknown one, unless adopted), left alone. */
  otherOrigins: number;
  /** Symbols asked for candles, and those whose request failed. */
  symbols: number;
  failed: string[];
  flat_band_pct: number;
}

/**
 * Reads the journal for what is open among the origins of `filter` (settle asks for the base
 * URL's), and every price observation of those origins for the symbols concerned: a price from
 * another service never settles a forecast. Open forecasts of other origins are counted.
 */
export function readOpen(dir: string | undefined, filter: JournalFilter): OpenJournal {
  const problems = noProblems();
  const open = new Map<string, ForecastRecord[]>();
  const prices = new Map<string, Map<number, number>>();
  const sizes = new Map<string, number>();
  const pending = new Map<string, ForecastRecord>();
  const elsewhere = new Set<string>();
  const done = new Set<string>();
  const anyOrigin: JournalFilter = { ...filter, origins: undefined };
  const ours = (origin: string | null) => filter.origins === undefined || filter.origins.includes(origin);
  for (const file of dir === undefined ? [] : monthFiles(dir)) {
    const path = join(dir!, file);
    sizes.set(
      file,
      readRecords(
        path,
        0,
        (r) => {
          if (r.kind === 'price') {
            if (!ours(r.origin)) return;
            let byT = prices.get(r.symbol);
            if (!byT) {
              byT = new Map();
              prices.set(r.symbol, byT);
            }
            if (!byT.has(r.t)) byT.set(r.t, r.last);
            return;
          }
          const key = forecastKey(r);
          if (r.kind === 'settlement') {
            done.add(key);
            pending.delete(key);
            elsewhere.delete(key);
          } else if (!done.has(key) && !pending.has(key) && fileInRange(filter, file)) {
            if (passes(filter, r.origin, r.symbol, r.tf, r.ts)) pending.set(key, r);
            else if (passes(anyOrigin, r.origin, r.symbol, r.tf, r.ts)) elsewhere.add(key);
          }
        },
        problems,
      ),
    );
  }
  for (const f of pending.values()) {
    const list = open.get(f.symbol);
    if (list) list.push(f);
    else open.set(f.symbol, [f]);
  }
  const observations = new Map<string, Observation[]>();
  for (const [symbol, byT] of prices) {
    if (!open.has(symbol)) continue;
    observations.set(
      symbol,
      [...byT].map(([t, last]) => ({ t, last })).sort((a, b) => a.t - b.t),
    );
  }
  return { open, observations, sizes, problems, otherOrigins: elsewhere.size };
}

/** The verdict on each open forecast of a symbol. */
export function judge(
  forecasts: readonly ForecastRecord[],
  evidence: SymbolEvidence,
  flatBandPct: number,
  nowS: number,
): Verdict[] {
  return forecasts.map((f) => settleForecast(f, evidence, flatBandPct, nowS));
}

/** Merges a response's price observation into a symbol's sorted observations (unless already there). */
export function withObservation(list: readonly Observation[], extra: Observation | undefined): Observation[] {
  if (!extra || list.some((o) => o.t === extra.t)) return [...list];
  return [...list, extra].sort((a, b) => a.t - b.t);
}

/**
 * Appends the settlements (and the price observations the requests brought) under the lock;
 * a forecast another process settled since `sizes` were read is left alone. Returns what was written.
 */
export async function appendSettlements(
  dataDir: string,
  settlements: readonly SettlementRecord[],
  prices: readonly PriceRecord[],
  sizes: ReadonlyMap<string, number>,
): Promise<SettlementRecord[]> {
  return withJournal(dataDir, (tx) => {
    const since = new Set<string>();
    for (const file of monthFiles(tx.dir)) {
      const path = join(tx.dir, file);
      const from = sizes.get(file) ?? 0;
      if (statSizeOr0(path) <= from) continue;
      readRecords(path, from, (r) => r.kind === 'settlement' && since.add(forecastKey(r)), noProblems());
    }
    const written = settlements.filter((s) => !since.has(forecastKey(s)));
    const fresh: JournalRecord[] = prices.filter((p) => !tx.hasPrice(p));
    tx.append([...fresh, ...written]);
    return written;
  });
}
