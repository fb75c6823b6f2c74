// One row per forecast with its settlement: what `journal list` shows and `journal export`
// writes (CSV columns in the contract's order, then extras; JSON Lines objects with the same
// names), and what `journal import` reads back (those columns in any order, others ignored).
import { join } from 'node:path';
import { readCsvCell } from '../core/exact-text.js';
import { isEpochSeconds, isRecord } from '../core/values.js';
import { scanForReport } from './fast-lines.js';
import { noProblems, readRecords, type ReadProblems } from './lines.js';
import {
  forecastKey,
  ia1Of,
  ia2Of,
  ia3Of,
  JOURNAL_VERSION,
  moveOf,
  originOf,
  outcomeOf,
  returnPct,
  settledRecord,
  settlingBand,
  unsettleableRecord,
  type ForecastRecord,
  type JournalRecord,
  type PriceRecord,
  type SettlementRecord,
} from './record.js';
import { fileInRange, passes, type JournalFilter } from './report.js';
import { monthFiles } from './journal-files.js';

export type RowStatus = 'open' | 'settled' | 'unsettleable';

/** The contract's export columns, in its order: all an import needs. */
export const EXPORT_COLUMNS = [
  'symbol',
  'tf',
  'ts',
  'horizon_min',
  'target_t',
  'anchor_price',
  'target_price',
  'direction',
  'p_long',
  'p_short',
  'p_flat',
  'status',
  'settle_price',
  'settle_t',
  'settle_source',
  'return_pct',
  'outcome',
  'recorded_at',
] as const;

/**
 * The engines beside ia3's call and probabilities (which the contract's columns hold), as the
 * record keeps them (record.ts): empty where the record lacks them (ia3-only, from before the
 * journal kept every engine). An import takes them by these names; a row without them is ia3-only.
 */
export const ENGINE_COLUMNS = [
  'ia1.score',
  'ia1.rsi_score',
  'ia1.ema_score',
  'ia2.p_long',
  'ia2.p_short',
  'ia2.p_flat',
  'ia2.predicted_change_pct',
  'ia2.confidence',
  'ia2.label_raw',
  'ia3.label',
  'ia3.policy_version',
] as const;

/**
 * Written after them: the move, why a forecast is unsettleable, its tier, the service it came
 * from (its origin; empty when unknown), the server's clock when it was shown, when it was
 * settled and with what flat band (so that an import into an empty journal gives the same
 * records), ISO twins of the times, and last the engines (so that every column of an export
 * from before them keeps its place).
 */
export const EXTRA_COLUMNS = [
  'move',
  'reason',
  'tier',
  'delay_min',
  'origin',
  'server_t',
  'settled_at',
  'settle_flat_band_pct',
  'ts_iso',
  'target_t_iso',
  'settle_t_iso',
  'recorded_at_iso',
  'server_t_iso',
  'settled_at_iso',
  ...ENGINE_COLUMNS,
] as const;

export type Column = (typeof EXPORT_COLUMNS)[number] | (typeof EXTRA_COLUMNS)[number];

/**
 * `journal list --format csv|tsv`: the same columns with each time's ISO twin right beside it,
 * as the contract's Formats rule has every table (only the export keeps its 18 columns first).
 */
export const LIST_COLUMNS: readonly Column[] = [...EXPORT_COLUMNS, ...EXTRA_COLUMNS]
  .filter((c) => !c.endsWith('_iso'))
  .flatMap((c) => {
    const twin = `${c}_iso` as Column;
    return (EXTRA_COLUMNS as readonly string[]).includes(twin) ? [c, twin] : [c];
  });
export type JournalRow = Record<Column, string | number | null>;

const iso = (t: number | null): string | null =>
  t === null ? null : new Date(t * 1000).toISOString().replace('.000Z', 'Z');

