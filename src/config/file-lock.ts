// An exclusive lock file (O_EXCL) beside what it guards, held for the few milliseconds of a
// read-modify-write: the config file's writers and the journal's recorders take it the same way.
// No library: proper-lockfile keeps a lock alive with timers and judges staleness by age only,
// where a lock held for a few milliseconds by a process that is alive or dead is simpler to
// judge by its pid.
import { closeSync, linkSync, openSync, readFileSync, renameSync, statSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { ConfigError } from '../core/errors.js';
import { unlinkQuietly } from './atomic-write.js';

/** Longer than any write takes: a writer holds the lock for a few milliseconds. */
const LOCK_WAIT_MS = 10_000;
/** A lock file whose owner cannot be told (empty, another host) is stale after this. */
const UNKNOWN_OWNER_STALE_MS = 30_000;

interface LockOwner {
  pid: number;
  host: string;
  token: string;
}

let tokens = 0;

/**
 * Takes the lock at `lockPath`, waiting for a live owner (at most 10 s) and breaking a dead
 * one's; `what` names the guarded thing in the error ("the config file"). Returns the release.
 */
export async function acquireLock(lockPath: string, what: string, waitMs = LOCK_WAIT_MS): Promise<() => void> {
  const me: LockOwner = { pid: process.pid, host: hostname(), token: `${process.pid}-${Date.now()}-${++tokens}` };
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    if (tryCreateLock(lockPath, me)) return () => releaseLock(lockPath, me);
    if (breakStaleLock(lockPath)) continue;
    if (Date.now() - started > waitMs) {
      const owner = readOwner(lockPath);
      throw new ConfigError(
        `${what} is locked by another fcast${owner ? ` (pid ${owner.pid})` : ''} for more than ${waitMs / 1000}s`,
        { hint: `if no fcast is running, remove ${lockPath}` },
      );
    }
    // A few ms at first, then up to 50 ms, with jitter so waiting writers spread out.
    const ms = Math.min(50, 2 + attempt * 2) * (0.5 + Math.random());
    await new Promise((done) => setTimeout(done, ms));
  }
}

function tryCreateLock(lockPath: string, me: LockOwner): boolean {
  let fd: number;
  try {
    fd = openSync(lockPath, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    writeSync(fd, JSON.stringify(me));
  } finally {
    closeSync(fd);
  }
  return true;
}

function readOwner(lockPath: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(readFileSync(lockPath, 'utf8')) as LockOwner;
    return typeof owner.pid === 'number' && typeof owner.token === 'string' ? owner : undefined;
  } catch {
    return undefined;
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function isStale(lockPath: string, owner: LockOwner | undefined): boolean {
  if (owner && owner.host === hostname()) return !isAlive(owner.pid);
  try {
    return Date.now() - statSync(lockPath).mtimeMs > UNKNOWN_OWNER_STALE_MS;
  } catch {
    return false; // gone already: try again
  }
}

/**
 * Removes a lock whose owner died. Several waiters may find the same stale lock: each moves it
 * aside under a name of its own (only one rename can take that file), and one that finds it
 * took a live lock by mistake (someone broke the stale one and locked anew in between) puts it
 * back with link(), which never overwrites.
 */
function breakStaleLock(lockPath: string): boolean {
  const owner = readOwner(lockPath);
  if (!isStale(lockPath, owner)) return false;
  const aside = `${lockPath}.stale-${process.pid}-${++tokens}`;
  try {
    renameSync(lockPath, aside);
  } catch {
    return true; // someone else moved it: try to lock again
  }
  const taken = readOwner(aside);
  if (taken && owner && taken.token !== owner.token && !isStale(aside, taken)) {
    try {
      linkSync(aside, lockPath);
    } catch {
      // The lock was taken again meanwhile; its new owner goes on.
    }
  }
  unlinkQuietly(aside);
  return true;
}

function releaseLock(lockPath: string, me: LockOwner): void {
  // Only our own lock: if it was broken as stale (we were stopped for a long time), it is not ours to remove.
  if (readOwner(lockPath)?.token === me.token) unlinkQuietly(lockPath);
}
