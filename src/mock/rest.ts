// The REST surface under /api/agent/v1/. Each handler returns a body or throws an HttpProblem;
// the server turns both into responses with the right content type.
import { randomBytes } from 'node:crypto';
import {
  ACCURACY_TIMEFRAMES,
  DEFAULT_DEMO_SYMBOL,
  DEMO_SYMBOLS,
  EMAIL_MAX_LENGTH,
  EMAIL_PATTERN,
  GATEWAY_COMMAND_NAMES,
  GATEWAY_PATH,
  REST_PREFIX,
} from '../core/domain.js';
import { findSymbol, SYMBOLS, type SymbolInfo } from './catalog.js';
import { trackRecord, verifyBody } from './evidence.js';
import { forecastEnvelope, latestForecasts } from './forecasts.js';
import { API_VERSION, DELAY_MIN, LINKS, meta, SERVICE_NAME, type Tier } from './meta.js';
import { badRequest, HttpProblem } from './problems.js';
import { bearerKey, isRestKey, serverT, sha256, type MockState } from './state.js';

export const REST_BASE = `/${REST_PREFIX}`;

export interface RestRequest {
  method: string;
  /** Path below /api/agent/v1/, e.g. `demo.php`; empty for discovery. */
  route: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  rawBody: string | undefined;
  /** Origin the client reached the emulator on, for links it should follow to the emulator itself. */
  origin: string;
  /** The `shrink` fault is in force: the track record loses settlements. */
  shrink?: boolean;
}

export interface RestReply {
  status: number;
  body: unknown;
}

interface Route {
  method: 'GET' | 'POST';
  auth: 'none' | 'bearer';
  handle(state: MockState, req: RestRequest, tier: Tier): RestReply;
}

const ok = (body: unknown, status = 200): RestReply => ({ status, body });

/** The tier a request is served at: a known key makes it `free`, anything else is the keyless demo tier. */
export function tierOf(state: MockState, req: Pick<RestRequest, 'headers'>): Tier {
  return isRestKey(state, bearerKey(req.headers.authorization)) ? 'free' : 'demo';
}

function requireKey(state: MockState, req: RestRequest): void {
  const key = bearerKey(req.headers.authorization);
  if (key === undefined)
    throw new HttpProblem(
      'unauthorized',
      'this endpoint needs Authorization: Bearer <API_KEY>; get a free key from register.php',
      { 'www-authenticate': 'Bearer' },
    );
  if (!isRestKey(state, key))
    throw new HttpProblem('unauthorized', 'API key invalid or unknown', {
      'www-authenticate': 'Bearer error="invalid_token"',
    });
}

function knownSymbol(value: string): SymbolInfo {
  const info = findSymbol(value);
  if (!info)
    throw new HttpProblem(
      'unknown-symbol',
      `unknown symbol ${JSON.stringify(value)}; symbols are canonical BASE/QUOTE such as BTC/USD (see symbols.php)`,
    );
  return info;
}

/** An optional symbol filter: absent or empty means no filter. */
function symbolFilter(req: RestRequest): SymbolInfo | undefined {
  const value = req.query.symbol;
  return value === undefined || value === '' ? undefined : knownSymbol(value);
}

function parseJsonBody(req: RestRequest): unknown {
  const type = String(req.headers['content-type'] ?? '');
  if (!/^application\/json\b/i.test(type))
    throw badRequest('the body must be JSON sent with Content-Type: application/json');
  try {
    return JSON.parse(req.rawBody ?? '');
  } catch {
    throw badRequest('the body is not valid JSON');
  }
}

