// The lock (config/file-lock.ts) where the file system answers otherwise than a local disk:
// no hard links (FAT, some network shares), a failure that is no lock held, and the race in
// which a stale lock is broken just as another writer locks anew. node:fs is wrapped so that
// a test can step in at one call; every other call goes through.
import { hostname } from 'node:os';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../helpers/cli.js';

const step = vi.hoisted(() => ({
  link: undefined as undefined | ((from: string, to: string) => void),
  rename: undefined as undefined | ((from: string, to: string) => void),
}));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  return {
    ...fs,
    linkSync: (from: string, to: string) => (step.link ?? fs.linkSync)(from, to),
    renameSync: (from: string, to: string) => (step.rename ?? fs.renameSync)(from, to),
  };
});

const { acquireLock, isAlive } = await import('../../src/config/file-lock.js');

const failing = (code: string) => () => {
  throw Object.assign(new Error(`${code}: refused`), { code });
};

afterEach(() => {
  step.link = undefined;
  step.rename = undefined;
  vi.restoreAllMocks();
});

describe('a file system without hard links', () => {
  it.each(['EPERM', 'ENOTSUP', 'ENOSYS', 'EOPNOTSUPP'])(
    'link() refused with %s: the lock is created, then its owner written; a held one is waited for',
    async (code) => {
      step.link = failing(code);
      const lock = join(tempDir(), 'config.json.lock');
      const release = await acquireLock(lock, 'the config file');
      expect(JSON.parse(readFileSync(lock, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() });
      expect(statSync(lock).mode & 0o777).toBe(0o600);
      await expect(acquireLock(lock, 'the config file', 30)).rejects.toThrow(
        `the config file is locked by another fcast (pid ${process.pid}) for more than 0.03s`,
      );
      release();
    },
  );

  it('another failure of link() is that failure, at once, not a wait for a lock no one holds', async () => {
    step.link = failing('EIO');
    const started = Date.now();
    await expect(acquireLock(join(tempDir(), 'x.lock'), 'x', 5_000)).rejects.toMatchObject({ code: 'EIO' });
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe('breaking a stale lock', () => {
  it('puts back a live lock it moved aside by mistake (taken anew between the look and the move)', async () => {
    const dir = tempDir();
    const lock = join(dir, 'j.lock');
    // Above the kernel's largest pid (2^22): never a live process.
    writeFileSync(lock, JSON.stringify({ pid: 2 ** 22 + 1, host: hostname(), token: 'dead' }));
    const live = JSON.stringify({ pid: process.pid, host: hostname(), token: 'live-writer' });
    step.rename = (from, to) => {
      // Another writer broke the dead lock and took it just before this move.
      if (from === lock) writeFileSync(lock, live);
      step.rename = undefined;
      renameReal(from, to);
    };
    await expect(acquireLock(lock, 'the journal', 100)).rejects.toThrow(
      `the journal is locked by another fcast (pid ${process.pid})`,
    );
    expect(readFileSync(lock, 'utf8')).toBe(live);
  });
});

describe('isAlive', () => {
  it("takes a process it may not signal (another user's) for alive, and only a missing one for dead", () => {
    vi.spyOn(process, 'kill').mockImplementation(failing('EPERM'));
    expect(isAlive(4242)).toBe(true);
    vi.spyOn(process, 'kill').mockImplementation(failing('ESRCH'));
    expect(isAlive(4242)).toBe(false);
  });
});

const { renameSync: renameReal } = await vi.importActual<typeof import('node:fs')>('node:fs');
