// The command gateway: one POST endpoint, an allowlist of read-only commands, scopes per key and
// a usage meter per key. Failures keep the envelope (`ok: false`, `data: null`) with an integer
// `retry_after` that is 0 whenever waiting would not help.
import {
  ACCURACY_TIMEFRAMES,
  GATEWAY_COMMANDS,
  GATEWAY_COMMAND_NAMES,
  type GatewayArg,
  type GatewayCommand,
} from '../core/domain.js';
import { ASSET_CLASSES, findGatewaySymbol, type AssetClass } from './catalog.js';
import * as commands from './gateway-commands.js';
import { isValidTimeZone } from './market-hours.js';
import { isoSeconds } from './meta.js';
import { hexFor } from './random.js';
import { bearerKey, gatewayScopes, serverT, sha256, type MockState } from './state.js';

export interface GatewayReply {
  status: number;
  body: GatewayEnvelopeBody;
  headers?: Record<string, string>;
}

export interface GatewayEnvelopeBody {
  ok: boolean;
  data: unknown;
  error: { code: string; message: string; retry_after: number; [k: string]: unknown } | null;
  meta: Record<string, unknown>;
}

/** Request ids follow a per-server sequence, so two servers with one seed hand out the same ids. */
function requestId(state: MockState): string {
  state.gatewaySeq += 1;
  return `req_${hexFor(20, state.seed, 'request', state.gatewaySeq)}`;
}

export function gatewayFailure(
  state: MockState,
  status: number,
  code: string,
  message: string,
  retryAfter = 0,
  extra: Record<string, unknown> = {},
): GatewayReply {
  return {
    status,
    body: {
      ok: false,
      data: null,
      error: { code, message, retry_after: retryAfter, ...extra },
      meta: { request_id: requestId(state) },
    },
  };
}

class InvalidArgs extends Error {}

function meter(state: MockState, key: string) {
  const t = serverT(state);
  const minute = Math.floor(t / 60);
  const day = Math.floor(t / 86_400);
  const id = sha256(key);
  const u = state.gatewayUsage.get(id) ?? { minute, inMinute: 0, day, inDay: 0 };
  if (u.minute !== minute) {
    u.minute = minute;
    u.inMinute = 0;
  }
  if (u.day !== day) {
    u.day = day;
    u.inDay = 0;
  }
  const { perMinute, perDay } = state.gatewayLimits;
  // Like the service, a request over the limit is refused and not counted.
  const exceeded = u.inDay >= perDay ? 'day' : u.inMinute >= perMinute ? 'minute' : undefined;
  if (!exceeded) {
    u.inMinute += 1;
    u.inDay += 1;
  }
  state.gatewayUsage.set(id, u);
  return {
    exceeded,
    retryAfter: exceeded === 'day' ? 86_400 - (t % 86_400) : 60 - (t % 60),
    meta: {
      rate_limit: { limit: perMinute, remaining: Math.max(0, perMinute - u.inMinute), reset_s: 60 - (t % 60) },
      daily_quota: { limit: perDay, used: u.inDay, remaining: Math.max(0, perDay - u.inDay) },
    },
  };
}

type ArgValue = string | number | undefined;

function checkArg(command: GatewayCommand, spec: GatewayArg, value: unknown): ArgValue {
  const where = `${command.name}: argument ${spec.name}`;
  if (value === undefined || value === null) {
    if (spec.required) throw new InvalidArgs(`${where} is required`);
    return undefined;
  }
  switch (spec.kind) {
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value))
        throw new InvalidArgs(`${where} must be a JSON integer, got ${JSON.stringify(value)}`);
      return value;
    case 'symbol': {
      if (typeof value !== 'string' || value === '')
        throw new InvalidArgs(`${where} must be a symbol string such as BTCUSD`);
      if (value.includes('/'))
        throw new InvalidArgs(`${where} must be written without a slash, e.g. ${value.replace('/', '')}`);
      const info = findGatewaySymbol(value);
      if (!info) throw new InvalidArgs(`${where}: unknown symbol ${value}; use the search command to list symbols`);
      return value.toUpperCase();
    }
    case 'timeframe':
      if (typeof value !== 'string' || !(ACCURACY_TIMEFRAMES as readonly string[]).includes(value)) {
        throw new InvalidArgs(`${where} must be one of ${ACCURACY_TIMEFRAMES.join(', ')}`);
      }
      return value;
    case 'timezone':
      if (typeof value !== 'string' || !isValidTimeZone(value))
        throw new InvalidArgs(`${where} must be an IANA time zone name such as Europe/Madrid`);
      return value;
    case 'string':
      if (typeof value !== 'string' || value.trim() === '')
        throw new InvalidArgs(`${where} must be a non-empty string`);
      return value;
  }
}

