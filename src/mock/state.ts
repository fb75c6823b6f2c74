// What one emulator instance remembers while it runs: issued keys, e-mails, gateway usage.
// Everything else is computed on demand from the seed and the clock.
import { createHash } from 'node:crypto';
import type { GatewayScope } from '../core/domain.js';

export interface GatewayUsage {
  minute: number;
  inMinute: number;
  day: number;
  inDay: number;
}

export interface MockState {
  seed: string;
  /** Milliseconds since the epoch. */
  now(): number;
  testKey: string;
  limitedGatewayKey: string;
  /** SHA-256 of every REST key the server accepts: like the service, it keeps no secret in clear. */
  restKeyHashes: Set<string>;
  registeredEmails: Set<string>;
  gatewayUsage: Map<string, GatewayUsage>;
  gatewaySeq: number;
  gatewayLimits: GatewayLimits;
  /** Called after a key is issued: where the emulator keeps its state, it writes it then. */
  issued?: () => void;
}

/** Requests a gateway key may make per minute and per day before it is answered 429. */
export interface GatewayLimits {
  perMinute: number;
  perDay: number;
}

const ALL_SCOPES: readonly GatewayScope[] = ['market.read', 'predictions.read', 'macro.read'];
const LIMITED_SCOPES: readonly GatewayScope[] = ['market.read'];

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
export const sha1 = (text: string): string => createHash('sha1').update(text).digest('hex');

export function createState(
  seed: string,
  now: () => number,
  gatewayLimits: GatewayLimits = { perMinute: 60, perDay: 1000 },
): MockState {
  const testKey = `mfa_ag_${sha1(seed)}`;
  return {
    seed,
    now,
    testKey,
    // Another prefix, so that a log or a test shows at a glance which kind of key was used.
    limitedGatewayKey: `mfgw_ag_${sha1(`${seed}:limited-gateway`)}`,
    restKeyHashes: new Set([sha256(testKey)]),
    registeredEmails: new Set(),
    gatewayUsage: new Map(),
    gatewaySeq: 0,
    gatewayLimits,
  };
}

export function serverT(state: MockState): number {
  return Math.floor(state.now() / 1000);
}

/** The key of an `Authorization: Bearer <key>` header, or undefined when there is none. */
export function bearerKey(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(value ?? '');
  return m?.[1];
}

export function isRestKey(state: MockState, key: string | undefined): boolean {
  return key !== undefined && state.restKeyHashes.has(sha256(key));
}

export function gatewayScopes(state: MockState, key: string | undefined): readonly GatewayScope[] | undefined {
  if (key === undefined) return undefined;
  if (key === state.limitedGatewayKey) return LIMITED_SCOPES;
  return isRestKey(state, key) ? ALL_SCOPES : undefined;
}