const ROUTES: Record<string, Route> = {
  '': {
    method: 'GET',
    auth: 'none',
    handle(state, _req, tier) {
      return ok({
        ok: true,
        name: `${SERVICE_NAME} API`,
        version: API_VERSION,
        description:
          'Timestamped probabilistic market forecasts with a public track record. Not financial advice; no orders are executed.',
        routes: Object.entries(ROUTES).map(([path, r]) => ({ method: r.method, path: REST_BASE + path, auth: r.auth })),
        tiers: [
          { name: 'demo', auth: 'none', data_delay_min: DELAY_MIN.demo, symbols: DEMO_SYMBOLS },
          {
            name: 'free',
            auth: 'bearer key from register.php',
            data_delay_min: DELAY_MIN.free,
            symbols: SYMBOLS.map((s) => s.symbol),
          },
        ],
        mcp: { endpoint: LINKS.mcp, transport: 'streamable-http' },
        gateway: { method: 'POST', path: `/${GATEWAY_PATH}`, auth: 'bearer', commands: GATEWAY_COMMAND_NAMES },
        meta: meta(tier, serverT(state)),
      });
    },
  },
  'demo.php': {
    method: 'GET',
    auth: 'none',
    handle(state, req) {
      const symbol = req.query.symbol ?? DEFAULT_DEMO_SYMBOL;
      if (!(DEMO_SYMBOLS as readonly string[]).includes(symbol)) {
        throw badRequest(
          `symbol must be one of ${DEMO_SYMBOLS.join(', ')}; other symbols need a free key (predictions.php)`,
        );
      }
      return ok(forecastEnvelope(state.seed, findSymbol(symbol)!, 'demo', serverT(state)));
    },
  },
  'register.php': {
    method: 'POST',
    auth: 'none',
    handle(state, req) {
      const body = parseJsonBody(req);
      if (typeof body !== 'object' || body === null || Array.isArray(body))
        throw badRequest('the body must be a JSON object {"email": "..."}');
      const extra = Object.keys(body).filter((k) => k !== 'email');
      if (extra.length > 0) throw badRequest(`unexpected properties: ${extra.join(', ')}; only email is allowed`);
      const email = (body as { email?: unknown }).email;
      if (typeof email !== 'string') throw badRequest('email is required and must be a string');
      if (email.length > EMAIL_MAX_LENGTH) throw badRequest(`email must be at most ${EMAIL_MAX_LENGTH} characters`);
      if (!EMAIL_PATTERN.test(email)) throw badRequest('email is not a valid e-mail address');
      const normalized = email.toLowerCase();
      if (state.registeredEmails.has(normalized))
        throw new HttpProblem(
          'email-already-registered',
          'a key was already issued for this e-mail address; keys are shown only once and cannot be retrieved',
        );
      state.registeredEmails.add(normalized);
      const apiKey = `mfa_ag_${randomBytes(20).toString('hex')}`;
      state.restKeyHashes.add(sha256(apiKey));
      state.issued?.();
      const base = req.origin + REST_BASE;
      return ok(
        {
          ok: true,
          api_key: apiKey,
          important:
            'Store this key now: it is shown only once. Only its SHA-256 hash is kept, so it cannot be retrieved later.',
          tier: 'free',
          limits: { requests_per_minute: 60, requests_per_day: 5000, data_delay_min: DELAY_MIN.free },
          endpoints: {
            predictions: `${base}predictions.php?symbol=BTC/USD`,
            symbols: `${base}symbols.php`,
            track_record: `${base}track-record.php`,
            accuracy: `${base}accuracy.php`,
            verify: `${base}verify.php?id=1`,
            docs: LINKS.docs,
          },
          meta: meta('free', serverT(state)),
        },
        201,
      );
    },
  },
  'predictions.php': {
    method: 'GET',
    auth: 'bearer',
    handle(state, req) {
      requireKey(state, req);
      const symbol = req.query.symbol;
      if (symbol === undefined || symbol === '') throw badRequest('symbol is required, e.g. symbol=BTC/USD');
      const candles = req.query.candles;
      if (candles !== undefined && candles !== '1') throw badRequest('candles accepts only the value 1');
      return ok(
        forecastEnvelope(state.seed, knownSymbol(symbol), 'free', serverT(state), { candles: candles === '1' }),
      );
    },
  },
  'symbols.php': {
    method: 'GET',
    auth: 'bearer',
    handle(state, req) {
      requireKey(state, req);
      const t = serverT(state);
      const symbols = SYMBOLS.map((info) => ({
        symbol: info.symbol,
        asset_class: info.assetClass,
        timeframes: Object.fromEntries(
          Object.entries(latestForecasts(state.seed, info, t, DELAY_MIN.free)).map(([tf, f]) => [tf, f.ts]),
        ),
      }));
      return ok({ ok: true, count: symbols.length, symbols, meta: meta('free', t) });
    },
  },
  'track-record.php': {
    method: 'GET',
    auth: 'none',
    handle(state, req, tier) {
      return ok(trackRecord(state.seed, serverT(state), tier, { info: symbolFilter(req), shrink: req.shrink }));
    },
  },
  'accuracy.php': {
    method: 'GET',
    auth: 'none',
    handle(state, req, tier) {
      const tf = req.query.tf;
      if (tf !== undefined && !(ACCURACY_TIMEFRAMES as readonly string[]).includes(tf)) {
        throw badRequest(`tf must be one of ${ACCURACY_TIMEFRAMES.join(', ')}`);
      }
      return ok(trackRecord(state.seed, serverT(state), tier, { info: symbolFilter(req), tf, shrink: req.shrink }));
    },
  },
  'verify.php': {
    method: 'GET',
    auth: 'none',
    handle(state, req, tier) {
      const raw = req.query.id;
      if (raw === undefined || raw === '') throw badRequest('id is required: an integer of at least 1');
      if (!/^\d+$/.test(raw) || /^0+$/.test(raw))
        throw badRequest(`id must be an integer of at least 1, got ${JSON.stringify(raw)}`);
      // Beyond 15 digits the id cannot be a stored forecast; avoid float rounding of huge numbers.
      const id = raw.replace(/^0+/, '').length > 15 ? Number.MAX_SAFE_INTEGER : Number(raw);
      return ok(verifyBody(state.seed, id, serverT(state), tier));
    },
  },
};

export function handleRest(state: MockState, req: RestRequest): RestReply {
  const route = ROUTES[req.route];
  if (!route)
    throw new HttpProblem('not-found', `no such endpoint: ${REST_BASE}${req.route}; see ${REST_BASE} for the routes`);
  if (req.method !== route.method) {
    throw new HttpProblem('method-not-allowed', `${REST_BASE}${req.route} accepts ${route.method} only`, {
      allow: route.method,
    });
  }
  return route.handle(state, req, tierOf(state, req));
}
