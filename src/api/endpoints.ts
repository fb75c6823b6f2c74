// One function per endpoint of the seed, REST and gateway. Each sends through the client,
// insists on JSON, checks the documented shape, and hands back the body with its raw text.
import type { ZodType, z } from 'zod';
import { GATEWAY_PATH, REST_PREFIX } from '../domain.js';
import type { ApiClient, ApiResponse, RequestSpec } from './client.js';
import {
  ForecastEnvelopeSchema,
  GatewayEnvelopeSchema,
  LooseDocumentSchema,
  RegistrationSchema,
  SymbolsListSchema,
  TrackRecordSchema,
} from './schemas.js';
import { failureUnderSuccess } from './response-errors.js';
import { checkShape, requireJson, type ShapeCheck } from './validate.js';

export interface Connection extends ShapeCheck {
  client: ApiClient;
}

export interface Fetched<T> {
  body: T;
  raw: string;
  /** False when the body broke the documented shape (a warning was given): render with care. */
  wellFormed: boolean;
  response: ApiResponse;
}

async function call<S extends ZodType>(
  conn: Connection,
  spec: RequestSpec,
  schema: S,
  what: string,
): Promise<Fetched<z.infer<S>>> {
  const response = await conn.client.request(spec);
  const body = requireJson(response, what);
  const wellFormed = checkShape(schema, body, what, conn);
  return { body: body as z.infer<S>, raw: response.raw, wellFormed, response };
}

const rest = (path: string, query?: RequestSpec['query'], auth: RequestSpec['auth'] = 'none'): RequestSpec => ({
  method: 'GET',
  path: REST_PREFIX + path,
  query,
  auth,
  retry: 'idempotent',
});

export const fetchDiscovery = (conn: Connection) => call(conn, rest(''), LooseDocumentSchema, 'discovery');

export const fetchDemo = (conn: Connection, symbol: string) =>
  call(conn, rest('demo.php', { symbol }), ForecastEnvelopeSchema, 'demo.php');

export const fetchPredictions = (conn: Connection, symbol: string, opts: { candles?: boolean } = {}) =>
  call(
    conn,
    rest('predictions.php', { symbol, candles: opts.candles ? '1' : undefined }, 'rest'),
    ForecastEnvelopeSchema,
    'predictions.php',
  );

export const fetchSymbols = (conn: Connection) =>
  call(conn, rest('symbols.php', undefined, 'rest'), SymbolsListSchema, 'symbols.php');

export const fetchTrackRecord = (conn: Connection, opts: { symbol?: string } = {}) =>
  call(conn, rest('track-record.php', { symbol: opts.symbol }), TrackRecordSchema, 'track-record.php');

export const fetchAccuracy = (conn: Connection, opts: { symbol?: string; tf?: string } = {}) =>
  call(conn, rest('accuracy.php', { symbol: opts.symbol, tf: opts.tf }), TrackRecordSchema, 'accuracy.php');

export const fetchVerify = (conn: Connection, id: number) =>
  call(conn, rest('verify.php', { id: String(id) }), LooseDocumentSchema, 'verify.php');

/** Never retried once it may have reached the server: a second POST could issue a second key. */
export const registerKey = (conn: Connection, email: string) =>
  call(
    conn,
    { method: 'POST', path: `${REST_PREFIX}register.php`, body: { email }, auth: 'none', retry: 'rate-limit-only' },
    RegistrationSchema,
    'register.php',
  );

export async function runGatewayCommand(conn: Connection, command: string, args: unknown[]) {
  const res = await call(
    conn,
    { method: 'POST', path: GATEWAY_PATH, body: { command, args }, auth: 'gateway', retry: 'idempotent' },
    GatewayEnvelopeSchema,
    `gateway ${command}`,
  );
  const failed = failureUnderSuccess(res.response.status, res.raw, res.body);
  if (failed) throw failed;
  return res;
}
