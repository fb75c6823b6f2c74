// What the emulator keeps across restarts: the hashes of the REST keys it issued and the
// addresses they went to, and its emulated clock (time and speed), in a file of its data directory (`fcast mock` passes
// <data dir>/mock/state.json; `--fresh` removes it). Only hashes, as the service keeps: a
// stolen file gives no key. Read at start, written (merged with what another emulator may
// have written since) after each registration. `fcast mock` checks first that the directory is
// the user's own (as the journal's is); the file is read only when it is a regular file, and
// replaced through the atomic writer: a temp name no one can guess, created exclusively, renamed.
import { lstatSync, unlinkSync } from 'node:fs';
import { writeAtomically } from '../core/atomic-write.js';
import { IrregularFileError, kindOf, readOwnFile } from '../core/own-file.js';
import { sha256, type MockState } from './state.js';

/** Far more than any emulator issues (a key's hash and an address: ~120 bytes). */
const MAX_STATE_BYTES = 8 * 1024 * 1024;

interface Kept {
  restKeyHashes: string[];
  registeredEmails: string[];
  /** The emulated clock when it was last saved; absent in files of earlier versions. */
  clock?: KeptClock;
}

/** The emulated clock as saved: its time (ms), the wall-clock instant of saving (ms), its speed. */
export interface KeptClock {
  at: number;
  savedAt: number;
  speed: number;
}

function keptClock(v: unknown): KeptClock | undefined {
  if (v === null || typeof v !== 'object') return undefined;
  const { at, savedAt, speed } = v as Record<string, unknown>;
  const ok = [at, savedAt, speed].every((n) => typeof n === 'number' && Number.isFinite(n));
  return ok ? { at: at as number, savedAt: savedAt as number, speed: speed as number } : undefined;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x) => typeof x === 'string') : []);

/**
 * What the file holds; nothing when it is missing or not JSON (the emulator then starts clean).
 * Anything but a regular file at the path (a link, a FIFO, a device) is an IrregularFileError.
 */
export function readKept(path: string): Kept {
  let text: string | undefined;
  try {
    text = readOwnFile(path, MAX_STATE_BYTES);
  } catch (err) {
    if (err instanceof IrregularFileError) throw err;
    text = undefined;
  }
  try {
    const parsed = text === undefined ? null : (JSON.parse(text) as Record<string, unknown> | null);
    return {
      restKeyHashes: strings(parsed?.restKeyHashes),
      registeredEmails: strings(parsed?.registeredEmails),
      clock: keptClock(parsed?.clock),
    };
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

/** Writes `state`'s issued keys and addresses, with any the file gained meanwhile, and the clock (else the file's). */
export function saveKept(state: MockState, path: string, clock?: KeptClock): void {
  const kept = readKept(path);
  // The test key comes back from the seed: only the keys issued are kept.
  const test = sha256(state.testKey);
  const hashes = new Set([...kept.restKeyHashes, ...state.restKeyHashes].filter((h) => h !== test));
  const emails = new Set([...kept.registeredEmails, ...state.registeredEmails]);
  // A reader (another emulator starting) sees the old file or the new one; a link planted at
  // either name is replaced or refused, never written through.
  const saved = { restKeyHashes: [...hashes], registeredEmails: [...emails], clock: clock ?? kept.clock };
  writeAtomically(path, `${JSON.stringify(saved)}\n`, 0o600);
}

/** `--fresh`: forget every key issued before. Only a regular file is removed. */
export function forgetKept(path: string): void {
  const info = lstatSync(path, { throwIfNoEntry: false });
  if (info === undefined) return;
  if (!info.isFile()) throw new IrregularFileError(path, `is ${kindOf(info)}; --fresh removes only a regular file`);
  unlinkSync(path);
}
