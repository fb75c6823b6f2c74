// The journal's index (index.json): the keys of the last hours per series, the recent price
// times and the open forecasts a response may settle, plus how many bytes of each month file it
// has taken in, so that "not yet recorded?" never reads the journal. A cache: index-file.ts
// brings it up to date with the files under store.ts's lock (every writer first takes in what
// the files hold beyond it), and rebuilds it when it is missing, damaged or outrun.
import { isRecord } from '../core/values.js';
import { forecastKey, ia2Probabilities, priceSeriesKey, seriesKey, type JournalRecord } from './record.js';

// 2: keys by origin (journal version 2); 3: a tab or backslash in a key's part escaped
// (record.ts), so that two series never share a key. An index of an older version is rebuilt.
const INDEX_VERSION = 3;

/** The keys of the last two hours are enough: a response shows forecasts at most an hour behind (the demo's delay) and one cadence old. */
const KEEP_KEYS_S = 2 * 3600;
/** ...and always the last few of each series, however long its cadence (6h forecasts are 6 hours apart). */
const KEEP_KEYS_MIN = 8;
/** An open forecast stays in the index while a response can still prove it: its target within two hours of the newest price or forecast seen. */
const KEEP_OPEN_S = 2 * 3600;
const KEEP_OPEN_MAX = 2_000;

/**
 * A forecast the index keeps open: what a settlement repeats, in a compact form; ia2's three
 * probabilities last, when the forecast has them (none in an index saved before the journal
 * kept every engine: its open forecasts were ia3-only).
 */
type OpenEntry = [
  origin: string | null,
  symbol: string,
  tf: string,
  ts: number,
  target_t: number,
  anchor_price: number | null,
  direction: string,
  p_long: number,
  p_short: number,
  p_flat: number,
  ia2_p_long?: number,
  ia2_p_short?: number,
  ia2_p_flat?: number,
];

export interface Series {
  /** Complete at and above this time (older entries were let go). */
  floor: number;
  times: Set<number>;
}

interface IndexFile {
  v: number;
  floor: number;
  files: Record<string, number>;
  series: Record<string, { floor: number; ts: number[] }>;
  prices: Record<string, { floor: number; t: number[] }>;
  open: OpenEntry[];
}

/**
 * The index in memory. Invariant: for every file in `files`, every forecast key and price time
 * in its first `files[f]` bytes with a time at or above both `floor` and its series' floor is in
 * `series` / `prices`; `open` holds the forecasts of those bytes not yet settled, less the ones let go.
 */
export class JournalIndex {
  floor = 0;
  files = new Map<string, number>();
  series = new Map<string, Series>();
  prices = new Map<string, Series>();
  open = new Map<string, OpenEntry>();

