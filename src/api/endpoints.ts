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

/** Every request of the seed, as a value: the fetch functions send them, --dry-run prints them. */
export const requests = {
  discovery: () => rest(''),
  demo: (symbol: string) => rest('demo.php', { symbol }),
  predictions: (symbol: string, opts: { candles?: boolean } = {}) =>
    rest('predictions.php', { symbol, candles: opts.candles ? '1' : undefined }, 'rest'),
  symbols: () => rest('symbols.php', undefined, 'rest'),
  trackRecord: (opts: { symbol?: string } = {}) => rest('track-record.php', { symbol: opts.symbol }),
  accuracy: (opts: { symbol?: string; tf?: string } = {}) => rest('accuracy.php', { symbol: opts.symbol, tf: opts.tf }),
  verify: (id: number) => rest('verify.php', { id: String(id) }),
  /**
   * Never retried once it may have reached the server (a second POST could issue a second key),
   * and not cut by Ctrl-C once sent: its answer may hold a key that exists nowhere else.
   */
  register: (email: string): RequestSpec => ({
    method: 'POST',
    path: `${REST_PREFIX}register.php`,
    body: { email },
    auth: 'none',
    retry: 'rate-limit-only',
    finishOnInterrupt: true,
  }),
  gateway: (command: string, args: unknown[]): RequestSpec => ({
    method: 'POST',
    path: GATEWAY_PATH,
    body: { command, args },
    auth: 'gateway',
    retry: 'idempotent',
  }),
};

export const fetchDiscovery = (conn: Connection) => call(conn, requests.discovery(), LooseDocumentSchema, 'discovery');

export const fetchDemo = (conn: Connection, symbol: string) =>
  call(conn, requests.demo(symbol), ForecastEnvelopeSchema, 'demo.php');

export const fetchPredictions = (conn: Connection, symbol: string, opts: { candles?: boolean } = {}) =>
  call(conn, requests.predictions(symbol, opts), ForecastEnvelopeSchema, 'predictions.php');

export const fetchSymbols = (conn: Connection) => call(conn, requests.symbols(), SymbolsListSchema, 'symbols.php');

export const fetchTrackRecord = (conn: Connection, opts: { symbol?: string } = {}) =>
  call(conn, requests.trackRecord(opts), TrackRecordSchema, 'track-record.php');

export const fetchAccuracy = (conn: Connection, opts: { symbol?: string; tf?: string } = {}) =>
  call(conn, requests.accuracy(opts), TrackRecordSchema, 'accuracy.php');

export const fetchVerify = (conn: Connection, id: number) =>
  call(conn, requests.verify(id), LooseDocumentSchema, 'verify.php');

export const registerKey = (conn: Connection, email: string) =>
  call(conn, requests.register(email), RegistrationSchema, 'register.php');

export async function runGatewayCommand(conn: Connection, command: string, args: unknown[]) {
  const res = await call(conn, requests.gateway(command, args), GatewayEnvelopeSchema, `gateway ${command}`);
  const failed = failureUnderSuccess(res.response.status, res.raw, res.body);
  if (failed) throw failed;
  return res;
}