/** A forecast and its settlement (if any) as a row; outcomes judged with `flatBandPct`. */
export function rowOf(f: ForecastRecord, s: SettlementRecord | undefined, flatBandPct: number): JournalRow {
  const settled = s?.status === 'settled' ? s : undefined;
  const r = settled && f.anchor_price ? returnPct(settled.settle_price, f.anchor_price) : null;
  const move = r === null ? null : moveOf(r, flatBandPct);
  return {
    symbol: f.symbol,
    tf: f.tf,
    ts: f.ts,
    horizon_min: f.horizon_min,
    target_t: f.target_t,
    anchor_price: f.anchor_price,
    target_price: f.target_price,
    direction: f.direction,
    p_long: f.p_long,
    p_short: f.p_short,
    p_flat: f.p_flat,
    status: s?.status ?? 'open',
    settle_price: settled?.settle_price ?? null,
    settle_t: settled?.settle_t ?? null,
    settle_source: settled?.settle_source ?? null,
    return_pct: r,
    outcome: move === null ? null : outcomeOf(f.direction, move),
    recorded_at: f.recorded_at,
    move,
    reason: s?.status === 'unsettleable' ? s.reason : null,
    tier: f.tier,
    delay_min: f.delay_min,
    origin: f.origin,
    server_t: f.server_t,
    settled_at: s?.settled_at ?? null,
    settle_flat_band_pct: settled?.flat_band_pct ?? null,
    ts_iso: iso(f.ts),
    target_t_iso: iso(f.target_t),
    settle_t_iso: iso(settled?.settle_t ?? null),
    recorded_at_iso: iso(f.recorded_at),
    server_t_iso: iso(f.server_t),
    settled_at_iso: iso(s?.settled_at ?? null),
    'ia1.score': f.ia1?.score ?? null,
    'ia1.rsi_score': f.ia1?.rsi_score ?? null,
    'ia1.ema_score': f.ia1?.ema_score ?? null,
    'ia2.p_long': f.ia2?.p_long ?? null,
    'ia2.p_short': f.ia2?.p_short ?? null,
    'ia2.p_flat': f.ia2?.p_flat ?? null,
    'ia2.predicted_change_pct': f.ia2?.predicted_change_pct ?? null,
    'ia2.confidence': f.ia2?.confidence ?? null,
    'ia2.label_raw': f.ia2?.label_raw ?? null,
    'ia3.label': f.ia3?.label ?? null,
    'ia3.policy_version': f.ia3?.policy_version ?? null,
  };
}

/**
 * What a reading of `filter` takes: the forecasts (and their settlements) it lets through, and
 * the price observations of its origins and symbols in its time range, of any timeframe (a
 * price settles them all). One rule for forEachRow and for selectedOrigins.
 */
function selection(filter: JournalFilter) {
  const pricesOf: JournalFilter = { ...filter, tfs: undefined };
  return {
    forecast: (origin: string | null, symbol: string, tf: string, ts: number): boolean =>
      passes(filter, origin, symbol, tf, ts),
    price: (origin: string | null, symbol: string, t: number): boolean => passes(pricesOf, origin, symbol, '', t),
  };
}

/**
 * The origins (null: unknown) of the forecasts forEachRow would hand out for `filter`, and of
 * its price observations when asked, read by the report's fast path: what an export checks
 * before its first row (it writes rows as it reads them), as list checks the rows it read.
 */
export function selectedOrigins(
  dir: string | undefined,
  filter: JournalFilter,
  { prices = false } = {},
): { forecasts: Set<string | null>; prices: Set<string | null> } {
  const takes = selection(filter);
  const found = { forecasts: new Set<string | null>(), prices: new Set<string | null>() };
  for (const file of dir === undefined ? [] : monthFiles(dir)) {
    if (!fileInRange(filter, file)) continue;
    scanForReport(
      join(dir!, file),
      {
        forecast: (origin, symbol, tf, ts) => {
          if (takes.forecast(origin, symbol, tf, ts)) found.forecasts.add(origin);
        },
        settlement: () => {},
        ...(prices && {
          price: (origin: string | null, symbol: string, t: number) => {
            if (takes.price(origin, symbol, t)) found.prices.add(origin);
          },
        }),
      },
      noProblems(),
    );
  }
  return found;
}

/**
 * Every forecast the filter lets through, with its settlement, file by file (a key lives in
 * one month file), in the order recorded. The first settled record of a key wins over any
 * other; an unsettleable mark counts only while none settled it.
 */
export function forEachRow(
  dir: string | undefined,
  filter: JournalFilter & { status?: readonly RowStatus[] },
  flatBandPct: number,
  onRow: (row: JournalRow) => void,
  /**
   * The price observations of the filter's origins and symbols taken in its time range (any
   * timeframe: a price settles them all), each month's after its rows, in the file's order.
   */
  onPrice?: (price: PriceRecord) => void,
): ReadProblems & { leftOut: number; origins: Set<string | null> } {
  const problems = { ...noProblems(), leftOut: 0, origins: new Set<string | null>() };
  const anyOrigin: JournalFilter = { ...filter, origins: undefined };
  const takes = selection(filter);
  for (const file of dir === undefined ? [] : monthFiles(dir)) {
    if (!fileInRange(filter, file)) continue;
    const forecasts = new Map<string, ForecastRecord>();
    const settlements = new Map<string, SettlementRecord>();
    const prices: PriceRecord[] = [];
    readRecords(
      join(dir!, file),
      0,
      (r) => {
        if (r.kind === 'price') {
          if (onPrice && takes.price(r.origin, r.symbol, r.t)) prices.push(r);
          return;
        }
        if (!takes.forecast(r.origin, r.symbol, r.tf, r.ts)) {
          if (r.kind === 'forecast' && passes(anyOrigin, r.origin, r.symbol, r.tf, r.ts)) problems.leftOut++;
          return;
        }
        const key = forecastKey(r);
        if (r.kind === 'forecast') {
          problems.origins.add(r.origin);
          if (!forecasts.has(key)) forecasts.set(key, r);
        } else if (settlements.get(key)?.status !== 'settled') settlements.set(key, r);
      },
      problems,
    );
    for (const [key, f] of forecasts) {
      const row = rowOf(f, settlements.get(key), flatBandPct);
      if (filter.status === undefined || filter.status.includes(row.status as RowStatus)) onRow(row);
    }
    for (const price of prices) onPrice!(price);
  }
  return problems;
}

