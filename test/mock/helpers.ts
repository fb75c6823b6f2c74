// Shared by the emulator's test files: a fixed clock and small fetch helpers.
import type { MockServer } from '../../src/mock/index.js';

/** Monday 2 June 2025, 14:07:30 UTC: US markets open, FX open, a weekday for events. */
export const NOW_MS = Date.UTC(2025, 5, 2, 14, 7, 30);
export const NOW_S = Math.floor(NOW_MS / 1000);
export const fixedNow = (): number => NOW_MS;

export const REST = '/api/agent/v1/';
export const GATEWAY = '/api/v1/agent/command';

export interface JsonReply<T = any> {
  status: number;
  headers: Headers;
  text: string;
  body: T;
}

export async function call<T = any>(url: string, init?: RequestInit): Promise<JsonReply<T>> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, text, body };
}

export const bearer = (key: string): Record<string, string> => ({ authorization: `Bearer ${key}` });

/** Sends a gateway command with `key` (the test key when undefined, no Authorization when null). */
export function command(server: MockServer, body: unknown, key?: string | null): Promise<JsonReply> {
  const k = key === undefined ? server.testKey : key;
  return call(server.url + GATEWAY, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(k === null ? {} : bearer(k)) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Independent of the emulator's own implementation, so a shared mistake cannot hide. */
export function wilson(wins: number, n: number, z = 1.96): [number, number] {
  const p = wins / n;
  const a = p + (z * z) / (2 * n);
  const b = z * Math.sqrt((p * (1 - p) + (z * z) / (4 * n)) / n);
  const c = 1 + (z * z) / n;
  return [(a - b) / c, (a + b) / c];
}

export function tfSeconds(tf: string): number {
  const m = /^(\d+)(min|h|d)$/.exec(tf)!;
  return Number(m[1]) * (m[2] === 'min' ? 60 : m[2] === 'h' ? 3600 : 86_400);
}