function run(state: MockState, command: GatewayCommand, args: ArgValue[]): unknown {
  const t = serverT(state);
  const seed = state.seed;
  const symbolAt = (i: number) => findGatewaySymbol(String(args[i]))!;
  switch (command.name) {
    case 'snapshot':
      return commands.snapshot(seed, t);
    case 'search': {
      const assetClass = args[1] as string | undefined;
      if (assetClass !== undefined && !(ASSET_CLASSES as readonly string[]).includes(assetClass)) {
        throw new InvalidArgs(`search: argument asset_class must be one of ${ASSET_CLASSES.join(', ')}`);
      }
      return commands.search(t, String(args[0]), assetClass as AssetClass | undefined);
    }
    case 'indicators':
      return commands.indicators(seed, symbolAt(0), String(args[1]), t);
    case 'analyze':
      return commands.analyze(seed, symbolAt(0), String(args[1]), t);
    case 'opportunities': {
      const limit = args[0] as number;
      if (limit < 1) throw new InvalidArgs('opportunities: argument limit must be at least 1');
      return commands.opportunities(seed, limit, t);
    }
    case 'macro':
      return commands.macro(seed, t);
    case 'calendar':
      return commands.calendar(symbolAt(0), (args[1] as string | undefined) ?? 'UTC', t);
    case 'events': {
      const kind = String(args[0]);
      if (!(commands.EVENT_KINDS as readonly string[]).includes(kind)) {
        throw new InvalidArgs(`events: argument kind must be one of ${commands.EVENT_KINDS.join(', ')}`);
      }
      const days = (args[2] as number | undefined) ?? commands.EVENT_DAYS_DEFAULT;
      if (days < 1 || days > commands.EVENT_DAYS_MAX)
        throw new InvalidArgs(`events: argument days must be between 1 and ${commands.EVENT_DAYS_MAX}`);
      return commands.events(seed, kind, args[1] as string | undefined, days, t);
    }
    default:
      throw new Error(`command ${command.name} has no implementation`);
  }
}

export function handleGateway(
  state: MockState,
  method: string,
  headers: Record<string, string | string[] | undefined>,
  rawBody: string | undefined,
): GatewayReply {
  if (method !== 'POST') {
    const reply = gatewayFailure(state, 405, 'method_not_allowed', `use POST for the command gateway, not ${method}`);
    return { ...reply, headers: { allow: 'POST' } };
  }
  const key = bearerKey(headers.authorization);
  const scopes = gatewayScopes(state, key);
  if (!scopes) {
    const reply =
      key === undefined
        ? gatewayFailure(state, 401, 'unauthorized', 'bearer token missing: send Authorization: Bearer <API_KEY>')
        : gatewayFailure(state, 401, 'unauthorized', 'API key invalid or revoked');
    return { ...reply, headers: { 'www-authenticate': 'Bearer' } };
  }
  const metered = meter(state, key!);
  if (metered.exceeded === 'day') {
    return gatewayFailure(
      state,
      429,
      'quota_exceeded',
      `daily quota of ${state.gatewayLimits.perDay} requests used up; retry in ${metered.retryAfter}s`,
      metered.retryAfter,
    );
  }
  if (metered.exceeded === 'minute') {
    return gatewayFailure(
      state,
      429,
      'rate_limited',
      `rate limit of ${state.gatewayLimits.perMinute} requests a minute exceeded; retry in ${metered.retryAfter}s`,
      metered.retryAfter,
    );
  }
  const usage = metered.meta;

  const contentType = String(headers['content-type'] ?? '');
  if (!/^application\/json\b/i.test(contentType)) {
    return gatewayFailure(state, 400, 'invalid_body', 'the body must be JSON sent with Content-Type: application/json');
  }
  let body: unknown;
  try {
    body = JSON.parse(rawBody ?? '');
  } catch {
    return gatewayFailure(state, 400, 'invalid_body', 'the body is not valid JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return gatewayFailure(
      state,
      400,
      'invalid_body',
      'the body must be a JSON object {"command": string, "args": array}',
    );
  }
  const { command: name, args = [], ...rest } = body as Record<string, unknown>;
  const extra = Object.keys(rest);
  if (extra.length > 0) return gatewayFailure(state, 400, 'invalid_body', `unknown properties: ${extra.join(', ')}`);
  if (typeof name !== 'string') return gatewayFailure(state, 400, 'invalid_body', 'command must be a string');
  if (!Array.isArray(args)) return gatewayFailure(state, 400, 'invalid_body', 'args must be an array');

  const command = GATEWAY_COMMANDS.find((c) => c.name === name);
  if (!command) {
    return gatewayFailure(
      state,
      400,
      'unknown_command',
      `unknown command ${JSON.stringify(name)}; allowed: ${GATEWAY_COMMAND_NAMES.join(', ')}`,
    );
  }
  if (!scopes.includes(command.scope)) {
    return gatewayFailure(state, 403, 'scope_required', `command ${command.name} requires scope ${command.scope}`, 0, {
      scope: command.scope,
    });
  }
  let data: unknown;
  try {
    if (args.length > command.args.length) {
      throw new InvalidArgs(`${command.name} takes at most ${command.args.length} argument(s), got ${args.length}`);
    }
    const checked = command.args.map((spec, i) => checkArg(command, spec, args[i]));
    data = run(state, command, checked);
  } catch (err) {
    if (err instanceof InvalidArgs) return gatewayFailure(state, 400, 'invalid_args', err.message);
    throw err;
  }
  return {
    status: 200,
    body: {
      ok: true,
      data,
      error: null,
      meta: { request_id: requestId(state), generated_at: isoSeconds(serverT(state)), ...usage },
    },
  };
}
