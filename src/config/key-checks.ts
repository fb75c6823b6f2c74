// What a command needs before it sends anything: the base URL as the root of every path, and
// the key a use of the service sends (the gateway falls back to the REST key, never the other
// way round), or exit 3 saying what is missing or malformed.
import { ConfigError } from '../core/errors.js';
import { describeMalformedKey, GATEWAY_KEY_KIND, type KeyKind, REST_KEY_KIND } from './keys.js';
import type { Sourced } from './origin.js';

/** The settings these checks read (a part of settings.ts's SettingValues). */
interface KeySettings {
  apiKey: Sourced<string> | undefined;
  /** The gateway's own key only; the fallback to the REST key is inspectKey's. */
  gatewayKey: Sourced<string> | undefined;
}

export const BASE_URL_HINT =
  "set FCAST_BASE_URL, pass --base-url URL, or run 'fcast config set base-url URL' (try 'fcast mock' for a local emulator)";

/** The base URL as the root of every path (a trailing slash, no query), or exit 3 saying how to set one. */
export function requireBaseUrl(settings: { baseUrl: Sourced<string> | undefined }): URL {
  if (!settings.baseUrl) throw new ConfigError('no base URL is set', { hint: BASE_URL_HINT });
  const url = new URL(settings.baseUrl.value);
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  url.search = '';
  url.hash = '';
  return url;
}

export type KeyUse = 'rest' | 'gateway';
export type ChosenKey = Sourced<string> & { kind: KeyUse; spec: KeyKind };
export interface KeyProblem {
  message: string;
  hint: string;
}
/** A key found (with a problem when it is malformed), or none and why. */
export type KeyInspection =
  | {
      key: ChosenKey;
      /** Set when the gateway has no key of its own and uses the REST key. */
      fallback: boolean;
      problem?: KeyProblem;
    }
  | { key?: undefined; fallback?: undefined; problem: KeyProblem };

const MISSING_KEY_HINT: Record<KeyUse, string> = {
  rest: "get a free key with 'fcast register --email ADDRESS', or set FCAST_API_KEY, or run 'fcast auth login'",
  gateway: "set FCAST_GATEWAY_KEY or run 'fcast auth login --gateway' (the REST key serves too)",
};

/**
 * The key a use of the service sends, and whether it can be sent. The one statement of the rule
 * that the gateway falls back to the REST key (and never the other way round).
 */
export function inspectKey(settings: KeySettings, use: KeyUse): KeyInspection {
  const { apiKey, gatewayKey } = settings;
  const chosen = use === 'gateway' ? (gatewayKey ?? apiKey) : apiKey;
  if (!chosen) {
    const message = use === 'gateway' ? 'no gateway key and no API key to fall back on' : 'no API key';
    return { problem: { message, hint: MISSING_KEY_HINT[use] } };
  }
  const kind: KeyUse = chosen === apiKey ? 'rest' : 'gateway';
  const kindSpec = kind === 'rest' ? REST_KEY_KIND : GATEWAY_KEY_KIND;
  const key: ChosenKey = { ...chosen, kind, spec: kindSpec };
  const fallback = use === 'gateway' && kind === 'rest';
  if (!kindSpec.isWellFormed(chosen.value)) {
    return {
      key,
      fallback,
      problem: {
        message: `the ${kindSpec.label} from ${chosen.source} is malformed: ${describeMalformedKey(kindSpec, chosen.value)}`,
        hint: `a key looks like ${kindSpec.expected}; set it again from the key you were given, or run 'fcast auth login${kind === 'gateway' ? ' --gateway' : ''}'`,
      },
    };
  }
  return { key, fallback };
}

/** The key to send, or exit 3 saying what is missing or malformed (without showing it). */
export function requireKey(settings: KeySettings, use: KeyUse): ChosenKey {
  const { key, problem } = inspectKey(settings, use);
  if (problem) throw new ConfigError(problem.message, { hint: problem.hint });
  // No problem means a key (KeyInspection): the check TypeScript cannot draw from the union.
  return key as ChosenKey;
}
