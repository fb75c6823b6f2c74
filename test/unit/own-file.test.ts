// readOwnFile: a regular file's text, bounded; anything else at the path refused before a read.
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IrregularFileError, readOwnFile } from '../../src/core/own-file.js';
import { tempDir } from '../helpers/cli.js';

const refusal = (f: () => unknown): string => {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(IrregularFileError);
    return (err as IrregularFileError).why;
  }
  throw new Error('not refused');
};

describe('readOwnFile', () => {
  it('reads a regular file whole, and nothing for a missing one', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a'), 'é'.repeat(1000));
    expect(readOwnFile(join(dir, 'a'), 2000)).toBe('é'.repeat(1000));
    expect(readOwnFile(join(dir, 'missing'), 10)).toBeUndefined();
    expect(readOwnFile(join(dir, 'missing', 'below'), 10)).toBeUndefined();
  });

  it('refuses a file larger than the cap, by one byte', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a'), 'x'.repeat(2049));
    expect(readOwnFile(join(dir, 'a'), 2049)).toHaveLength(2049);
    expect(refusal(() => readOwnFile(join(dir, 'a'), 2048))).toBe('is larger than 2 KiB; not read');
  });

  it('refuses a link (to a file too), a FIFO, a device and a directory, without waiting', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'real'), '{}');
    symlinkSync(join(dir, 'real'), join(dir, 'link'));
    symlinkSync('/dev/zero', join(dir, 'zero'));
    spawnSync('mkfifo', [join(dir, 'fifo')]);
    mkdirSync(join(dir, 'sub'));
    expect(refusal(() => readOwnFile(join(dir, 'link'), 100))).toBe('is a symbolic link; only a regular file is read');
    expect(refusal(() => readOwnFile(join(dir, 'zero'), 100))).toBe('is a symbolic link; only a regular file is read');
    expect(refusal(() => readOwnFile(join(dir, 'fifo'), 100))).toBe('is a FIFO; only a regular file is read');
    expect(refusal(() => readOwnFile('/dev/zero', 100))).toBe('is a device; only a regular file is read');
    expect(refusal(() => readOwnFile(join(dir, 'sub'), 100))).toBe('is a directory; only a regular file is read');
  });
});
