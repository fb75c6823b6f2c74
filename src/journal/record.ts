// What the journal holds, one JSON object per line, each with the schema version `v`:
//   forecast    a forecast as it was shown (key: symbol, tf, ts): ia3's call and probabilities,
//               then (version 3) every engine's other fields: ia1's scores, ia2's probabilities,
//               move, confidence and label, ia3's label and policy version
//   price       a price observation (`last` at `t`) from a response
//   settlement  the settlement of one forecast, appended later: settled (the close and where it
//               came from) or unsettleable (why); it repeats the forecast's call, probabilities and
//               anchor, and (version 3) ia2's probabilities, so that a report or a comparison of
//               the engines scores it without joining the two lines
//   alert       (version 3) an alert of a watch that fired (--watch --alert with --record), written
//               after the forecast it fired on (tf and ts; a price alert: tf null, ts the price's t) in that
//               forecast's month file; no reader of forecasts sees it (lines.ts hands it over
//               apart), `journal list --alerts` lists them
// Versions 1 and 2 knew ia3 alone: their records read as ia3-only (no ia1, ia2 or ia3 fields).
// An engine's field is kept as the server sent it, null when it sent no number (or text) there;
// an engine none of whose fields was sent is null. Nothing is ever filled in.
// Every record names its origin: the service it came from, as its base URL's origin (scheme,
// host and port, lower-cased, a default port dropped: `https://api.example.com`), null when
// unknown (the lines of version 1, written before origins were recorded). A forecast's key is
// (origin, symbol, tf, ts): the same forecast time from two services is two forecasts, and a
// forecast is settled only with its own origin's prices and candles. The emulator's records
// carry its loopback origin (`http://127.0.0.1:8787`), which marks them.
// Fields are written in a fixed order (the serialisers below): fast-lines.ts reads lines of that
// exact shape without JSON.parse, and parses any other line in full.
import type { EngineForecast, ForecastEnvelope } from '../schema/bodies.js';

export const JOURNAL_VERSION = 3;

/**
 * The versions this fcast reads: 1 has no origin (read as unknown, null); 1 and 2 keep ia3
 * alone (read as ia3-only).
 */
export const JOURNAL_VERSIONS: readonly number[] = [1, 2, 3];

/** The first version whose records keep every engine. */
export const ENGINES_VERSION = 3;

/**
 * A base URL's origin as records name it: scheme, host and port, lower-cased, the default port
 * dropped (WHATWG URL's origin); no path, query or credentials. Undefined for what is no URL.
 */
