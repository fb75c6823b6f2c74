// Schemas of every resource the seed documents: the one truth about bodies. Renderers take
// the parsed types; a body that breaks its schema is shown by the generic document renderer
// with a warning, so a schema must refuse whatever a renderer could not show (non-finite
// numbers, impossible times, objects where text is due).
// Every object is `.passthrough()`: the service may add fields, and `--json` must print the
// body exactly as it came, so a schema only says what must be there, never what may not.
// Each schema is built on its first use (building the lot costs a short command dearly, and a
// command needs one: docs/decisions/2026-11-23-startup-figures.md): `lazily` wraps the builder
// in a z.lazy whose inner schema is made once.
import { z } from 'zod';
import { MATURITY_LEVELS, REST_KEY_PATTERN } from '../core/domain.js';
import { MAX_EPOCH_S } from '../core/values.js';

function once<T>(build: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= build());
}

function lazily<T extends z.ZodTypeAny>(build: () => T): z.ZodLazy<T> {
  return z.lazy(once(build));
}

// Primitives are built once per process, on first use, and shared by every schema.
const prim = once(() => {
  const num = z.number().finite();
  const int = num.int();
  return {
    num,
    int,
    nullableNum: num.nullable(),
    // Epoch seconds that a date can show: 1970 to the end of year 9999.
    epoch: int.min(0).max(MAX_EPOCH_S),
  };
});

const meta = once(() => {
  const { int, epoch } = prim();
  return z
    .object({
      source: z.string(),
      license: z.string(),
      disclaimer: z.string(),
      tier: z.string(),
      data_delay_min: int,
      docs: z.string().optional(),
      quickstart: z.string().optional(),
      track_record: z.string().optional(),
      mcp: z.string().optional(),
      server_t: epoch.optional(),
    })
    .passthrough();
});
const engineForecast = once(() => {
  const { num, int, nullableNum, epoch } = prim();
  const probabilities = { p_long: num, p_short: num, p_flat: num };
  return z
    .object({
      tf: z.string(),
      ts: epoch,
      horizon_min: int,
      target_t: epoch,
      age_s: int,
      status: z.string().optional(),
      anchor_price: nullableNum.optional(),
      target_price: nullableNum.optional(),
      ia1: z.object({ score: num, rsi_score: num, ema_score: num }).passthrough(),
      ia2: z
        .object({ predicted_change_pct: num, confidence: num, label_raw: z.string(), ...probabilities })
        .passthrough(),
      ia3: z.object({ label: z.string(), direction: z.string(), ...probabilities, policy_version: int }).passthrough(),
    })
    .passthrough();
});

export const ForecastEnvelopeSchema = lazily(() => {
  const { num } = prim();
  return z
    .object({
      ok: z.literal(true),
      demo: z.boolean().optional(),
      symbol: z.string(),
      price: z
        .object({ last: num, t: prim().epoch, change24h_pct: num, source: z.string() })
        .passthrough()
        .nullable()
        .optional(),
      predictions: z.record(engineForecast()),
      candles: z.record(z.unknown()).optional(),
      next: z.object({ free_key: z.string().optional(), quickstart: z.string().optional() }).passthrough().optional(),
      meta: meta(),
    })
    .passthrough();
});

/**
 * The `candles` of predictions.php?candles=1. The seed says only "96 OHLCV candles for 15min
 * and 1h"; this is the emulator's shape (src/mock/prices.ts): per timeframe a list of
 * {t, o, h, l, c, v}, t the candle's open time in epoch seconds. The journal settles from these
 * names and no others: candles of another shape settle nothing (docs/journal.md).
 */
export const CandlesSchema = lazily(() => {
  const { num, epoch } = prim();
  const candle = z.object({ t: epoch, o: num, h: num, l: num, c: num, v: num }).passthrough();
  return z.object({ '15min': z.array(candle).optional(), '1h': z.array(candle).optional() }).passthrough();
});

/** A timeframe's candles as api/candles.ts reads them: open time and close, sorted by open time. */
export interface CloseSeries {
  tf: string;
  /** The candle's length. */
  seconds: number;
  candles: Array<{ t: number; c: number }>;
}

/**
 * A response's candles, one timeframe at a time (api/candles.ts readCandlesByTimeframe): the
 * series of each timeframe of the Candles shape, and why a timeframe sent could not be read;
 * `why` when the candles as a whole cannot be (absent, not an object).
 */
