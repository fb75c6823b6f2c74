// The records of --format csv|tsv: the JSON reader that keeps numbers as sent, the columns
// (the schemas' fields in the schemas' order, held to src/schema/bodies.ts here), the ISO twins,
// the source column, and what is kept of fields the schemas do not name.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ForecastEnvelopeSchema, TrackRecordSchema } from '../../src/schema/bodies.js';
import { NumberText, parseNumbersAsSent } from '../../src/output/formats/json-text.js';
import { Fields, tableOf } from '../../src/output/formats/records.js';
import {
  FORECAST_FIELDS,
  forecastTable,
  gatewayTable,
  PRICE_FIELDS,
  RESULT_FIELDS,
  symbolsTable,
  trackRecordTable,
  verifyTable,
} from '../../src/output/formats/tables.js';

/** The value JSON.parse would give: NumberText read as the number it stands for. */
function plainOf(v: unknown): unknown {
  if (v instanceof NumberText) return v.value;
  if (Array.isArray(v)) return v.map(plainOf);
  if (v !== null && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plainOf(x)]));
  return v;
}

describe('parseNumbersAsSent', () => {
  it('keeps the text of every number; the rest as JSON.parse gives it', () => {
    const v = parseNumbersAsSent(
      ' {"a": 1.50, "b": [1E+2, -0, 12345678901234567890], "c": "x\\"y\\u00e9", "d": [true, false, null, {}]}',
    );
    expect(v).toEqual({
      a: new NumberText('1.50'),
      b: [new NumberText('1E+2'), new NumberText('-0'), new NumberText('12345678901234567890')],
      c: 'x"yé',
      d: [true, false, null, {}],
    });
  });

  it('a key __proto__ is a key; a repeated key keeps its first place and its last value, as JSON.parse does', () => {
    const v = parseNumbersAsSent('{"__proto__": {"polluted": 1}, "a": 1, "b": 2, "a": 3}') as Record<string, unknown>;
    expect(Object.keys(v)).toEqual(['__proto__', 'a', 'b']);
    expect(plainOf(v.a)).toBe(3);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reads any JSON as JSON.parse does, give or take the numbers text', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        expect(plainOf(parseNumbersAsSent(text))).toEqual(JSON.parse(text));
        expect(plainOf(parseNumbersAsSent(JSON.stringify(value, null, 2)))).toEqual(JSON.parse(text));
      }),
    );
  });
});

// --- the known columns, held to the schemas --------------------------------------------------

/** A schema without its wrappers (lazy, optional, nullable). */
function unwrap(schema: z.ZodTypeAny): z.ZodTypeAny {
  if (schema instanceof z.ZodLazy) return unwrap(schema.schema);
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) return unwrap(schema.unwrap());
  return schema;
}

/** Every leaf path of an object schema, in its order; which of them are epoch seconds. */
function leaves(schema: z.ZodTypeAny, prefix = ''): Array<{ path: string; epoch: boolean }> {
  const s = unwrap(schema);
  if (!(s instanceof z.ZodObject)) {
    const checks = s instanceof z.ZodNumber ? s._def.checks : [];
    const epoch = checks.some((c) => c.kind === 'max' && c.value === 253_402_300_799);
    return [{ path: prefix, epoch }];
  }
  return Object.entries(s.shape as Record<string, z.ZodTypeAny>).flatMap(([k, v]) =>
    leaves(v, prefix ? `${prefix}.${k}` : k),
  );
}

const envelope = unwrap(ForecastEnvelopeSchema) as z.AnyZodObject;
const forecast = (unwrap(envelope.shape.predictions) as z.ZodRecord).valueSchema;
const trackRecord = unwrap(TrackRecordSchema) as z.AnyZodObject;
const result = (unwrap(trackRecord.shape.results) as z.ZodArray<z.ZodTypeAny>).element;

describe('the known columns are the schemas fields', () => {
  it("a forecast's: EngineForecast's fields in its order; ts and target_t are its epochs", () => {
    const fields = leaves(forecast);
    expect(FORECAST_FIELDS).toEqual(fields.map((f) => f.path));
    expect(fields.filter((f) => f.epoch).map((f) => f.path)).toEqual(['ts', 'target_t']);
    const price = leaves(envelope.shape.price, 'price');
    expect(PRICE_FIELDS).toEqual(price.map((f) => f.path));
    expect(price.filter((f) => f.epoch).map((f) => f.path)).toEqual(['price.t']);
  });

  it("a track-record timeframe's: the result's fields, outcomes by the seed's names, the interval's two ends", () => {
    const paths = leaves(result).flatMap(({ path }) =>
      path === 'outcomes'
        ? ['outcomes.win', 'outcomes.loss', 'outcomes.neutral']
        : path === 'resolved_win_rate_ci95'
          ? [`${path}.0`, `${path}.1`]
          : [path],
    );
    expect(RESULT_FIELDS).toEqual(paths);
  });

  it('the table header of each command, in the documented order', () => {
    const demo = forecastTable(['{"symbol": "BTC/USD", "predictions": {}, "meta": {"source": "S"}}']);
    expect(demo.header).toEqual([
      'symbol',
      'tf',
      'ts',
      'ts_iso',
      'horizon_min',
      'target_t',
      'target_t_iso',
      ...FORECAST_FIELDS.slice(4),
      'price.last',
      'price.t',
      'price.t_iso',
      'price.change24h_pct',
      'price.source',
      'source',
    ]);
    expect(trackRecordTable('{"results": []}').header).toEqual([
      'symbol',
      ...RESULT_FIELDS,
      'protocol.id',
      'generated_at',
      'source',
    ]);
    expect(symbolsTable('{"symbols": []}').header).toEqual(['symbol', 'tf', 'ts', 'ts_iso', 'source']);
  });
});

