// The record of each command's --format csv|tsv, read from the body's raw text (numbers as
// sent): a forecast (symbol × timeframe), a symbol × timeframe of `symbols`, a track-record
// timeframe, a market close of `verify`, an item of a gateway list. The known columns are the
// schemas' fields (src/schema/bodies.ts), in the schemas' order; test/unit/records.test.ts holds
// the lists to the schemas. docs/formats.md lists every table's columns.
import { type DelimitedFormat, renderDelimited } from './delimited.js';
import { GATEWAY_LISTS } from './gateway-lists.js';
import { type JsonValue, NumberText, parseNumbersAsSent } from './json-text.js';
import { attributionOf, entriesOf, Fields, fieldOf, type Layout, type RecordTable, tableOf } from './records.js';

/** An EngineForecast's fields (the record of predict and demo). */
export const FORECAST_FIELDS = [
  'tf',
  'ts',
  'horizon_min',
  'target_t',
  'age_s',
  'status',
  'anchor_price',
  'target_price',
  'ia1.score',
  'ia1.rsi_score',
  'ia1.ema_score',
  'ia2.predicted_change_pct',
  'ia2.confidence',
  'ia2.label_raw',
  'ia2.p_long',
  'ia2.p_short',
  'ia2.p_flat',
  'ia3.label',
  'ia3.direction',
  'ia3.p_long',
  'ia3.p_short',
  'ia3.p_flat',
  'ia3.policy_version',
] as const;

/** The price object around the forecasts, named from the body's root. */
export const PRICE_FIELDS = ['price.last', 'price.t', 'price.change24h_pct', 'price.source'] as const;

const FORECAST_LAYOUT: Layout = {
  known: ['symbol', ...FORECAST_FIELDS, ...PRICE_FIELDS],
  epochs: ['ts', 'target_t', 'price.t'],
};

/** An item of a track record's `results`; `outcomes` by the seed's names (win, loss, neutral). */
export const RESULT_FIELDS = [
  'timeframe',
  'n_settled',
  'outcomes.win',
  'outcomes.loss',
  'outcomes.neutral',
  'resolved_win_rate',
  'resolved_win_rate_ci95.0',
  'resolved_win_rate_ci95.1',
  'positive_outcome_rate',
  'average_return_pct',
  'maturity',
] as const;

const TRACK_RECORD_LAYOUT: Layout = {
  // `symbol` is the body's filter (empty without --symbol); the protocol and time say which cohort and when.
  known: ['symbol', ...RESULT_FIELDS, 'protocol.id', 'generated_at'],
  epochs: [],
};

/** `symbols`: a symbol's timeframe and the time of its newest forecast, named as predict names them. */
const SYMBOLS_LAYOUT: Layout = { known: ['symbol', 'tf', 'ts'], epochs: ['ts'] };

/** The seed fixes no field of verify or of the gateway's data: their columns are what is sent. */
const OPEN_LAYOUT: Layout = { known: [], epochs: [] };

const itemsOf = (v: JsonValue | undefined): JsonValue[] => (Array.isArray(v) ? v : []);

/** The rows of one body, each with its attribution. */
const tableOfBody = (rows: readonly Fields[], body: JsonValue, layout: Layout): RecordTable =>
  tableOf(
    rows,
    rows.map(() => attributionOf(body)),
    layout,
  );

/**
 * One row per forecast of each body, in the order given and the order sent; with `tfs`, only
 * those timeframes (as --tf filters the table). A body with no forecast still gives its
 * symbol a row, so no symbol asked for disappears from the table.
 */
export function forecastTable(raws: readonly string[], tfs?: readonly string[]): RecordTable {
  const rows: Fields[] = [];
  const sources: unknown[] = [];
  for (const raw of raws) {
    const body = parseNumbersAsSent(raw);
    const context = (row: Fields) => {
      row.add('symbol', fieldOf(body, 'symbol'));
      row.add('price', fieldOf(body, 'price') ?? null);
    };
    let shown = 0;
    for (const [key, forecast] of entriesOf(fieldOf(body, 'predictions'))) {
      const tf = fieldOf(forecast, 'tf');
      if (tfs && !tfs.includes((typeof tf === 'string' ? tf : key).toLowerCase())) continue;
      const row = new Fields();
      context(row);
      row.addRecord(forecast);
      rows.push(row);
      sources.push(attributionOf(body));
      shown++;
    }
    if (shown === 0 && !tfs) {
      const row = new Fields();
      context(row);
      rows.push(row);
      sources.push(attributionOf(body));
    }
  }
  return tableOf(rows, sources, FORECAST_LAYOUT);
}

