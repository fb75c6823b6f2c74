// The lock (config/file-lock.ts) where the file system answers otherwise than a local disk:
// no hard links (FAT, some network shares), a failure that is no lock held, and the race in
// which a stale lock is broken just as another writer locks anew. node:fs is wrapped so that
// a test can step in at one call; every other call goes through.
import { hostname } from 'node:os';
import { readdirSync, readFileSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../helpers/cli.js';

const step = vi.hoisted(() => ({
  link: undefined as undefined | ((from: string, to: string) => void),
  rename: undefined as undefined | ((from: string, to: string) => void),
  open: undefined as undefined | ((path: string, flags: string, mode: number) => number),
  close: undefined as undefined | ((fd: number) => void),
  stat: undefined as undefined | ((path: string) => import('node:fs').Stats),
  writeFile: undefined as undefined | ((path: string, data: string, options: object) => void),
}));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  return {
    ...fs,
    linkSync: (from: string, to: string) => (step.link ?? fs.linkSync)(from, to),
    renameSync: (from: string, to: string) => (step.rename ?? fs.renameSync)(from, to),
    openSync: (path: string, flags: string, mode: number) => (step.open ?? fs.openSync)(path, flags, mode),
    closeSync: (fd: number) => (step.close ?? fs.closeSync)(fd),
    statSync: (path: string) => (step.stat ?? fs.statSync)(path),
    writeFileSync: (path: string, data: string, options: object) =>
      (step.writeFile ?? fs.writeFileSync)(path, data, options),
  };
});

const { acquireLock, isAlive } = await import('../../src/config/file-lock.js');

const failing = (code: string) => () => {
  throw Object.assign(new Error(`${code}: refused`), { code });
};

afterEach(() => {
  for (const name of Object.keys(step) as Array<keyof typeof step>) step[name] = undefined;
  vi.useRealTimers();
  vi.restoreAllMocks();
});

// Above the kernel's largest pid (2^22): never a live process.
const DEAD_PID = 2 ** 22 + 1;
const ownerText = (pid: number, token: string) => JSON.stringify({ pid, host: hostname(), token });

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

  it.each([
    ['another failure of link()', { link: 'EIO' }, 'EIO'],
    ['a lock file that cannot be created', { link: 'EPERM', open: 'EACCES' }, 'EACCES'],
  ] as const)('%s is that failure, at once, not a wait for a lock no one holds', async (_, refusals, code) => {
    step.link = failing(refusals.link);
    if ('open' in refusals) step.open = failing(refusals.open);
    const started = Date.now();
    await expect(acquireLock(join(tempDir(), 'x.lock'), 'x', 5_000)).rejects.toMatchObject({ code });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('closes the lock file it created and wrote, once', async () => {
    step.link = failing('EPERM');
    const opened: number[] = [];
    const closed: number[] = [];
    step.open = (path, flags, mode) => {
      const fd = openReal(path, flags, mode);
      opened.push(fd);
      return fd;
    };
    step.close = (fd) => {
      closed.push(fd);
      closeReal(fd);
    };
    const release = await acquireLock(join(tempDir(), 'x.lock'), 'x');
    release();
    expect(opened).toHaveLength(1);
    expect(closed).toEqual(opened);
  });
});

describe('a claim that cannot be written', () => {
  it('is removed when its write fails after creating it (a full disk), and the failure is thrown', async () => {
    const dir = tempDir();
    step.writeFile = (path, _data, options) => {
      // As a full disk does: the file is created, its bytes are refused.
      writeFileReal(path, '', options);
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    };
    await expect(acquireLock(join(dir, 'journal.lock'), 'the journal', 1_000)).rejects.toMatchObject({
      code: 'ENOSPC',
    });
    step.writeFile = undefined;
    expect(readdirSync(dir)).toEqual([]);
  });

  it("leaves a file alone that held the claim's name already (EEXIST): it is not its own", async () => {
    const dir = tempDir();
    const lock = join(dir, 'journal.lock');
    let claim = '';
    step.writeFile = (path) => {
      // Another file by that name, there before this writer came.
      claim = path;
      writeFileReal(path, 'theirs');
      throw Object.assign(new Error('EEXIST: file already exists'), { code: 'EEXIST' });
    };
    await expect(acquireLock(lock, 'the journal', 1_000)).rejects.toMatchObject({ code: 'EEXIST' });
    step.writeFile = undefined;
    expect(claim).toContain('journal.lock.claim-');
    expect(readFileSync(claim, 'utf8')).toBe('theirs');
  });
});

