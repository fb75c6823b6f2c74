// A full disk mid-write: the file is cut back to its old length, so the journal never keeps half
// a line from a failure it saw; the recorder's caller gets the error (a warning for predict).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { tempDir } from '../helpers/cli.js';

const failing = vi.hoisted(() => ({ on: false }));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  return {
    ...fs,
    // Writes half, as a disk that fills up mid-write does, then says ENOSPC.
    writeSync: ((fd: number, data: Buffer, ...rest: unknown[]) => {
      // Only the journal's lines (a Buffer); the lock file's owner (a string) is written as usual.
      if (!failing.on || typeof data === 'string')
        return (fs.writeSync as (...a: unknown[]) => number)(fd, data, ...rest);
      fs.writeSync(fd, data.subarray(0, Math.floor(data.length / 2)));
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    }) as typeof fs.writeSync,
  };
});

const { appendLines } = await import('../../src/journal/journal-files.js');
const { withJournal } = await import('../../src/journal/store.js');

describe('a write that fails', () => {
  it('leaves the file as it was', () => {
    const path = join(tempDir(), 'full.jsonl');
    writeFileSync(path, '{"a":1}\n');
    failing.on = true;
    try {
      expect(() => appendLines(path, '{"b":2}\n{"c":3}\n')).toThrow(/ENOSPC/);
    } finally {
      failing.on = false;
    }
    expect(readFileSync(path, 'utf8')).toBe('{"a":1}\n');
  });

  it('is a clear journal error, with a hint, and the journal still works after', async () => {
    const data = join(tempDir(), 'data');
    const f = {
      v: 2,
      kind: 'price' as const,
      origin: 'https://api.example.com',
      symbol: 'BTC/USD',
      t: 1_795_348_800,
      last: 1,
      tier: 'free',
      delay_min: 15,
      recorded_at: 1,
    };
    await withJournal(data, (tx) => tx.append([f]));
    failing.on = true;
    try {
      await expect(withJournal(data, (tx) => tx.append([{ ...f, t: f.t + 60 }]))).rejects.toThrow(
        /^journal: cannot write .*ENOSPC/,
      );
    } finally {
      failing.on = false;
    }
    await withJournal(data, (tx) => {
      expect(tx.hasPrice(f)).toBe(true);
      expect(tx.hasPrice({ ...f, t: f.t + 60 })).toBe(false);
    });
  });
});
