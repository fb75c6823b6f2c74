// One function per endpoint of the seed, REST and gateway. Each sends through the client,
// insists on JSON, checks the documented shape, and hands back the body with its raw text.
import { GATEWAY_PATH, REST_PREFIX } from '../core/domain.js';
import type { ApiClient, ApiResponse, RequestSpec } from './client.js';
import type { SchemaName, Shape } from '../schema/bodies.js';
import { failureUnderSuccess } from './response-errors.js';
import { checkNamedShape, requireJson, type ShapeCheck } from './validate.js';

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

async function call<N extends SchemaName>(
  conn: Connection,
  spec: RequestSpec,
  schema: N,
  what: string,
): Promise<Fetched<Shape<N>>> {
  const response = await conn.client.request(spec);
  const body = requireJson(response, what);
  const wellFormed = await checkNamedShape(schema, body, what, conn);
  return { body: body as Shape<N>, raw: response.raw, wellFormed, response };
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

export const fetchDiscovery = (conn: Connection) => call(conn, requests.discovery(), 'LooseDocument', 'discovery');

export const fetchDemo = (conn: Connection, symbol: string) =>
  call(conn, requests.demo(symbol), 'ForecastEnvelope', 'demo.php');

export const fetchPredictions = (conn: Connection, symbol: string, opts: { candles?: boolean } = {}) =>
  call(conn, requests.predictions(symbol, opts), 'ForecastEnvelope', 'predictions.php');

export const fetchSymbols = (conn: Connection) => call(conn, requests.symbols(), 'SymbolsList', 'symbols.php');

export const fetchTrackRecord = (conn: Connection, opts: { symbol?: string } = {}) =>
  call(conn, requests.trackRecord(opts), 'TrackRecord', 'track-record.php');

export const fetchAccuracy = (conn: Connection, opts: { symbol?: string; tf?: string } = {}) =>
  call(conn, requests.accuracy(opts), 'TrackRecord', 'accuracy.php');

export const fetchVerify = (conn: Connection, id: number) =>
  call(conn, requests.verify(id), 'LooseDocument', 'verify.php');

export const registerKey = (conn: Connection, email: string) =>
  call(conn, requests.register(email), 'Registration', 'register.php');

export async function runGatewayCommand(conn: Connection, command: string, args: unknown[]) {
  const res = await call(conn, requests.gateway(command, args), 'GatewayEnvelope', `gateway ${command}`);
  const failed = failureUnderSuccess(res.response.status, res.raw, res.body);
  if (failed) throw failed;
  return res;
}