// --- import ------------------------------------------------------------------------------------

/** A row of an export, or a journal line, read back as the records it stands for; or why not. */
export type ImportedRow = { records: JournalRecord[] } | { error: string };

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

function cellNumber(v: unknown): number | null | undefined {
  if (v === null || v === undefined || v === '') return null;
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && NUMBER.test(v.trim())) return Number(v.trim());
  return undefined;
}

/**
 * A text cell: null when absent. The empty text is a value: JSON's "", CSV's "" and TSV's \&
 * (core/exact-text.ts); an empty CSV or TSV cell reaches here as null.
 */
function cellText(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  return String(v);
}

/**
 * The records one export row stands for: its forecast, and its settlement when settled or
 * unsettleable. Return and outcome are not taken from the row: they follow from the close and
 * the anchor by the rule, as everywhere.
 */
export function recordsOfRow(row: unknown, importedAt: number, defaultOrigin: string | null = null): ImportedRow {
  // A JSON Lines line may hold any JSON value: only an object can be a row.
  if (!isRecord(row)) return { error: 'not an object' };
  const missing = EXPORT_COLUMNS.filter((c) => !(c in row));
  if (missing.length === EXPORT_COLUMNS.length) return { error: "none of the export's columns" };
  if (missing.length > 0) return { error: `missing ${missing.join(', ')}` };
  const int = (c: string): number | undefined => {
    const n = cellNumber(row[c]);
    return n !== null && n !== undefined && Number.isInteger(n) ? n : undefined;
  };
  // A time a date can hold, as the journal's lines must (lines.ts): an import never writes a line readers would skip.
  const epoch = (c: string): number | undefined => {
    const n = int(c);
    return isEpochSeconds(n) ? n : undefined;
  };
  const num = (c: string): number | null | undefined => cellNumber(row[c]);
  const symbol = cellText(row.symbol);
  const tf = cellText(row.tf);
  const direction = cellText(row.direction);
  const ts = epoch('ts');
  const horizon = int('horizon_min');
  const target = epoch('target_t');
  const recordedAt = epoch('recorded_at');
  const [anchor, targetPrice, pl, ps, pf] = ['anchor_price', 'target_price', 'p_long', 'p_short', 'p_flat'].map(num);
  const bad = [
    symbol === null && 'symbol',
    tf === null && 'tf',
    direction === null && 'direction',
    ts === undefined && 'ts',
    horizon === undefined && 'horizon_min',
    target === undefined && 'target_t',
    recordedAt === undefined && 'recorded_at',
    anchor === undefined && 'anchor_price',
    targetPrice === undefined && 'target_price',
    (pl === null || pl === undefined) && 'p_long',
    (ps === null || ps === undefined) && 'p_short',
    (pf === null || pf === undefined) && 'p_flat',
  ].filter(Boolean);
  if (bad.length > 0) return { error: `bad ${bad.join(', ')}` };
  const delay = cellNumber(row.delay_min);
  // Optional (an export from before they were written has none): the server's clock, when
  // the settlement was made and its band; without them, none, the import's time, the default.
  // Checked as a journal line's are (lines.ts, record.ts): a time that is there must be one,
  // and a band outside [0, 100] is the default.
  const optionalEpoch = (c: string): number | null | undefined => (cellNumber(row[c]) === null ? null : epoch(c));
  const serverT = optionalEpoch('server_t');
  const settledAt = optionalEpoch('settled_at');
  if (serverT === undefined || settledAt === undefined)
    return { error: `bad ${serverT === undefined ? 'server_t' : 'settled_at'} (epoch seconds, or empty)` };
  const band = cellNumber(row.settle_flat_band_pct);
  const flatBandPct = settlingBand(band ?? undefined);
  const origin = rowOrigin(row.origin, defaultOrigin);
  if (origin === undefined) return { error: 'bad origin (a URL origin like https://api.example.com, or unknown)' };
  const engines = enginesOfRow(row);
  if ('error' in engines) return engines;
  const forecast: ForecastRecord = {
    v: JOURNAL_VERSION,
    kind: 'forecast',
    origin,
    symbol: symbol!,
    tf: tf!,
    ts: ts!,
    horizon_min: horizon!,
    target_t: target!,
    anchor_price: anchor ?? null,
    target_price: targetPrice ?? null,
    direction: direction!,
    p_long: pl!,
    p_short: ps!,
    p_flat: pf!,
    tier: cellText(row.tier),
    delay_min: delay !== null && delay !== undefined && Number.isInteger(delay) ? delay : null,
    server_t: serverT,
    recorded_at: recordedAt!,
    ia1: engines.ia1,
    ia2: engines.ia2,
    ia3: engines.ia3,
  };
  const status = cellText(row.status);
  if (status === 'open') return { records: [forecast] };
  if (status === 'unsettleable')
    return {
      records: [
        forecast,
        unsettleableRecord(forecast, cellText(row.reason) ?? 'imported as unsettleable', settledAt ?? importedAt),
      ],
    };
  if (status !== 'settled') return { error: `bad status (open, settled or unsettleable)` };
  const close = num('settle_price');
  const closeT = epoch('settle_t');
  const source = cellText(row.settle_source);
  if (close === null || close === undefined || closeT === undefined || (source !== 'candles' && source !== 'price'))
    return { error: 'a settled row needs settle_price, settle_t and settle_source (candles or price)' };
  if (!(forecast.anchor_price !== null && forecast.anchor_price > 0))
    return { error: 'a settled row needs an anchor_price above 0' };
  if (closeT < forecast.target_t)
    return { error: 'settle_t is before target_t: a price from before the target is never used' };
  const settled = settledRecord(forecast, { price: close, t: closeT, source }, flatBandPct, settledAt ?? importedAt);
  return { records: [forecast, settled] };
}

