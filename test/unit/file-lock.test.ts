// The lock the config file's writers and the journal's recorders share (config/file-lock.ts),
// judged file by file: who holds it, when it is stale, what is swept. The races themselves,
// N processes and SIGKILLs, are in test/e2e/config-safety.test.ts and journal-durability.test.ts.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { acquireLock, isAlive, removeStaleTempFiles } from '../../src/config/file-lock.js';
import { ConfigError, ExitCode } from '../../src/core/errors.js';
import { tempDir } from '../helpers/cli.js';

/** The pid of a process that has ended. */
const deadPid = (() => {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
})();

const owner = (pid: number, host = hostname(), token = `${pid}-1-1`) => JSON.stringify({ pid, host, token });
const old = (path: string, seconds: number) => {
  const when = Date.now() / 1000 - seconds;
  utimesSync(path, when, when);
};

describe('isAlive', () => {
  it('tells a running process from one that has ended', () => {
    expect(isAlive(process.pid)).toBe(true);
    expect(isAlive(deadPid)).toBe(false);
  });
});

describe('acquireLock', () => {
  it('puts a lock that names its owner in place, and the release removes it and nothing else', async () => {
    const dir = tempDir();
    const lock = join(dir, 'config.json.lock');
    const release = await acquireLock(lock, 'the config file');
    const held = JSON.parse(readFileSync(lock, 'utf8'));
    expect(held).toMatchObject({ pid: process.pid, host: hostname() });
    expect(typeof held.token).toBe('string');
    // The claim it was linked from is gone: only the lock is left.
    expect(readdirSync(dir)).toEqual(['config.json.lock']);
    // Only its owner may read or write it (it is the claim, linked into place).
    expect(statSync(lock).mode & 0o777).toBe(0o600);
    release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('releases quietly a lock that is gone already', async () => {
    const lock = join(tempDir(), 'gone.lock');
    const release = await acquireLock(lock, 'x');
    rmSync(lock);
    expect(() => release()).not.toThrow();
  });

  /** `acquire` leaves the free lock alone while `claim` waits beside it, and takes it once the claim is gone. */
  async function expectHeldBackBy(claim: string, lock: string, acquire: () => Promise<() => void>): Promise<void> {
    let taken = false;
    const writer = acquire().then((release) => {
      taken = true;
      return release;
    });
    await new Promise((r) => setTimeout(r, 150));
    expect(taken).toBe(false);
    expect(existsSync(lock)).toBe(false);
    rmSync(claim);
    (await writer)();
    expect(taken).toBe(true);
  }

  it('lets a bulk writer (yieldToWaiters) wait while a live writer waits, and only then take the free lock', async () => {
    const lock = join(tempDir(), 'journal.lock');
    // A waiting recorder: its claim beside the lock (this process, alive).
    const claim = `${lock}.claim-waiting`;
    writeFileSync(claim, owner(process.pid, hostname(), 'waiting'));
    await expectHeldBackBy(claim, lock, () => acquireLock(lock, 'x', 5_000, { yieldToWaiters: true }));
    // A writer without the manners takes the free lock at once beside a claim it cannot place in line.
    writeFileSync(claim, owner(process.pid, hostname(), 'waiting'));
    (await acquireLock(lock, 'x', 50))();
  });

  it('lets the writer that has waited longest take the freed lock, for at most a second of its own wait', async () => {
    const lock = join(tempDir(), 'config.json.lock');
    // A claim as acquireLock names it (<pid>-<ms>-<n>): a live writer waiting since 100 ms ago.
    const claimOf = (pid: number, ms: number, extra = '') => {
      const token = `${pid}-${ms}-1`;
      const path = `${lock}.claim-${token}`;
      writeFileSync(
        path,
        extra ? owner(pid, hostname(), token).replace(/}$/, `,${extra}}`) : owner(pid, hostname(), token),
      );
      return path;
    };
    const older = claimOf(process.pid, Date.now() - 100);
    await expectHeldBackBy(older, lock, () => acquireLock(lock, 'x', 5_000));
    // Not for a younger writer, a bulk one (it lets the others go first anyway), or a dead one.
    for (const claim of [
      claimOf(process.pid, Date.now() + 60_000),
      claimOf(process.pid, Date.now() - 100, '"bulk":true'),
      claimOf(deadPid, Date.now() - 100),
    ]) {
      (await acquireLock(lock, 'x', 50))();
      rmSync(claim, { force: true });
    }
    // A writer ahead that never takes the lock (stopped with Ctrl-Z) holds the others up a second, not their whole wait.
    claimOf(process.pid, Date.now() - 100);
    const since = Date.now();
    (await acquireLock(lock, 'x', 5_000))();
    expect(Date.now() - since).toBeGreaterThanOrEqual(900);
  });

  it('takes a free lock on its first try beside a claim with no owner to read (a write failed or cut short)', async () => {
    for (const manners of [{}, { yieldToWaiters: true }]) {
      const lock = join(tempDir(), 'journal.lock');
      // Named as a live writer's waiting for 2 s (ahead of this one in line), but empty or garbled.
      for (const content of ['', '{"pid":', 'not json']) {
        const claim = `${lock}.claim-${process.pid}-${Date.now() - 2_000}-1`;
        writeFileSync(claim, content);
        vi.useFakeTimers();
        try {
          const taking = acquireLock(lock, 'x', 5_000, manners);
          // No pause before a try was scheduled: it went for the lock at once and holds it.
          expect(vi.getTimerCount()).toBe(0);
          expect(JSON.parse(readFileSync(lock, 'utf8'))).toMatchObject({ pid: process.pid });
          (await taking)();
        } finally {
          vi.useRealTimers();
        }
        rmSync(claim);
      }
    }
  });

  it("lets a bulk writer ignore another bulk writer's claim, and a claim older than any wait", async () => {
    const lock = join(tempDir(), 'journal.lock');
    // Another import, alive: two imports that waited for each other would lose a second a batch.
    const bulk = `${lock}.claim-bulk`;
    writeFileSync(bulk, JSON.stringify({ pid: process.pid, host: hostname(), token: 'bulk', bulk: true }));
    const first = await acquireLock(lock, 'x', 50, { yieldToWaiters: true });
    expect(existsSync(lock)).toBe(true);
    first();
    rmSync(bulk);
    // A live pid's claim left from long ago (a stopped waiter, or a reused pid): nobody waits on it.
    const stuck = `${lock}.claim-stuck`;
    writeFileSync(stuck, owner(process.pid, hostname(), 'stuck'));
    old(stuck, 12);
    const second = await acquireLock(lock, 'x', 50, { yieldToWaiters: true });
    expect(existsSync(lock)).toBe(true);
    second();
  });

  it("lets a bulk writer ignore a dead writer's claim", async () => {
    const lock = join(tempDir(), 'journal.lock');
    writeFileSync(`${lock}.claim-dead`, owner(deadPid, hostname(), 'dead'));
    // 50 ms: far less than it would let a live waiter go first (a second).
    const release = await acquireLock(lock, 'x', 50, { yieldToWaiters: true });
    expect(existsSync(lock)).toBe(true);
    release();
  });

  it('gives two takers of one lock different tokens, and waits for a live holder', async () => {
    const lock = join(tempDir(), 'x.lock');
    const first = await acquireLock(lock, 'x');
    const token = JSON.parse(readFileSync(lock, 'utf8')).token;
    let secondHeld = false;
    const second = acquireLock(lock, 'x').then((release) => {
      secondHeld = true;
      return release;
    });
    await new Promise((r) => setTimeout(r, 60));
    expect(secondHeld).toBe(false);
    first();
    const release = await second;
    expect(JSON.parse(readFileSync(lock, 'utf8')).token).not.toBe(token);
    release();
  });

  it('gives up on a live holder after the wait, exit 3, naming what is locked, the pid and the file to remove', async () => {
    const lock = join(tempDir(), 'config.json.lock');
    writeFileSync(lock, owner(process.pid));
    const err = await acquireLock(lock, 'the config file', 50).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).exitCode).toBe(ExitCode.Config);
    expect((err as ConfigError).message).toBe(
      `the config file is locked by another fcast (pid ${process.pid}) for more than 0.05s`,
    );
    expect((err as ConfigError).hint).toBe(`if no fcast is running, remove ${lock}`);
    // The holder's lock is left as it was, and no claim of ours stays behind.
    expect(readFileSync(lock, 'utf8')).toBe(owner(process.pid));
    expect(readdirSync(join(lock, '..'))).toEqual(['config.json.lock']);
  });

  it("breaks a lock whose owner on this host has died, at once, and sweeps dead writers' claims", async () => {
    const dir = tempDir();
    const lock = join(dir, 'j.lock');
    writeFileSync(lock, owner(deadPid));
    const deadClaim = join(dir, `j.lock.claim-${deadPid}-1-1`);
    writeFileSync(deadClaim, owner(deadPid));
    const liveClaim = join(dir, `j.lock.claim-${process.ppid}-1-1`);
    writeFileSync(liveClaim, owner(process.ppid));
    const started = Date.now();
    const release = await acquireLock(lock, 'the journal', 5_000);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(JSON.parse(readFileSync(lock, 'utf8')).pid).toBe(process.pid);
    expect(existsSync(deadClaim)).toBe(false);
    expect(existsSync(liveClaim)).toBe(true);
    release();
  });

  it("sweeps only claims: an old file whose name merely starts with the lock's is left alone", async () => {
    const dir = tempDir();
    const lock = join(dir, 'config.json.lock');
    writeFileSync(lock, owner(deadPid));
    // A user's copy, with no owner to judge and older than any claim lives.
    const copy = join(dir, 'config.json.lock-copy');
    writeFileSync(copy, 'kept');
    old(copy, 3_600);
    const release = await acquireLock(lock, 'the config file', 5_000);
    release();
    expect(readdirSync(dir).sort()).toEqual(['config.json.lock-copy']);
  });

  it('judges a lock it cannot read an owner from (empty, another host, no token) by its age: 30 s', async () => {
    const noToken = JSON.stringify({ pid: deadPid, host: hostname() });
    const noPid = JSON.stringify({ host: hostname(), token: 't' });
    for (const content of ['', owner(process.pid, 'another-host'), '{"pid":"1"}', 'not json', noToken, noPid]) {
      const lock = join(tempDir(), 'a.lock');
      writeFileSync(lock, content);
      old(lock, 20);
      // Not named by a pid it could not read, or read from another host's table of processes.
      const pid = content === owner(process.pid, 'another-host') ? ` (pid ${process.pid})` : '';
      await expect(acquireLock(lock, 'a', 30)).rejects.toThrow(
        `a is locked by another fcast${pid} for more than 0.03s`,
      );
      old(lock, 31);
      const release = await acquireLock(lock, 'a', 1_000);
      expect(JSON.parse(readFileSync(lock, 'utf8')).pid).toBe(process.pid);
      release();
    }
  });

  it('leaves a lock alone on release once it is no longer its own (broken as stale, taken again)', async () => {
    const lock = join(tempDir(), 'r.lock');
    const release = await acquireLock(lock, 'r');
    writeFileSync(lock, owner(process.pid, hostname(), 'someone-else'));
    release();
    expect(readFileSync(lock, 'utf8')).toBe(owner(process.pid, hostname(), 'someone-else'));
  });
});

describe('removeStaleTempFiles', () => {
  it("removes the temp files of dead writers and its own, never a live writer's or another file's", () => {
    const dir = tempDir();
    const path = join(dir, 'config.json');
    const names = {
      dead: `config.json.tmp-${deadPid}-0`,
      mine: `config.json.tmp-${process.pid}-3`,
      live: `config.json.tmp-${process.ppid}-0`,
      other: `index.json.tmp-${deadPid}-0`,
      self: 'config.json',
    };
    for (const name of Object.values(names)) writeFileSync(join(dir, name), '{}');
    removeStaleTempFiles(path);
    expect(readdirSync(dir).sort()).toEqual([names.self, names.live, names.other].sort());
  });

  it('does nothing where the directory cannot be read', () => {
    expect(() => removeStaleTempFiles(join(tempDir(), 'missing', 'config.json'))).not.toThrow();
  });
});
