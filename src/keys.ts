// Key handling that every command shares: what a REST key looks like, and how one is shown
// (never whole: a masked form is enough to tell two keys apart).
import { REST_KEY_PATTERN } from './domain.js';

export const isRestKey = (key: string): boolean => REST_KEY_PATTERN.test(key);

/** `mfa_ag_1a2b...9f0e`: the prefix and 4 characters at each end of the secret part. */
export function maskKey(key: string): string {
  const m = /^([A-Za-z0-9]+_ag_)([0-9a-f]{40})$/.exec(key);
  if (m) return `${m[1]}${m[2]!.slice(0, 4)}...${m[2]!.slice(-4)}`;
  if (key.length >= 16) return `${key.slice(0, 4)}...${key.slice(-4)}`;
  return '****';
}

/** A key may go into an HTTP header only if it has no whitespace or control characters. */
export const isHeaderSafe = (key: string): boolean => /^[\x21-\x7e]+$/.test(key);