describe('waiting for a live lock', () => {
  it('tries again a few ms apart at first, then every 20 ms or so: no busy loop', async () => {
    const lock = join(tempDir(), 'w.lock');
    writeFileSync(lock, ownerText(process.pid, 'holder'));
    let tries = 0;
    step.link = (from, to) => {
      tries++;
      linkReal(from, to);
    };
    vi.useFakeTimers();
    // Jitter pinned at 0.75 (0.5 + 0.25): waits of 0.75 x (2, 4, ... 18) ms, then 0.75 x 20.
    vi.spyOn(Math, 'random').mockReturnValue(0.25);
    const waited = expect(acquireLock(lock, 'w', 1_000)).rejects.toThrow('w is locked by another fcast');
    await vi.advanceTimersByTimeAsync(1_100);
    await waited;
    // The fake clock cuts each wait to whole ms: the first 9 come to 65 ms, then 15 ms each,
    // and the 63rd of those passes 1 s; a try before each wait and a last one after.
    expect(tries).toBe(73);
  });
});

describe('breaking a stale lock', () => {
  it('puts back a live lock it moved aside by mistake (taken anew between the look and the move)', async () => {
    const dir = tempDir();
    const lock = join(dir, 'j.lock');
    writeFileSync(lock, ownerText(DEAD_PID, 'dead'));
    const live = ownerText(process.pid, 'live-writer');
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

  // What the move takes instead of the dead lock it judged, and whether it goes back.
  it.each([
    ['a lock with no owner to read (created, not yet written)', ''],
    ["another dead writer's lock", ownerText(DEAD_PID, 'also-dead')],
  ])('does not put back %s: it takes the lock', async (_, swapped) => {
    const lock = join(tempDir(), 'j.lock');
    writeFileSync(lock, ownerText(DEAD_PID, 'dead'));
    const linked: string[] = [];
    step.rename = (from, to) => {
      if (from === lock) writeFileSync(lock, swapped);
      step.rename = undefined;
      renameReal(from, to);
    };
    step.link = (from, to) => {
      linked.push(from);
      linkReal(from, to);
    };
    const release = await acquireLock(lock, 'the journal', 100);
    expect(JSON.parse(readFileSync(lock, 'utf8'))).toMatchObject({ pid: process.pid });
    expect(linked.filter((from) => from.includes('.stale-'))).toEqual([]);
    release();
  });

  it('a lock that goes while it is judged, or is moved by another waiter first, is tried again', async () => {
    for (const vanish of ['stat', 'rename'] as const) {
      const lock = join(tempDir(), 'j.lock');
      // No owner to read: judged by its age, which statSync reads.
      writeFileSync(lock, '');
      const old = new Date(Date.now() - 60_000);
      utimesSync(lock, old, old);
      if (vanish === 'stat')
        step.stat = (path) => {
          step.stat = undefined;
          unlinkSync(path);
          return statReal(path);
        };
      else
        step.rename = (from, to) => {
          step.rename = undefined;
          renameReal(from, `${from}.taken-by-another`);
          renameReal(from, to);
        };
      const release = await acquireLock(lock, 'the journal', 1_000);
      expect(JSON.parse(readFileSync(lock, 'utf8'))).toMatchObject({ pid: process.pid });
      release();
    }
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

const {
  renameSync: renameReal,
  linkSync: linkReal,
  openSync: openReal,
  closeSync: closeReal,
  statSync: statReal,
  writeFileSync: writeFileReal,
} = await vi.importActual<typeof import('node:fs')>('node:fs');
