// Key handling that every command shares: what a REST key looks like, and how one is shown
// (never whole: a masked form is enough to tell two keys apart).
import { REST_KEY_PATTERN } from '../core/domain.js';
import { UsageError } from '../core/errors.js';

export const isRestKey = (key: string): boolean => REST_KEY_PATTERN.test(key);

/** `mfa_ag_1a2b...9f0e`: the prefix and 4 characters at each end of the secret part. */
export function maskKey(key: string): string {
  if (isRestKey(key)) {
    const cut = key.indexOf('_ag_') + 4;
    return `${key.slice(0, cut)}${key.slice(cut, cut + 4)}...${key.slice(-4)}`;
  }
  if (key.length >= 16) return `${key.slice(0, 4)}...${key.slice(-4)}`;
  return '****';
}

// The seed does not document the gateway key's form: any single printable token of a
// plausible length is accepted, which still catches an empty paste or a pasted sentence, and
// never lets whitespace or a control character into an HTTP header.
const isGatewayKey = (key: string): boolean => /^[\x21-\x7e]{8,512}$/.test(key);

/**
 * A key of the gateway's own shape (`mfgw_...`, as the gateway issues them): well-formed as a
 * REST key too (`<prefix>_ag_<hex>`), but the REST endpoints refuse it, so it is never stored
 * as one.
 */
export const isGatewayShaped = (key: string): boolean => /^mfgw_/i.test(key);

export interface KeyKind {
  /** Its name in the settings table. */
  setting: 'apiKey' | 'gatewayKey';
  label: string;
  /** What a well-formed key looks like, for the refusal message. */
  expected: string;
  isWellFormed(key: string): boolean;
  /** What to try when a key of the other kind was given. */
  otherwise?: string;
  /** Whether `key` may be one of the other kind: `otherwise` is told only then. */
  mayBeOther?(key: string): boolean;
}

export const REST_KEY_KIND: KeyKind = {
  setting: 'apiKey',
  label: 'API key',
  expected: '<prefix>_ag_ followed by 40 lowercase hex characters',
  isWellFormed: isRestKey,
  otherwise: "a gateway key? use 'fcast auth login --gateway'",
  // A gateway key's form is not documented beyond one token: one without the REST key's `_ag_`
  // may be one; a REST key mistyped (`mfa_ag_` and too few digits) or a pasted sentence is not.
  mayBeOther: (key) => isGatewayShaped(key) || (isGatewayKey(key) && !key.includes('_ag_')),
};
export const GATEWAY_KEY_KIND: KeyKind = {
  setting: 'gatewayKey',
  label: 'gateway key',
  expected: 'one token of 8 to 512 printable characters',
  isWellFormed: isGatewayKey,
};
export const keyKindOf = (gateway: boolean | undefined): KeyKind => (gateway ? GATEWAY_KEY_KIND : REST_KEY_KIND);

/** The key as typed or piped, checked; the message never repeats what was given. */
export function checkTypedKey(kind: KeyKind, typed: string, fromTerminal: boolean): string {
  const key = typed.trim();
  if (key === '') {
    throw new UsageError(`no ${kind.label} given: ${fromTerminal ? 'nothing was typed' : 'stdin was empty'}`, {
      hint: `pipe it in: fcast auth login${kind === GATEWAY_KEY_KIND ? ' --gateway' : ''} < key.txt`,
    });
  }
  if (kind === REST_KEY_KIND && isGatewayShaped(key)) {
    throw new UsageError(`that is a gateway key (mfgw_..., not shown), not the REST API key`, {
      hint: "store it with 'fcast auth login --gateway'; the REST endpoints refuse a gateway key",
    });
  }
  if (!kind.isWellFormed(key)) {
    const shape = /\s/.test(key) ? 'it has spaces or several lines' : `it has ${[...key].length} characters`;
    throw new UsageError(`that is not a valid ${kind.label} (${shape}; not shown): expected ${kind.expected}`, {
      hint: kind.mayBeOther === undefined || kind.mayBeOther(key) ? kind.otherwise : undefined,
    });
  }
  return key;
}

/** What is wrong with a malformed key, without showing any of it. */
export function describeMalformedKey(kind: KeyKind, key: string): string {
  if (/\s/.test(key)) return 'it contains whitespace';
  if (/["'`]/.test(key)) return 'it contains quotes';
  if (/[^\x21-\x7e]/.test(key)) return 'it contains control or non-ASCII characters';
  if (kind === GATEWAY_KEY_KIND) return `it has ${key.length} characters, not 8 to 512`;
  if (!key.includes('_ag_')) return `it has no '_ag_' (${key.length} characters)`;
  if (!/^[A-Za-z0-9]+_ag_/.test(key)) return "its prefix before '_ag_' is not letters and digits";
  const secret = key.slice(key.indexOf('_ag_') + 4);
  if (/[A-F]/.test(secret)) return 'its hex part has upper-case letters';
  return `its part after '_ag_' has ${secret.length} character${secret.length === 1 ? '' : 's'}, not 40 hex digits`;
}
