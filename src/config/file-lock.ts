// An exclusive lock file (O_EXCL) beside what it guards, held for the few milliseconds of a
// read-modify-write: the config file's writers and the journal's recorders take it the same way.
// No library: proper-lockfile keeps a lock alive with timers and judges staleness by age only,
// where a lock held for a few milliseconds by a process that is alive or dead is simpler to
// judge by its pid.
// The lock file appears with its owner already in it: the owner is written to a file of its own
// beside the lock, which link() then puts in place (link fails when the lock exists, and never
// follows a link there). A lock created empty and written after could, its creator killed in
// between, hold no owner to judge: every writer would then wait for it to age (30 s), and
// give up meanwhile.
import {
  closeSync,
  linkSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { ConfigError } from '../core/errors.js';
import { TEMP_MARK, unlinkQuietly } from './atomic-write.js';

/** Longer than any write takes: a writer holds the lock for a few milliseconds. */
const LOCK_WAIT_MS = 10_000;
/** A lock file whose owner cannot be told (empty, another host) is stale after this. */
const UNKNOWN_OWNER_STALE_MS = 30_000;
/**
 * The longest pause between two tries of a waiting writer (before jitter). The lock is held for
 * milliseconds, so a try is one link() and a small read; a longer pause only lengthens the wait
 * of a writer that arrives while a bulk writer (an import) holds it for a batch.
 */
const MAX_PAUSE_MS = 20;
/**
 * How long a bulk writer lets the writers already waiting go first, each time it takes the
 * lock: longer than any of their writes, so that it only ever waits for ones that died (whose
 * claims are judged stale) or a stream that never ends.
 */
const YIELD_MS = 1_000;

interface LockOwner {
  pid: number;
  host: string;
  token: string;
  /** A writer of many batches (yieldToWaiters): others of its kind do not wait for its claim. */
  bulk?: true;
}

let tokens = 0;

export interface LockManners {
  /**
   * A writer of batch after batch (journal import) lets every writer already waiting for the
   * lock take it first (for at most YIELD_MS). Without it, a lock that polls has no queue: the
   * bulk writer, back for its next batch within a millisecond, won turn after turn against
   * recorders that were pausing between their tries (the waits measured beside a million-row
   * import: docs/decisions/2026-11-27-journal-steps.md).
   */
  yieldToWaiters?: boolean;
}

/**
 * Takes the lock at `lockPath`, waiting for a live owner (at most 10 s) and breaking a dead
 * one's; `what` names the guarded thing in the error ("the config file"). Returns the release.
 * Every waiter's claim (its owner file) sits beside the lock while it waits: that is how a
 * bulk writer sees who is waiting.
 */
export async function acquireLock(
  lockPath: string,
  what: string,
  waitMs = LOCK_WAIT_MS,
  { yieldToWaiters = false }: LockManners = {},
): Promise<() => void> {
  const me: LockOwner = { pid: process.pid, host: hostname(), token: `${process.pid}-${Date.now()}-${++tokens}` };
  if (yieldToWaiters) me.bulk = true;
  const started = Date.now();
  const claim = `${lockPath}${CLAIM_MARK}${me.token}`;
  try {
    writeFileSync(claim, JSON.stringify(me), { mode: 0o600, flag: 'wx' });
  } catch (err) {
    // Created, then its write failed (a full disk): not left behind empty. Unless the name was
    // taken already (EEXIST): that file is not ours.
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') unlinkQuietly(claim);
    throw err;
  }
  waitingClaims.add(claim);
  removeOnExit();
  // Until no live writer has waited longer than this one; then it stays so (later ones are younger).
  let behind = !yieldToWaiters;
  try {
    for (let attempt = 0; ; attempt++) {
      let yielding = false;
      if (Date.now() - started < YIELD_MS) {
        if (yieldToWaiters) yielding = othersWaiting(lockPath, claim);
        else if (behind) yielding = behind = waitingLonger(lockPath, me);
      }
      if (!yielding && tryCreateLock(lockPath, claim, me)) return () => releaseLock(lockPath, me);
      if (!yielding && breakStaleLock(lockPath)) continue;
      if (Date.now() - started > waitMs) {
        const owner = readOwner(lockPath);
        throw new ConfigError(
          `${what} is locked by another fcast${owner ? ` (pid ${owner.pid})` : ''} for more than ${waitMs / 1000}s`,
          { hint: `if no fcast is running, remove ${lockPath}` },
        );
      }
      // A few ms at first, then up to MAX_PAUSE_MS, with jitter so waiting writers spread out;
      // a bulk writer that lets others go first looks again soon (they take the lock within
      // milliseconds). The writer first in line keeps its pace: the others let it go first.
      const soon = yieldToWaiters && yielding;
      const ms = (soon ? 2 : Math.min(MAX_PAUSE_MS, 2 + attempt * 2)) * (0.5 + Math.random());
      await new Promise((done) => setTimeout(done, ms));
    }
  } finally {
    waitingClaims.delete(claim);
    unlinkQuietly(claim);
  }
}

/**
 * The claims of this process's writers while they wait. Ctrl-C ends a waiting command with
 * process.exit, past the finally that removes its claim: the claim is removed on the way out,
 * rather than left for the next broken lock to sweep. One listener for the process, however
 * many writers wait at once.
 */
const waitingClaims = new Set<string>();
let removingOnExit = false;
const removeOnExit = (): void => {
  if (removingOnExit) return;
  removingOnExit = true;
  process.on('exit', () => {
    for (const claim of waitingClaims) unlinkQuietly(claim);
  });
};

/** Between a lock's name and its owner's token, in the name of the file that claims it. */
const CLAIM_MARK = '.claim-';

/**
 * Whether a writer other than the one of `mine` (its claim) waits for the lock, one a bulk
 * writer lets go first: not another bulk writer (two imports would each wait for the other's
 * claim on every batch), not a dead one, and not one whose claim is older than any wait (a
 * waiter stopped with Ctrl-Z, or a dead one's claim whose pid was given to another process).
 */
function othersWaiting(lockPath: string, mine: string): boolean {
  return marked(lockPath, CLAIM_MARK).some(({ path }) => path !== mine && waitsAndGoesFirst(path));
}

/**
 * Whether the claim at `path` is a live writer's, still waiting, that is not a bulk writer. A
 * claim with no owner to read (empty, or not JSON) is no writer to wait for: it is one being
 * written this instant (a writer just come, which has waited for nothing yet) or one whose write
 * failed or was cut short. Judged by its age, such a claim held every ordinary writer up for the
 * first second of its wait, and an import for a second a batch, until it aged out (11 s).
 */
function waitsAndGoesFirst(path: string): boolean {
  const owner = readOwner(path);
  return owner !== undefined && owner.bulk !== true && !isStale(path, owner) && !outlivedAnyWait(path);
}

/**
 * Whether a writer that has waited longer than `me` still waits (not a bulk writer, which lets
 * the others go first anyway, and not a dead or long-gone one): then `me` lets it take the
 * freed lock first. A lock that polls has no queue of its own, and the writers just come
 * were the ones to win it: they try again within milliseconds where one that has waited a while
 * pauses up to MAX_PAUSE_MS. Beside an import and seven other recorders, a recorder could so
 * lose turn after turn (docs/decisions/2026-11-27-journal-steps.md). For at most YIELD_MS of its own wait, so
 * that a waiter stopped with Ctrl-Z holds nobody up for longer.
 */
function waitingLonger(lockPath: string, me: LockOwner): boolean {
  const mine = placeInLine(me.token)!;
  return marked(lockPath, CLAIM_MARK).some(({ path, tail }) => {
    // The claim's name carries its token: only a claim ahead of this one is read.
    const place = placeInLine(tail);
    return place !== undefined && ahead(place, mine) && waitsAndGoesFirst(path);
  });
}

/** A token's parts (`<pid>-<ms>-<n>`, acquireLock's): when its writer began to wait, its pid and count. */
function placeInLine(token: string): [ms: number, pid: number, n: number] | undefined {
  const parts = /^(\d+)-(\d+)-(\d+)$/.exec(token);
  return parts ? [Number(parts[2]), Number(parts[1]), Number(parts[3])] : undefined;
}

const ahead = (a: readonly number[], b: readonly number[]): boolean =>
  a[0]! < b[0]! || (a[0] === b[0] && (a[1]! < b[1]! || (a[1] === b[1] && a[2]! < b[2]!)));

/** A claim older than the longest wait (and a margin): its writer is not waiting any more. */
function outlivedAnyWait(path: string): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs > LOCK_WAIT_MS + 1_000;
  } catch {
    return true; // gone: nobody waits on it
  }
}