// --- rows -----------------------------------------------------------------------------------

const FORECAST = {
  tf: '1h',
  ts: 1_795_575_600,
  horizon_min: 360,
  target_t: 1_795_597_200,
  age_s: 60,
  ia1: { score: 0.1, rsi_score: 0.2, ema_score: 0.3 },
  ia2: { predicted_change_pct: -0.19, confidence: 0.6, label_raw: 'sube', p_long: 0.6, p_short: 0.3, p_flat: 0.1 },
  ia3: { label: 'long', direction: 'long', p_long: 0.6, p_short: 0.3, p_flat: 0.1, policy_version: 3 },
};
const bodyOf = (symbol: string, predictions: Record<string, unknown>) =>
  JSON.stringify({ ok: true, symbol, price: null, predictions, meta: { source: `Source of ${symbol}` } });

const column = (t: { header: string[]; rows: unknown[][] }, name: string) => {
  const i = t.header.indexOf(name);
  expect(i, name).toBeGreaterThanOrEqual(0);
  return t.rows.map((r) => r[i]);
};

describe('forecastTable', () => {
  it('one row per symbol × timeframe, in the order given and sent; --tf keeps only those asked', () => {
    const t = forecastTable([
      bodyOf('BTC/USD', { '1h': FORECAST, '6h': { ...FORECAST, tf: '6h' } }),
      bodyOf('ETH/USD', { '1h': FORECAST }),
    ]);
    expect(column(t, 'symbol')).toEqual(['BTC/USD', 'BTC/USD', 'ETH/USD']);
    expect(column(t, 'tf')).toEqual(['1h', '6h', '1h']);
    expect(column(t, 'source')).toEqual(['Source of BTC/USD', 'Source of BTC/USD', 'Source of ETH/USD']);
    expect(column(t, 'ts_iso')).toEqual(Array(3).fill('2026-11-25T03:00:00Z'));
    expect(column(t, 'target_t_iso')).toEqual(Array(3).fill('2026-11-25T09:00:00Z'));
    expect(column(t, 'ia2.predicted_change_pct')).toEqual(Array(3).fill({ number: '-0.19' }));
    const only = forecastTable([bodyOf('BTC/USD', { '1h': FORECAST, '6h': { ...FORECAST, tf: '6H' } })], ['6h']);
    expect(column(only, 'tf')).toEqual(['6H']);
  });

  it('numbers exactly as sent; a field absent or null is an empty cell, its ISO twin too', () => {
    const raw = bodyOf('EUR/USD', { '1h': { ...FORECAST, ts: 'soon', anchor_price: null } }).replace(
      '"horizon_min":360',
      '"horizon_min":3.60e2',
    );
    const t = forecastTable([raw]);
    expect(column(t, 'horizon_min')).toEqual([{ number: '3.60e2' }]);
    expect(column(t, 'ts')).toEqual(['soon']);
    expect(column(t, 'ts_iso')).toEqual([null]);
    expect(column(t, 'anchor_price')).toEqual([null]);
    expect(column(t, 'status')).toEqual([null]);
    expect(column(t, 'price.last')).toEqual([null]);
  });

  it('fields the schema does not name are kept, after the known ones, in the order first seen; a time among them gets its twin', () => {
    const t = forecastTable([
      bodyOf('BTC/USD', {
        '1h': { ...FORECAST, zeta: 1, ia3: { ...FORECAST.ia3, extra: [1, 2] } },
        '6h': { ...FORECAST, alpha: 'a', settled_at: 1_795_600_000, source: 'mine' },
      }),
    ]);
    expect(t.header.slice(t.header.indexOf('price.source') + 1)).toEqual([
      'ia3.extra.0',
      'ia3.extra.1',
      'zeta',
      'alpha',
      'settled_at',
      'settled_at_iso',
      // A field named `source` leaves the name to the attribution.
      'source~2',
      'source',
    ]);
    expect(column(t, 'settled_at_iso')).toEqual([null, '2026-11-25T09:46:40Z']);
    expect(column(t, 'source~2')).toEqual([null, 'mine']);
    for (const row of t.rows) expect(row).toHaveLength(t.header.length);
  });

  it('a symbol with no forecast still has its row; a body of any shape gives a table', () => {
    const t = forecastTable([bodyOf('BTC/USD', {}), '[1, "x"]', '{"predictions": {"1h": 5}}']);
    expect(column(t, 'symbol')).toEqual(['BTC/USD', null, null]);
    expect(column(t, 'value')).toEqual([null, null, { number: '5' }]);
  });
});

