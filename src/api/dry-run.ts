// A request prepared but not sent: what --dry-run shows, with the key masked.
import { maskKey } from '../config/keys.js';

/** A request as --dry-run shows it: the key masked. */
export interface DryRunRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

export interface PreparedRequest {
  method: 'GET' | 'POST';
  url: URL;
  headers: Record<string, string>;
  /** The JSON text sent, and the value it was made from. */
  body: string | undefined;
  value: unknown;
  idempotent: boolean;
  finishOnInterrupt: boolean;
}

export function shownRequest(prepared: PreparedRequest): DryRunRequest {
  const headers = { ...prepared.headers };
  const bearer = /^Bearer (.+)$/.exec(headers.authorization ?? '');
  if (bearer) headers.authorization = `Bearer ${maskKey(bearer[1]!)}`;
  return { method: prepared.method, url: prepared.url.href, headers, body: prepared.value ?? null };
}
