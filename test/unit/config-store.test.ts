// The config store (config/config-store.ts) call by call: the bytes and modes it writes, the
// guard against a change made meanwhile, and the one line each failure is told in.
import { existsSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkConfigDirWritable,
  configLocationProblem,
  openConfigStore,
  prepareConfigDir,
} from '../../src/config/config-store.js';
import { FcastError } from '../../src/core/errors.js';
import { tempDir } from '../helpers/cli.js';

const mode = (path: string) => statSync(path).mode & 0o777;

/** What a call threw (or its promise rejected with), as the user is told it. */
async function told(run: () => unknown) {
  try {
    await run();
  } catch (err) {
    if (!(err instanceof FcastError)) throw err;
    return { exitCode: err.exitCode, message: err.message, hint: err.hint };
  }
  throw new Error('nothing was thrown');
}

describe('the config store', () => {
  it('writes config.json tab-indented with a final newline, 0600, in the 0700 directories it creates', async () => {
    const dir = join(tempDir(), 'home', 'fcast');
    const store = await openConfigStore(dir);
    await store.set('timeout', 5);
    await store.set('base-url', 'https://api.example');
    const path = join(dir, 'config.json');
    expect(store.path).toBe(path);
    expect(readFileSync(path, 'utf8')).toBe('{\n\t"timeout": 5,\n\t"base-url": "https://api.example"\n}\n');
    expect(store.get('timeout')).toBe(5);
    await store.delete('timeout');
    expect(readFileSync(path, 'utf8')).toBe('{\n\t"base-url": "https://api.example"\n}\n');
    expect([mode(path), mode(dir), mode(join(dir, '..'))]).toEqual([0o600, 0o700, 0o700]);
    expect(readdirSync(dir)).toEqual(['config.json']);
  });

  it('refuses to replace a value another process changed meanwhile: exit 3, what to do, nothing written', async () => {
    const dir = tempDir();
    const store = await openConfigStore(dir);
    await store.set('api-key', 'first', { ifStill: undefined });
    writeFileSync(join(dir, 'config.json'), '{"api-key": "theirs"}');
    expect(await told(() => store.set('api-key', 'mine', { ifStill: 'first' }))).toEqual({
      exitCode: 3,
      message: `another process changed api-key in ${join(dir, 'config.json')} meanwhile; nothing was replaced`,
      hint: 'run the command again to see what is stored now (--force replaces it)',
    });
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe('{"api-key": "theirs"}');
  });

  it('a value that cannot be written is exit 3 naming the file, which keeps what it held; the lock is released', async () => {
    const dir = tempDir();
    const store = await openConfigStore(dir);
    await store.set('retries', 1);
    expect(await told(() => store.set('retries', 10n))).toEqual({
      exitCode: 3,
      message: `cannot write config file ${join(dir, 'config.json')}: Do not know how to serialize a BigInt`,
      hint: undefined,
    });
    await store.set('retries', 2);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe('{\n\t"retries": 2\n}\n');
    expect(readdirSync(dir)).toEqual(['config.json']);
  });
});

describe('a config directory that cannot hold keys, in one line each (exit 3)', () => {
  it('a file where the directory should be, or in its path', async () => {
    const file = join(tempDir(), 'plain');
    writeFileSync(file, '');
    expect(await told(() => prepareConfigDir(file))).toEqual({
      exitCode: 3,
      message: `cannot create the config directory ${file}: ${file} is not a directory (ENOTDIR)`,
      hint: 'point FCAST_CONFIG_DIR at a directory',
    });
    expect(await told(() => prepareConfigDir(join(file, 'fcast')))).toEqual({
      exitCode: 3,
      message: `cannot write config file ${join(file, 'fcast', 'config.json')}: a part of the path is not a directory (ENOTDIR)`,
      hint: undefined,
    });
  });

  it('a link that points at itself, refused when writing and reported by doctor’s check', async () => {
    const loop = join(tempDir(), 'loop');
    symlinkSync(loop, loop);
    const expected = {
      exitCode: 3,
      message: `cannot write config file ${join(loop, 'config.json')}: too many symbolic links (ELOOP)`,
      hint: undefined,
    };
    expect(await told(() => prepareConfigDir(loop))).toEqual(expected);
    const problem = configLocationProblem(loop);
    expect(problem && { exitCode: problem.exitCode, message: problem.message, hint: problem.hint }).toEqual(expected);
  });

  it('an error the system gives no words for keeps its code and its own words, once', async () => {
    const dir = join(tempDir(), 'x'.repeat(300));
    expect(await told(() => prepareConfigDir(dir))).toEqual({
      exitCode: 3,
      message: `cannot write config file ${join(dir, 'config.json')}: ENAMETOOLONG name too long, stat '${dir}'`,
      hint: undefined,
    });
  });

  // sysfs takes no file from anyone (EACCES), nor a directory from root (EPERM; EACCES for others).
  it.runIf(existsSync('/sys/kernel/mm'))(
    'a directory that refuses fcast, or one that cannot be made: permission denied, and what to do about it',
    async () => {
      expect(await told(() => checkConfigDirWritable('/sys/kernel/mm'))).toEqual({
        exitCode: 3,
        message: 'cannot write config file /sys/kernel/mm/config.json: permission denied (EACCES)',
        hint: "chmod 700 '/sys/kernel/mm', or point FCAST_CONFIG_DIR at a private directory",
      });
      const dir = '/sys/fcast-never-made/fcast';
      const refused = process.getuid?.() === 0 ? 'operation not permitted (EPERM)' : 'permission denied (EACCES)';
      expect(await told(() => prepareConfigDir(dir))).toEqual({
        exitCode: 3,
        message: `cannot write config file ${dir}/config.json: ${refused}`,
        hint: 'point FCAST_CONFIG_DIR at a directory you can write',
      });
    },
  );

  it('the probe before register’s request leaves nothing behind, and a missing directory is told as such', async () => {
    const dir = tempDir();
    checkConfigDirWritable(dir);
    expect(readdirSync(dir)).toEqual([]);
    const gone = join(dir, 'gone');
    expect(await told(() => checkConfigDirWritable(gone))).toEqual({
      exitCode: 3,
      message: `cannot write config file ${join(gone, 'config.json')}: no such file (ENOENT)`,
      hint: undefined,
    });
  });
});
