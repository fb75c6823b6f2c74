// What the emulator keeps across restarts: the hashes of the REST keys it issued and the
// addresses they went to, in a file of its data directory (`fcast mock` passes
// <data dir>/mock/state.json; `--fresh` removes it). Only hashes, as the service keeps: a
// stolen file gives no key. Read at start, written (merged with what another emulator may
// have written since) after each registration.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { sha256, type MockState } from './state.js';

interface Kept {
  restKeyHashes: string[];
  registeredEmails: string[];
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x) => typeof x === 'string') : []);

/** What the file holds; nothing when it is missing or unreadable (the emulator then starts clean). */
export function readKept(path: string): Kept {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown> | null;
    return { restKeyHashes: strings(parsed?.restKeyHashes), registeredEmails: strings(parsed?.registeredEmails) };
  } catch {
    return { restKeyHashes: [], registeredEmails: [] };
  }
}

/** Adds what the file holds to `state`; the number of keys it brought back. */
export function restoreKept(state: MockState, path: string): number {
  const kept = readKept(path);
  const before = state.restKeyHashes.size;
  for (const hash of kept.restKeyHashes) state.restKeyHashes.add(hash);
  for (const email of kept.registeredEmails) state.registeredEmails.add(email);
  return state.restKeyHashes.size - before;
}

/** Writes `state`'s issued keys and addresses, with any the file gained meanwhile. */
export function saveKept(state: MockState, path: string): void {
  const kept = readKept(path);
  // The test key comes back from the seed: only the keys issued are kept.
  const test = sha256(state.testKey);
  const hashes = new Set([...kept.restKeyHashes, ...state.restKeyHashes].filter((h) => h !== test));
  const emails = new Set([...kept.registeredEmails, ...state.registeredEmails]);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  // A temp file renamed over the old one: a reader (another emulator starting) sees one or the other.
  const temp = `${path}.tmp-${process.pid}`;
  try {
    writeFileSync(temp, `${JSON.stringify({ restKeyHashes: [...hashes], registeredEmails: [...emails] })}\n`, {
      mode: 0o600,
    });
    renameSync(temp, path);
  } finally {
    rmSync(temp, { force: true });
  }
}

/** `--fresh`: forget every key issued before. */
export const forgetKept = (path: string): void => rmSync(path, { force: true });