export interface CandleReading {
  series: CloseSeries[];
  problems: Array<{ tf: string; why: string }>;
  why?: string;
}

export const RegistrationSchema = lazily(() =>
  z
    .object({
      ok: z.literal(true),
      api_key: z.string().regex(REST_KEY_PATTERN),
      important: z.string().optional(),
      tier: z.string(),
      limits: z.record(z.unknown()),
      endpoints: z.record(z.unknown()),
      meta: meta(),
    })
    .passthrough(),
);

const trackRecordResult = once(() => {
  const { num, int, nullableNum } = prim();
  return z
    .object({
      timeframe: z.string(),
      n_settled: int,
      outcomes: z.record(z.unknown()),
      resolved_win_rate: nullableNum,
      resolved_win_rate_ci95: z.array(num).nullable(),
      positive_outcome_rate: nullableNum,
      average_return_pct: nullableNum,
      maturity: z.enum(MATURITY_LEVELS),
    })
    .passthrough();
});

export const TrackRecordSchema = lazily(() =>
  z
    .object({
      ok: z.literal(true),
      protocol: z
        .object({
          id: z.string(),
          starts_at_utc: z.string(),
          direction: z.string(),
          settlement: z.string(),
          status: z.string(),
        })
        .passthrough(),
      symbol: z.string().optional(),
      totals: z.record(z.unknown()),
      results: z.array(trackRecordResult()),
      generated_at: z.string(),
      meta: meta(),
    })
    .passthrough(),
);

export const SymbolsListSchema = lazily(() =>
  z
    .object({
      ok: z.literal(true),
      count: prim().int,
      symbols: z.array(z.object({ symbol: z.string(), timeframes: z.record(prim().epoch) }).passthrough()),
      meta: meta(),
    })
    .passthrough(),
);

/** Discovery and verify bodies: the seed fixes no fields beyond the meta every response has. */
export const LooseDocumentSchema = lazily(() => z.object({ meta: meta().optional() }).passthrough());

export const ProblemSchema = lazily(() =>
  z
    .object({
      type: z.string(),
      title: z.string(),
      status: prim().int,
      detail: z.string(),
      meta: meta().optional(),
    })
    .passthrough(),
);

export const GatewayEnvelopeSchema = lazily(() =>
  z
    .object({
      ok: z.boolean(),
      data: z.unknown().nullable(),
      error: z
        .object({ code: z.string(), message: z.string(), retry_after: prim().int.nullable().optional() })
        .passthrough()
        .nullable(),
      meta: z
        .object({
          request_id: z.string(),
          generated_at: z.string().optional(),
          rate_limit: z.record(z.unknown()).optional(),
          daily_quota: z.record(z.unknown()).optional(),
        })
        .passthrough(),
    })
    .passthrough(),
);

/** Every schema by name: what endpoints ask for, and what the build precompiles (accept-table.ts). */
export const SCHEMAS = {
  ForecastEnvelope: ForecastEnvelopeSchema,
  Candles: CandlesSchema,
  Registration: RegistrationSchema,
  TrackRecord: TrackRecordSchema,
  SymbolsList: SymbolsListSchema,
  LooseDocument: LooseDocumentSchema,
  Problem: ProblemSchema,
  GatewayEnvelope: GatewayEnvelopeSchema,
};
export type SchemaName = keyof typeof SCHEMAS;
/** The body each schema describes. */
export type Shape<N extends SchemaName> = z.infer<(typeof SCHEMAS)[N]>;

export type Meta = z.infer<ReturnType<typeof meta>>;
export type EngineForecast = z.infer<ReturnType<typeof engineForecast>>;
export type ForecastEnvelope = z.infer<typeof ForecastEnvelopeSchema>;
export type Price = NonNullable<ForecastEnvelope['price']>;
export type Candles = z.infer<typeof CandlesSchema>;
export type Registration = z.infer<typeof RegistrationSchema>;
export type TrackRecordResult = z.infer<ReturnType<typeof trackRecordResult>>;
export type TrackRecord = z.infer<typeof TrackRecordSchema>;
export type SymbolsList = z.infer<typeof SymbolsListSchema>;
export type Problem = z.infer<typeof ProblemSchema>;
export type GatewayEnvelope = z.infer<typeof GatewayEnvelopeSchema>;