describe('the other tables', () => {
  it('symbols: one row per symbol × timeframe; a symbol with none, one row', () => {
    const t = symbolsTable(
      JSON.stringify({
        symbols: [
          { symbol: 'BTC/USD', timeframes: { '1h': 1_795_575_600, '6h': 1_795_564_800 }, asset_class: 'crypto' },
          { symbol: 'XAU/USD', timeframes: {} },
        ],
        meta: { source: 'S' },
      }),
    );
    expect(t.header).toEqual(['symbol', 'tf', 'ts', 'ts_iso', 'asset_class', 'source']);
    expect(t.rows).toEqual([
      ['BTC/USD', '1h', { number: '1795575600' }, '2026-11-25T03:00:00Z', 'crypto', 'S'],
      ['BTC/USD', '6h', { number: '1795564800' }, '2026-11-25T00:00:00Z', 'crypto', 'S'],
      ['XAU/USD', null, null, null, null, 'S'],
    ]);
  });

  it('track-record: one row per timeframe; a null interval is two empty cells, not a column more', () => {
    const t = trackRecordTable(
      JSON.stringify({
        symbol: 'BTC/USD',
        protocol: { id: 'p3' },
        generated_at: '2026-11-22T12:00:00Z',
        results: [
          { timeframe: '1h', outcomes: { win: 3, loss: 1, neutral: 0, void: 2 }, resolved_win_rate_ci95: [0.3, 0.9] },
          { timeframe: '6h', outcomes: {}, resolved_win_rate_ci95: null },
        ],
      }),
    );
    expect(t.header.at(-2)).toBe('outcomes.void');
    expect(column(t, 'resolved_win_rate_ci95.0')).toEqual([{ number: '0.3' }, null]);
    expect(column(t, 'protocol.id')).toEqual(['p3', 'p3']);
    expect(column(t, 'symbol')).toEqual(['BTC/USD', 'BTC/USD']);
  });

  it('verify: one row per market close, the rest of the body before it, named from the root', () => {
    const t = verifyTable(
      JSON.stringify({
        ok: true,
        id: 7,
        forecast: { tf: '1h', ts: 1_736_121_000 },
        market: {
          symbol: 'BTC/USD',
          closes: [
            { t: 1_736_121_000, close: 1.5 },
            { t: 1_736_124_000, close: 2 },
          ],
        },
        settlement: { outcome: 'win' },
        meta: { source: 'S' },
      }),
    );
    expect(t.header).toEqual([
      'id',
      'forecast.tf',
      'forecast.ts',
      'forecast.ts_iso',
      'market.symbol',
      'settlement.outcome',
      't',
      't_iso',
      'close',
      'source',
    ]);
    expect(column(t, 't_iso')).toEqual(['2025-01-05T23:50:00Z', '2025-01-06T00:40:00Z']);
  });

  it("the gateway: one row per item of the command's list after data's plain fields; macro names each row's list", () => {
    const t = gatewayTable(
      'macro',
      JSON.stringify({
        ok: true,
        data: { as_of: 'now', rates: [{ name: 'US 2Y', value: 4.1 }], fx: [{ symbol: 'EURUSD', last: 1.07 }] },
      }),
    );
    expect(t.header).toEqual(['data.as_of', 'list', 'name', 'value', 'symbol', 'last', 'source']);
    expect(t.rows).toEqual([
      ['now', 'rates', 'US 2Y', { number: '4.1' }, null, null, null],
      ['now', 'fx', null, null, 'EURUSD', { number: '1.07' }, null],
    ]);
    expect(gatewayTable('snapshot', '{"ok": false, "data": null}')).toEqual({ header: ['source'], rows: [] });
  });
});

describe('tableOf', () => {
  it('a name taken twice in one row (a key with a dot) gets ~2; twins never take a sent name', () => {
    const row = new Fields();
    row.add('', { 'a.b': 1, a: { b: 2 }, t: 1_795_575_600, t_iso: 'sent' });
    const t = tableOf([row], ['S'], { known: [], epochs: [] });
    expect(t.header).toEqual(['a.b', 'a.b~2', 't', 't_iso~2', 't_iso', 'source']);
    expect(t.rows[0]).toEqual([1, 2, 1_795_575_600, '2026-11-25T03:00:00Z', 'sent', 'S']);
  });
});