/** The engine columns that hold numbers; the rest (ia2.label_raw, ia3.label) hold text. */
const TEXT_ENGINE_COLUMNS: ReadonlySet<string> = new Set(['ia2.label_raw', 'ia3.label']);

/**
 * A row's engines, by their columns' names (ENGINE_COLUMNS), each as the record keeps it
 * (record.ts: null when none of its cells holds a value). A number column holds a number or
 * nothing, as the contract's number columns do; any number is taken, as ia3's probabilities
 * are: the journal keeps what the server sent, and an export of it must read back.
 */
function enginesOfRow(row: Record<string, unknown>): Pick<ForecastRecord, 'ia1' | 'ia2' | 'ia3'> | { error: string } {
  const cells: Record<string, Record<string, number | string | null>> = { ia1: {}, ia2: {}, ia3: {} };
  const bad: string[] = [];
  for (const column of ENGINE_COLUMNS) {
    const dot = column.indexOf('.');
    const engine = cells[column.slice(0, dot)]!;
    const field = column.slice(dot + 1);
    if (TEXT_ENGINE_COLUMNS.has(column)) engine[field] = cellText(row[column]);
    else {
      const n = cellNumber(row[column]);
      if (n === undefined) bad.push(column);
      engine[field] = n ?? null;
    }
  }
  if (bad.length > 0) return { error: `bad ${bad.join(', ')} (a number, or empty)` };
  return { ia1: ia1Of(cells.ia1), ia2: ia2Of(cells.ia2), ia3: ia3Of(cells.ia3) };
}

/**
 * A row's origin: its own (normalised), else the default the import was given (--origin;
 * unknown without it); `unknown` is the unknown one. Undefined when it is no origin.
 */
function rowOrigin(cell: unknown, defaultOrigin: string | null): string | null | undefined {
  const text = cellText(cell);
  if (text === null || text === '') return defaultOrigin;
  if (text === 'unknown') return null;
  return originOf(text);
}

/**
 * The cells of one CSV record (RFC 4180: quoted cells, "" for a quote), each back to the text
 * the export wrote (core/exact-text.ts: the formula guard's ' taken off, \uXXXX escapes read);
 * an unquoted empty cell is null (no value), a quoted one the empty text.
 */
export function csvCells(line: string): Array<string | null> {
  const cells: Array<string | null> = [];
  let i = 0;
  for (;;) {
    let cell = '';
    let quoted = false;
    if (line[i] === '"') {
      quoted = true;
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        if (q < 0) {
          cell += line.slice(i);
          i = line.length;
          break;
        }
        cell += line.slice(i, q);
        if (line[q + 1] === '"') {
          cell += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
    }
    const comma = line.indexOf(',', i);
    const rest = comma < 0 ? line.slice(i) : line.slice(i, comma);
    cell = quoted ? cell + rest : rest;
    cells.push(readCsvCell(cell, quoted));
    if (comma < 0) break;
    i = comma + 1;
  }
  return cells;
}

/** Whether a CSV line so far leaves a quoted cell open (an odd number of quotes): it goes on on the next line. */
export const opensQuote = (text: string): boolean => (text.split('"').length - 1) % 2 === 1;