/** One row per symbol × timeframe; a symbol with no timeframe gets one row with them empty. */
export function symbolsTable(raw: string): RecordTable {
  const body = parseNumbersAsSent(raw);
  const rows: Fields[] = [];
  for (const symbol of itemsOf(fieldOf(body, 'symbols'))) {
    const rest = entriesOf(symbol).filter(([k]) => k !== 'symbol' && k !== 'timeframes');
    const timeframes = entriesOf(fieldOf(symbol, 'timeframes'));
    for (const [tf, ts] of timeframes.length ? timeframes : [[null, null] as const]) {
      const row = new Fields();
      row.add('symbol', fieldOf(symbol, 'symbol'));
      row.add('tf', tf);
      row.add('ts', ts);
      for (const [k, v] of rest) row.add(k, v);
      rows.push(row);
    }
  }
  return tableOfBody(rows, body, SYMBOLS_LAYOUT);
}

/** One row per item of `results`: a timeframe of the track record. */
export function trackRecordTable(raw: string): RecordTable {
  const body = parseNumbersAsSent(raw);
  const rows = itemsOf(fieldOf(body, 'results')).map((result) => {
    const row = new Fields();
    row.add('symbol', fieldOf(body, 'symbol') ?? null);
    row.addRecord(result);
    row.add('protocol.id', fieldOf(fieldOf(body, 'protocol'), 'id') ?? null);
    row.add('generated_at', fieldOf(body, 'generated_at') ?? null);
    return row;
  });
  return tableOfBody(rows, body, TRACK_RECORD_LAYOUT);
}

/**
 * One row per market close (`market.closes`), each with the rest of the body named from its
 * root (`id`, `forecast.*`, `settlement.*`) before it; no close, one row of the rest.
 */
export function verifyTable(raw: string): RecordTable {
  const body = parseNumbersAsSent(raw);
  const closes = itemsOf(fieldOf(fieldOf(body, 'market'), 'closes'));
  const context = (row: Fields) => {
    for (const [key, value] of entriesOf(body)) {
      if (key === 'ok' || key === 'meta') continue;
      if (key !== 'market') row.add(key, value);
      else for (const [k, v] of entriesOf(value)) if (k !== 'closes') row.add(`market.${k}`, v);
    }
  };
  const rows = (closes.length ? closes : [undefined]).map((close) => {
    const row = new Fields();
    context(row);
    if (close !== undefined) row.addRecord(close);
    return row;
  });
  return tableOfBody(rows, body, OPEN_LAYOUT);
}

/**
 * One row per item of the command's list (`data.symbols` of snapshot...), after the plain
 * fields of `data` named from the envelope's root (`data.as_of`); where a command has several
 * lists (macro), a `list` column names the one a row comes from. The attribution is
 * `data.meta.source` when the answer carries one.
 */
export function gatewayTable(command: string, raw: string): RecordTable {
  const envelope = parseNumbersAsSent(raw);
  const data = fieldOf(envelope, 'data');
  const lists = GATEWAY_LISTS[command] ?? [];
  const plain = entriesOf(data).filter(([, v]) => v === null || typeof v !== 'object' || v instanceof NumberText);
  const rows: Fields[] = [];
  for (const list of lists) {
    for (const item of itemsOf(fieldOf(data, list))) {
      const row = new Fields();
      for (const [k, v] of plain) row.add(`data.${k}`, v);
      if (lists.length > 1) row.add('list', list);
      row.addRecord(item);
      rows.push(row);
    }
  }
  return tableOf(
    rows,
    rows.map(() => fieldOf(fieldOf(data, 'meta'), 'source')),
    OPEN_LAYOUT,
  );
}

/** A table of records as CSV or TSV. */
export const renderRecords = (format: DelimitedFormat, table: RecordTable): string =>
  renderDelimited(format, table.header, table.rows);