export function originOf(baseUrl: string): string | undefined {
  try {
    const origin = new URL(baseUrl).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/** How an origin reads in a table or a message: `unknown` for the records from before origins. */
export const originLabel = (origin: string | null): string => origin ?? 'unknown';

/** The service's neutral band: |return| below this many percent is neither a win nor a loss. */
export const DEFAULT_FLAT_BAND_PCT = 0.01;

/** A recorded price observation settles a forecast only if taken at most this long after target_t. */
export const PRICE_GRACE_S = 900;

/** ia1's scores as sent (null: not a number in the response). */
export interface Ia1Fields {
  score: number | null;
  rsi_score: number | null;
  ema_score: number | null;
}

/** ia2's forecast as sent (null: not a number, or for label_raw not a text, in the response). */
export interface Ia2Fields {
  p_long: number | null;
  p_short: number | null;
  p_flat: number | null;
  predicted_change_pct: number | null;
  confidence: number | null;
  label_raw: string | null;
}

/** What a forecast keeps of ia3 beyond its call and probabilities (the record's top-level fields). */
export interface Ia3Fields {
  label: string | null;
  policy_version: number | null;
}

/** Three probabilities of the classes long (up), short (down) and flat. */
export interface Probabilities {
  p_long: number;
  p_short: number;
  p_flat: number;
}

export interface ForecastRecord {
  v: number;
  kind: 'forecast';
  /** The service it came from (originOf its base URL); null: unknown (a version 1 line). */
  origin: string | null;
  symbol: string;
  tf: string;
  ts: number;
  horizon_min: number;
  target_t: number;
  anchor_price: number | null;
  target_price: number | null;
  /** ia3.direction as sent: `long` or `short` in every response seen. */
  direction: string;
  p_long: number;
  p_short: number;
  p_flat: number;
  tier: string | null;
  delay_min: number | null;
  /** meta.server_t of the response that showed it, when the server gave one. */
  server_t: number | null;
  /** The local clock when fcast wrote it, epoch seconds. */
  recorded_at: number;
  // The engines (version 3), after every field of version 2: absent from a version 1 or 2
  // record (ia3-only), null where the forecast came without them (an imported row without
  // their columns). Read them through the accessors below.
  ia1?: Ia1Fields | null;
  ia2?: Ia2Fields | null;
  ia3?: Ia3Fields | null;
}

export interface PriceRecord {
  v: number;
  kind: 'price';
  origin: string | null;
  symbol: string;
  t: number;
  last: number;
  tier: string | null;
  delay_min: number | null;
  recorded_at: number;
}

export type SettleSource = 'candles' | 'price';
export type Outcome = 'win' | 'loss' | 'neutral';
export type Move = 'up' | 'down' | 'flat';

/** What a settlement repeats of its forecast: enough to score it alone. */
interface SettlementBase {
  v: number;
  kind: 'settlement';
  /** The forecast's origin (a settlement uses that origin's prices only). */
  origin: string | null;
  symbol: string;
  tf: string;
  ts: number;
  direction: string;
  p_long: number;
  p_short: number;
  p_flat: number;
  anchor_price: number | null;
}

export interface SettledRecord extends SettlementBase {
  status: 'settled';
  settle_price: number;
  settle_t: number;
  settle_source: SettleSource;
  return_pct: number;
  /** As the flat band of the settling run judged it; reports judge again with their own band. */
  outcome: Outcome;
  move: Move;
  flat_band_pct: number;
  settled_at: number;
  /**
   * ia2's probabilities as the forecast holds them (version 3), last on the line: null when the
   * forecast lacks any of the three, absent from a version 1 or 2 line. Read by ia2Probabilities.
   */
  ia2?: Probabilities | null;
}

export interface UnsettleableRecord extends SettlementBase {
  status: 'unsettleable';
  reason: string;
  settled_at: number;
  /** As a settled record's. */
  ia2?: Probabilities | null;
}

export type SettlementRecord = SettledRecord | UnsettleableRecord;

/** An alert that fired on a watch with --record: not a forecast's record; read apart (lines.ts). */
export interface AlertRecord {
  v: number;
  kind: 'alert';
  origin: string | null;
  symbol: string;
  /** The forecast it fired on: its timeframe and ts; for the price, no timeframe and the observation's t. */
  tf: string | null;
  ts: number | null;
  /** When it fired (the watch's clock), epoch seconds. */
  t: number;
  rule: string;
  field: string;
  op: string;
  /** The number compared; a direction for a change. */
  value: number | string;
  threshold: number | null;
  already: boolean;
  text: string;
  recorded_at: number;
}
export type JournalRecord = ForecastRecord | PriceRecord | SettlementRecord;

// Keys are the parts joined with tabs, and a part is any text (a symbol or timeframe edited by
// hand or imported may hold a tab): so a tab or backslash in a part is escaped (\t, \\), and a
// tab in a key only ever separates two parts. Joined raw, symbol "a<TAB>b" with timeframe "c"
// and symbol "a" with "b<TAB>c" were one key: list showed one of the two forecasts, and an
// import of both into an empty journal kept one. A part without either character (every symbol
// and timeframe the API sends) is itself; an unknown origin (null) is `\-`, which no escaped
// text is (an origin "" read from a hand-edited line is another one). The report keys its
// series by maps within maps (report.ts), never by a joined text, and needs none of this.

/** A text as a part of a key: itself unless it holds a tab or a backslash (two indexOf: cheaper than a regex test). */
const keyPart = (text: string): string =>
  text.indexOf('\t') === -1 && text.indexOf('\\') === -1 ? text : text.replace(/\\/g, '\\\\').replace(/\t/g, '\\t');
const originPart = (origin: string | null): string => (origin === null ? '\\-' : keyPart(origin));

/** The key of a forecast's series (origin, symbol, tf); no two series share one. */
export const seriesKey = (r: { origin: string | null; symbol: string; tf: string }): string =>
  `${originPart(r.origin)}\t${keyPart(r.symbol)}\t${keyPart(r.tf)}`;

/** The key of a price series (origin, symbol); the first two parts of its forecasts' series keys. */
export const priceSeriesKey = (r: { origin: string | null; symbol: string }): string =>
  `${originPart(r.origin)}\t${keyPart(r.symbol)}`;

/** The key of a forecast: one line per key, whoever shows it how often. */
export const forecastKey = (r: { origin: string | null; symbol: string; tf: string; ts: number }): string =>
  `${seriesKey(r)}\t${r.ts}`;

/** The key of a price observation: (origin, symbol, t). */
export const priceKey = (r: { origin: string | null; symbol: string; t: number }): string =>
  `${priceSeriesKey(r)}\t${r.t}`;

// --- from a response ---------------------------------------------------------------------------

export interface Shown {
  symbol: string;
  body: ForecastEnvelope;
}

/** The forecasts of a response, as records; `recordedAt` is the local clock in epoch seconds. */
export function forecastRecords({ symbol, body }: Shown, origin: string, recordedAt: number): ForecastRecord[] {
  const tier = typeof body.meta.tier === 'string' ? body.meta.tier : null;
  const delay = Number.isInteger(body.meta.data_delay_min) ? body.meta.data_delay_min : null;
  const serverT = body.meta.server_t ?? null;
  return Object.values(body.predictions).map((f) =>
    forecastRecord(origin, body.symbol || symbol, f, tier, delay, serverT, recordedAt),
  );
}

function forecastRecord(
  origin: string,
  symbol: string,
  f: EngineForecast,
  tier: string | null,
  delay: number | null,
  serverT: number | null,
  recordedAt: number,
): ForecastRecord {
  return {
    v: JOURNAL_VERSION,
    kind: 'forecast',
    origin,
    symbol,
    tf: f.tf,
    ts: f.ts,
    horizon_min: f.horizon_min,
    target_t: f.target_t,
    anchor_price: f.anchor_price ?? null,
    target_price: f.target_price ?? null,
    direction: f.ia3.direction,
    p_long: f.ia3.p_long,
    p_short: f.ia3.p_short,
    p_flat: f.ia3.p_flat,
    tier,
    delay_min: delay,
    server_t: serverT,
    recorded_at: recordedAt,
    ia1: ia1Of(f.ia1),
    ia2: ia2Of(f.ia2),
    ia3: ia3Of(f.ia3),
  };
}

// --- the engines -------------------------------------------------------------------------------

// From a response and from an import's row alike: a field that is no finite number (no text
// for a label) is null, never a number made up, and an engine none of whose fields is there is
// null (so that an export's empty cells read back as the same record).

const numberOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const textOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const fieldsOf = (e: unknown): Record<string, unknown> | undefined =>
  e !== null && typeof e === 'object' && !Array.isArray(e) ? (e as Record<string, unknown>) : undefined;

/** ia1's fields of a response's (or a row's) engine object; null when none is there. */
export function ia1Of(engine: unknown): Ia1Fields | null {
  const e = fieldsOf(engine);
  if (!e) return null;
  const r: Ia1Fields = {
    score: numberOrNull(e.score),
    rsi_score: numberOrNull(e.rsi_score),
    ema_score: numberOrNull(e.ema_score),
  };
  return r.score === null && r.rsi_score === null && r.ema_score === null ? null : r;
}

/** ia2's fields; null when none is there. */
export function ia2Of(engine: unknown): Ia2Fields | null {
  const e = fieldsOf(engine);
  if (!e) return null;
  const r: Ia2Fields = {
    p_long: numberOrNull(e.p_long),
    p_short: numberOrNull(e.p_short),
    p_flat: numberOrNull(e.p_flat),
    predicted_change_pct: numberOrNull(e.predicted_change_pct),
    confidence: numberOrNull(e.confidence),
    label_raw: textOrNull(e.label_raw),
  };
  return r.p_long === null &&
    r.p_short === null &&
    r.p_flat === null &&
    r.predicted_change_pct === null &&
    r.confidence === null &&
    r.label_raw === null
    ? null
    : r;
}

/** ia3's label and policy version; null when neither is there. */
export function ia3Of(engine: unknown): Ia3Fields | null {
  const e = fieldsOf(engine);
  if (!e) return null;
  const r: Ia3Fields = { label: textOrNull(e.label), policy_version: numberOrNull(e.policy_version) };
  return r.label === null && r.policy_version === null ? null : r;
}

/**
 * ia2's three probabilities of a forecast or settlement, or undefined when it lacks any of
 * them: a record of version 1 or 2 (ia3-only), or one whose ia2 came without them. What a
 * view that scores ia2 takes, and counts the records it cannot.
 */
export function ia2Probabilities(r: Pick<Settleable, 'ia2'>): Probabilities | undefined {
  const e = r.ia2;
  if (!e || typeof e.p_long !== 'number' || typeof e.p_short !== 'number' || typeof e.p_flat !== 'number')
    return undefined;
  return { p_long: e.p_long, p_short: e.p_short, p_flat: e.p_flat };
}

/** The response's price observation as a record; undefined when it carries none. */
export function priceRecord({ symbol, body }: Shown, origin: string, recordedAt: number): PriceRecord | undefined {
  const price = body.price;
  if (!price) return undefined;
  return {
    v: JOURNAL_VERSION,
    kind: 'price',
    origin,
    symbol: body.symbol || symbol,
    t: price.t,
    last: price.last,
    tier: typeof body.meta.tier === 'string' ? body.meta.tier : null,
    delay_min: Number.isInteger(body.meta.data_delay_min) ? body.meta.data_delay_min : null,
    recorded_at: recordedAt,
  };
}

// --- the outcome rule (the service's protocol: close at target_t vs anchor_price) ---------------

/** (close / anchor − 1) × 100; the one formula, so every reader computes the same double. */
export const returnPct = (close: number, anchor: number): number => (close / anchor - 1) * 100;

/**
 * up, down or flat against the band (|return| below it is flat). The return is compared
 * rounded to 10 decimals: 100.01 against 100 computes as 0.00999999999999801 in binary, and
 * is the 0.01% it reads as; no real decision lies within 1e-10 of the band.
 */
export function moveOf(returnPctValue: number, flatBandPct: number): Move {
  const r = Math.round(returnPctValue * 1e10) / 1e10;
  if (Math.abs(r) < flatBandPct) return 'flat';
  return r > 0 ? 'up' : 'down';
}

/** neutral within the band, else a win when the move agrees with the call (long: up, short: down), else a loss. */
export function outcomeOf(direction: string, move: Move): Outcome {
  if (move === 'flat') return 'neutral';
  return (move === 'up' && direction === 'long') || (move === 'down' && direction === 'short') ? 'win' : 'loss';
}

/**
 * What settling a forecast needs of it: its key, target, anchor and call, and ia2's probabilities
 * (a forecast's ia2, a settlement's, or the index's), which the settlement repeats.
 */
export type Settleable = Pick<
  ForecastRecord,
  'origin' | 'symbol' | 'tf' | 'ts' | 'target_t' | 'anchor_price' | 'direction' | 'p_long' | 'p_short' | 'p_flat'
> & { ia2?: { p_long: number | null; p_short: number | null; p_flat: number | null } | null };

export function settledRecord(
  f: Settleable,
  close: { price: number; t: number; source: SettleSource },
  flatBandPct: number,
  settledAt: number,
): SettledRecord {
  const r = returnPct(close.price, f.anchor_price!);
  const move = moveOf(r, flatBandPct);
  // Spelled out, not spread from a base: a literal of known shape is several times faster to
  // build, and an import makes a million of them.
  return {
    v: JOURNAL_VERSION,
    kind: 'settlement',
    origin: f.origin,
    symbol: f.symbol,
    tf: f.tf,
    ts: f.ts,
    direction: f.direction,
    p_long: f.p_long,
    p_short: f.p_short,
    p_flat: f.p_flat,
    anchor_price: f.anchor_price,
    status: 'settled',
    settle_price: close.price,
    settle_t: close.t,
    settle_source: close.source,
    return_pct: r,
    outcome: outcomeOf(f.direction, move),
    move,
    flat_band_pct: flatBandPct,
    settled_at: settledAt,
    ia2: ia2Probabilities(f) ?? null,
  };
}

export function unsettleableRecord(f: Settleable, reason: string, settledAt: number): UnsettleableRecord {
  return {
    v: JOURNAL_VERSION,
    kind: 'settlement',
    origin: f.origin,
    symbol: f.symbol,
    tf: f.tf,
    ts: f.ts,
    direction: f.direction,
    p_long: f.p_long,
    p_short: f.p_short,
    p_flat: f.p_flat,
    anchor_price: f.anchor_price,
    status: 'unsettleable',
    reason,
    settled_at: settledAt,
    ia2: ia2Probabilities(f) ?? null,
  };
}

// --- rebuilt ---------------------------------------------------------------------------------

/**
 * A record read from elsewhere (an import of journal lines), as this fcast writes it: this
 * version, its fields in their order and no others, an unknown origin given `defaultOrigin`,
 * and a settlement's return, move and outcome recomputed from its close and anchor.
 */
export function rebuildRecord(r: JournalRecord, defaultOrigin: string | null): JournalRecord | { error: string } {
  const origin = r.origin ?? defaultOrigin;
  if (r.kind === 'forecast')
    return {
      v: JOURNAL_VERSION,
      kind: 'forecast',
      origin,
      symbol: r.symbol,
      tf: r.tf,
      ts: r.ts,
      horizon_min: r.horizon_min,
      target_t: r.target_t,
      anchor_price: r.anchor_price,
      target_price: r.target_price,
      direction: r.direction,
      p_long: r.p_long,
      p_short: r.p_short,
      p_flat: r.p_flat,
      tier: r.tier,
      delay_min: r.delay_min,
      server_t: r.server_t,
      recorded_at: r.recorded_at,
      ia1: ia1Of(r.ia1),
      ia2: ia2Of(r.ia2),
      ia3: ia3Of(r.ia3),
    };
  if (r.kind === 'price')
    return {
      v: JOURNAL_VERSION,
      kind: 'price',
      origin,
      symbol: r.symbol,
      t: r.t,
      last: r.last,
      tier: r.tier,
      delay_min: r.delay_min,
      recorded_at: r.recorded_at,
    };
  // target_t is the forecast's: a settlement does not repeat it (the import checks it against the forecast).
  const f: Settleable = { ...r, origin, target_t: 0 };
  if (r.status === 'unsettleable') return unsettleableRecord(f, r.reason, r.settled_at);
  if (!(r.anchor_price !== null && r.anchor_price > 0))
    return { error: 'a settled record needs an anchor_price above 0' };
  return settledRecord(
    f,
    { price: r.settle_price, t: r.settle_t, source: r.settle_source },
    settlingBand(r.flat_band_pct),
    r.settled_at,
  );
}

/**
 * The band a settlement read from elsewhere (a journal line, an export's row) was judged with:
 * its own when it is one (a number in [0, 100]), else the default.
 */
export const settlingBand = (v: unknown): number =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 100 ? v : DEFAULT_FLAT_BAND_PCT;

// --- lines -------------------------------------------------------------------------------------

/**
 * One record as one line, its fields in the order of its type above. JSON.stringify keeps an
 * object's insertion order, and every record is built by the functions of this file (or
 * checked and rebuilt by them, on import), so the order is always this one.
 */
export const recordLine = (r: JournalRecord): string => `${JSON.stringify(r)}\n`;

/** An alert's line (its fields in the order of AlertRecord). */
export const alertLine = (r: AlertRecord): string =>
  `${JSON.stringify({
    v: r.v,
    kind: 'alert',
    origin: r.origin,
    symbol: r.symbol,
    tf: r.tf,
    ts: r.ts,
    t: r.t,
    rule: r.rule,
    field: r.field,
    op: r.op,
    value: r.value,
    threshold: r.threshold,
    already: r.already,
    text: r.text,
    recorded_at: r.recorded_at,
  })}\n`;

/** The month file a record belongs in: its forecast's ts (a settlement's too), or a price's t; UTC. */
export function monthOf(r: JournalRecord): string {
  return monthOfEpoch(r.kind === 'price' ? r.t : r.ts);
}

/** The last month asked for, and its bounds: records come in runs of the same month. */
let lastMonth = { from: 0, to: 0, name: '' };

export function monthOfEpoch(epochS: number): string {
  if (epochS >= lastMonth.from && epochS < lastMonth.to) return lastMonth.name;
  const d = new Date(epochS * 1000);
  const from = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000;
  const to = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / 1000;
  lastMonth = { from, to, name: d.toISOString().slice(0, 7) };
  return lastMonth.name;
}
