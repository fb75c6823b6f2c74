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
  method: string;
  url: URL;
  headers: Record<string, string>;
  /** The JSON text sent, and the value it was made from. */
  body: string | undefined;
  value: unknown;
  idempotent: boolean;
  /** Sent once, never retried (`fcast api` with a method other than GET). */
  once: boolean;
  finishOnInterrupt: boolean;
}

export function shownRequest(prepared: PreparedRequest): DryRunRequest {
  const headers = { ...prepared.headers };
  const bearer = /^Bearer (.+)$/.exec(headers.authorization ?? '');
  if (bearer) headers.authorization = `Bearer ${maskKey(bearer[1]!)}`;
  return { method: prepared.method, url: prepared.url.href, headers, body: prepared.value ?? null };
}