  /**
   * The index as saved, or undefined (rebuilt from the files) when it is not one: a single
   * entry off its shape refuses the whole of it, since an index that dropped a series would
   * say its keys were never recorded and let them be written twice.
   */
  static parse(text: string): JournalIndex | undefined {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      return undefined;
    }
    if (!isRecord(data) || data.v !== INDEX_VERSION || !Number.isFinite(data.floor)) return undefined;
    const { files, series = {}, prices = {}, open = [] } = data;
    if (!isRecord(files) || !isRecord(series) || !isRecord(prices) || !Array.isArray(open)) return undefined;
    const index = new JournalIndex();
    index.floor = data.floor as number;
    for (const [f, n] of Object.entries(files)) {
      if (!Number.isInteger(n) || (n as number) < 0) return undefined;
      index.files.set(f, n as number);
    }
    for (const [into, from, field] of [
      [index.series, series, 'ts'],
      [index.prices, prices, 't'],
    ] as const) {
      for (const [k, s] of Object.entries(from)) {
        const times = isRecord(s) && Number.isFinite(s.floor) ? undelta(s[field]) : undefined;
        if (!times) return undefined;
        into.set(k, { floor: (s as { floor: number }).floor, times: new Set(times) });
      }
    }
    for (const e of open) {
      if (!isOpenEntry(e)) return undefined;
      index.open.set(forecastKey({ origin: e[0], symbol: e[1], tf: e[2], ts: e[3] }), e);
    }
    return index;
  }

  serialize(): string {
    const data: IndexFile = {
      v: INDEX_VERSION,
      floor: this.floor,
      files: Object.fromEntries(this.files),
      series: Object.fromEntries([...this.series].map(([k, s]) => [k, { floor: s.floor, ts: delta(s.times) }])),
      prices: Object.fromEntries([...this.prices].map(([k, s]) => [k, { floor: s.floor, t: delta(s.times) }])),
      open: [...this.open.values()],
    };
    return `${JSON.stringify(data)}\n`;
  }

  private seriesOf(map: Map<string, Series>, key: string): Series {
    let s = map.get(key);
    if (!s) {
      s = { floor: this.floor, times: new Set() };
      map.set(key, s);
    }
    return s;
  }

  take(r: JournalRecord): void {
    if (r.kind === 'forecast') {
      if (r.ts < this.floor) return;
      const s = this.seriesOf(this.series, seriesKey(r));
      if (r.ts >= s.floor) s.times.add(r.ts);
      const entry: OpenEntry = [
        r.origin,
        r.symbol,
        r.tf,
        r.ts,
        r.target_t,
        r.anchor_price,
        r.direction,
        r.p_long,
        r.p_short,
        r.p_flat,
      ];
      const ia2 = ia2Probabilities(r);
      if (ia2) entry.push(ia2.p_long, ia2.p_short, ia2.p_flat);
      this.open.set(forecastKey(r), entry);
    } else if (r.kind === 'price') {
      if (r.t < this.floor) return;
      const s = this.seriesOf(this.prices, priceSeriesKey(r));
      if (r.t >= s.floor) s.times.add(r.t);
    } else {
      this.open.delete(forecastKey(r));
    }
  }

  /** Lets go of what no response will ask about again, so the index stays a few tens of KB. */
  trim(): void {
    // The newest time seen per symbol, prices and forecasts alike: a response shows nothing
    // much older than that (its price lags a forecast's ts by the tier's delay at most).
    const newest = new Map<string, number>();
    const see = (symbol: string, t: number) => newest.set(symbol, Math.max(newest.get(symbol) ?? t, t));
    // A series key is its price series key, a tab, then the timeframe (record.ts: a tab in a key
    // only ever separates two parts): the symbol of its origin is the part up to the second tab.
    const upToSymbol = (key: string) => key.slice(0, key.indexOf('\t', key.indexOf('\t') + 1));
    for (const [key, s] of this.prices) see(key, trimSeries(s));
    for (const [key, s] of this.series) see(upToSymbol(key), trimSeries(s));
    for (const [key, e] of this.open) {
      const seen = newest.get(priceSeriesKey({ origin: e[0], symbol: e[1] }));
      if (seen !== undefined && e[4] < seen - KEEP_OPEN_S) this.open.delete(key);
    }
    if (this.open.size > KEEP_OPEN_MAX) {
      const oldest = [...this.open].sort((a, b) => a[1][4] - b[1][4]).slice(0, this.open.size - KEEP_OPEN_MAX);
      for (const [key] of oldest) this.open.delete(key);
    }
  }
}

/** Ascending times as the first and the steps after it (60, 60, ...): a quarter of the bytes to write and parse. */
function delta(times: Set<number>): number[] {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted.map((t, i) => (i === 0 ? t : t - sorted[i - 1]!));
}

/** The times back from their steps; undefined unless every step is a whole number. */
function undelta(steps: unknown): number[] | undefined {
  if (!Array.isArray(steps) || !steps.every((step) => Number.isInteger(step))) return undefined;
  let t = 0;
  return steps.map((step: number) => (t += step));
}

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function isOpenEntry(e: unknown): e is OpenEntry {
  return (
    Array.isArray(e) &&
    (e.length === 10 || (e.length === 13 && isNumber(e[10]) && isNumber(e[11]) && isNumber(e[12]))) &&
    (e[0] === null || typeof e[0] === 'string') &&
    typeof e[1] === 'string' &&
    typeof e[2] === 'string' &&
    Number.isInteger(e[3]) &&
    Number.isInteger(e[4]) &&
    (e[5] === null || isNumber(e[5])) &&
    typeof e[6] === 'string' &&
    isNumber(e[7]) &&
    isNumber(e[8]) &&
    isNumber(e[9])
  );
}

/** Keeps the last KEEP_KEYS_S of a series (and its last few), raising its floor past what went; returns its newest time. */
function trimSeries(s: Series): number {
  const times = [...s.times].sort((a, b) => a - b);
  const newest = times.at(-1) ?? Number.NEGATIVE_INFINITY;
  const cut = Math.min(newest - KEEP_KEYS_S, times[times.length - KEEP_KEYS_MIN] ?? Number.NEGATIVE_INFINITY);
  let dropped = Number.NEGATIVE_INFINITY;
  for (const t of times) {
    if (t >= cut) break;
    s.times.delete(t);
    dropped = t;
  }
  if (dropped > Number.NEGATIVE_INFINITY) s.floor = Math.max(s.floor, dropped + 1);
  return newest;
}