/** Puts the claim (the owner, written) in place as the lock; false when the lock is taken. */
function tryCreateLock(lockPath: string, claim: string, me: LockOwner): boolean {
  try {
    linkSync(claim, lockPath);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    // A file system without hard links (FAT, some network shares): create, then write.
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'ENOSYS' || code === 'EOPNOTSUPP')
      return createThenWrite(lockPath, me);
    throw err;
  }
}

function createThenWrite(lockPath: string, me: LockOwner): boolean {
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
  removeDeadClaims(lockPath);
  return true;
}

/**
 * The claims of writers that died before removing theirs (killed between writing it and
 * unlinking it): a few bytes each, swept whenever a dead writer's lock is broken. A claim is
 * judged as a lock is: by its pid on this host, else by its age (a live claim lives at most
 * the 10 s of a wait).
 */
function removeDeadClaims(lockPath: string): void {
  for (const { path } of marked(lockPath, CLAIM_MARK)) {
    const owner = readOwner(path);
    // Its own claim is never stale: its pid is alive.
    if (isStale(path, owner)) unlinkQuietly(path);
  }
}

/** The files beside `path` named after it and `mark` (`config.json.tmp-...`), with what follows the mark. */
function marked(path: string, mark: string): Array<{ path: string; tail: string }> {
  const prefix = `${basename(path)}${mark}`;
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return [];
  }
  return names
    .filter((name) => name.startsWith(prefix))
    .map((name) => ({ path: join(dirname(path), name), tail: name.slice(prefix.length) }));
}

function releaseLock(lockPath: string, me: LockOwner): void {
  // Only our own lock: if it was broken as stale (we were stopped for a long time), it is not ours to remove.
  if (readOwner(lockPath)?.token === me.token) unlinkQuietly(lockPath);
}

/**
 * The temp files of `path` (atomic-write.ts's, or any named `<name>.tmp-<pid>...`) left by a
 * writer killed before its rename. Call it under the lock, so that none of them is being
 * written. (The config file: the key one held is not lost with it, `register` prints a key
 * before saving it, and `auth login` was given it. The journal's index is a cache.)
 */
export function removeStaleTempFiles(path: string): void {
  for (const temp of marked(path, TEMP_MARK)) {
    // Only a dead writer's: should a broken stale lock ever leave two holders, the other's
    // temp file is its write in progress (atomic-write.ts names it by pid).
    const pid = Number(temp.tail.split('-')[0]);
    if (pid === process.pid || !isAlive(pid)) unlinkQuietly(temp.path);
  }
}
