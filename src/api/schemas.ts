// Schemas of every resource the seed documents. Every object is `.passthrough()`: the
// service may add fields, and `--json` must print the body exactly as it came, so a schema
// only says what must be there, never what may not.
import { z } from 'zod';
import { MATURITY_LEVELS, REST_KEY_PATTERN } from '../domain.js';

const num = z.number();
const int = z.number().int();
const nullableNum = num.nullable();

const MetaSchema = z
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
    server_t: int.optional(),
  })
  .passthrough();

const PriceSchema = z
  .object({
    last: num,
    t: int,
    change24h_pct: num,
    source: z.string(),
  })
  .passthrough();

const Ia1Schema = z.object({ score: num, rsi_score: num, ema_score: num }).passthrough();

const Ia2Schema = z
  .object({
    predicted_change_pct: num,
    confidence: num,
    label_raw: z.string(),
    p_long: num,
    p_short: num,
    p_flat: num,
  })
  .passthrough();

const Ia3Schema = z
  .object({
    label: z.string(),
    direction: z.string(),
    p_long: num,
    p_short: num,
    p_flat: num,
    policy_version: int,
  })
  .passthrough();

const EngineForecastSchema = z
  .object({
    tf: z.string(),
    ts: int,
    horizon_min: int,
    target_t: int,
    age_s: int,
    status: z.string().optional(),
    anchor_price: nullableNum.optional(),
    target_price: nullableNum.optional(),
    ia1: Ia1Schema,
    ia2: Ia2Schema,
    ia3: Ia3Schema,
  })
  .passthrough();

export const ForecastEnvelopeSchema = z
  .object({
    ok: z.literal(true),
    demo: z.boolean().optional(),
    symbol: z.string(),
    price: PriceSchema.nullable().optional(),
    predictions: z.record(EngineForecastSchema),
    candles: z.record(z.unknown()).optional(),
    next: z.object({ free_key: z.string().optional(), quickstart: z.string().optional() }).passthrough().optional(),
    meta: MetaSchema,
  })
  .passthrough();

export const RegistrationSchema = z
  .object({
    ok: z.literal(true),
    api_key: z.string().regex(REST_KEY_PATTERN),
    important: z.string().optional(),
    tier: z.string(),
    limits: z.record(z.unknown()),
    endpoints: z.record(z.unknown()),
    meta: MetaSchema,
  })
  .passthrough();

const MaturitySchema = z.enum(MATURITY_LEVELS);

const TrackRecordResultSchema = z
  .object({
    timeframe: z.string(),
    n_settled: int,
    outcomes: z.record(z.unknown()),
    resolved_win_rate: nullableNum,
    resolved_win_rate_ci95: z.array(num).nullable(),
    positive_outcome_rate: nullableNum,
    average_return_pct: nullableNum,
    maturity: MaturitySchema,
  })
  .passthrough();

export const TrackRecordSchema = z
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
    results: z.array(TrackRecordResultSchema),
    generated_at: z.string(),
    meta: MetaSchema,
  })
  .passthrough();

export const SymbolsListSchema = z
  .object({
    ok: z.literal(true),
    count: int,
    symbols: z.array(z.object({ symbol: z.string(), timeframes: z.record(int) }).passthrough()),
    meta: MetaSchema,
  })
  .passthrough();

/** Discovery and verify bodies: the seed fixes no fields beyond the meta every response has. */
export const LooseDocumentSchema = z.object({ meta: MetaSchema.optional() }).passthrough();

export const ProblemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: int,
    detail: z.string(),
    meta: MetaSchema.optional(),
  })
  .passthrough();

const GatewayErrorSchema = z
  .object({ code: z.string(), message: z.string(), retry_after: int.nullable().optional() })
  .passthrough();

export const GatewayEnvelopeSchema = z
  .object({
    ok: z.boolean(),
    data: z.unknown().nullable(),
    error: GatewayErrorSchema.nullable(),
    meta: z
      .object({
        request_id: z.string(),
        generated_at: z.string().optional(),
        rate_limit: z.record(z.unknown()).optional(),
        daily_quota: z.record(z.unknown()).optional(),
      })
      .passthrough(),
  })
  .passthrough();

export type Meta = z.infer<typeof MetaSchema>;
export type Price = z.infer<typeof PriceSchema>;
export type EngineForecast = z.infer<typeof EngineForecastSchema>;
export type ForecastEnvelope = z.infer<typeof ForecastEnvelopeSchema>;
export type Registration = z.infer<typeof RegistrationSchema>;
export type TrackRecordResult = z.infer<typeof TrackRecordResultSchema>;
export type TrackRecord = z.infer<typeof TrackRecordSchema>;
export type SymbolsList = z.infer<typeof SymbolsListSchema>;
export type Problem = z.infer<typeof ProblemSchema>;
export type GatewayEnvelope = z.infer<typeof GatewayEnvelopeSchema>;
