// Where the launcher keeps Node's compile cache (src/launch/compile-cache.ts): the user's cache
// directory, and only a directory of the user's own that no one else can write or replace
// (docs/decisions/2026-12-02-own-files.md). The two-user attacks are test/e2e/own-files.test.ts's.
import { chmodSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ownCacheDir } from '../../src/launch/compile-cache.js';
import { tempDir } from '../helpers/cli.js';

const mode = (path: string) => statSync(path).mode & 0o7777;

describe.skipIf(process.platform === 'win32')('ownCacheDir', () => {
  it('is $XDG_CACHE_HOME/fcast/compile-cache, made 0700', () => {
    const xdg = tempDir();
    const dir = ownCacheDir({ XDG_CACHE_HOME: xdg, HOME: tempDir() }, 'linux');
    expect(dir).toBe(join(xdg, 'fcast', 'compile-cache'));
    expect(mode(join(xdg, 'fcast'))).toBe(0o700);
    expect(mode(dir!)).toBe(0o700);
  });

  it('is under ~/.cache when XDG_CACHE_HOME is unset or not absolute, and ~/Library/Caches on macOS', () => {
    const home = tempDir();
    expect(ownCacheDir({ HOME: home }, 'linux')).toBe(`${home}/.cache/fcast/compile-cache`);
    expect(ownCacheDir({ HOME: home, XDG_CACHE_HOME: 'relative/cache' }, 'linux')).toBe(
      `${home}/.cache/fcast/compile-cache`,
    );
    expect(ownCacheDir({ HOME: home }, 'darwin')).toBe(`${home}/Library/Caches/fcast/compile-cache`);
  });

  it('is none when fcast/ or compile-cache/ may be written by others', () => {
    for (const level of ['fcast', 'fcast/compile-cache']) {
      const xdg = tempDir();
      mkdirSync(join(xdg, 'fcast/compile-cache'), { recursive: true, mode: 0o700 });
      chmodSync(join(xdg, level), 0o770);
      expect(ownCacheDir({ XDG_CACHE_HOME: xdg }, 'linux'), level).toBeUndefined();
    }
  });

  it('is none under a cache directory anyone may write without the sticky bit, and there with it', () => {
    const open = tempDir();
    chmodSync(open, 0o777);
    expect(ownCacheDir({ XDG_CACHE_HOME: open }, 'linux')).toBeUndefined();
    const sticky = tempDir();
    chmodSync(sticky, 0o1777);
    expect(ownCacheDir({ XDG_CACHE_HOME: sticky }, 'linux')).toBe(join(sticky, 'fcast', 'compile-cache'));
  });

  it('is none where the directory cannot be made', () => {
    const file = join(tempDir(), 'file');
    writeFileSync(file, '');
    expect(ownCacheDir({ XDG_CACHE_HOME: file }, 'linux')).toBeUndefined();
  });
});
