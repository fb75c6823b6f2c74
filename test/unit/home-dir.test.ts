import { spawnSync } from 'node:child_process';
import { homedir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { homeDirectory } from '../../src/core/home-dir.js';

describe('homeDirectory: as os.homedir() finds it, without loading node:os first', () => {
  it('takes HOME as it is, empty too, on every platform but Windows', () => {
    expect(homeDirectory({ HOME: '/home/ann' }, 'linux')).toBe('/home/ann');
    expect(homeDirectory({ HOME: '/Users/ann', USERPROFILE: 'C:\\x' }, 'darwin')).toBe('/Users/ann');
    expect(homeDirectory({ HOME: '' }, 'linux')).toBe('');
  });

  it('takes USERPROFILE on Windows, not HOME', () => {
    expect(homeDirectory({ USERPROFILE: 'C:\\Users\\ann', HOME: '/home/ann' }, 'win32')).toBe('C:\\Users\\ann');
  });

  it('asks the system when the variable is not set', () => {
    expect(homeDirectory({}, 'linux')).toBe(homedir());
    expect(homeDirectory({ HOME: '/home/ann' }, 'win32')).toBe(homedir());
  });

  // Node's own answer, in processes whose environment says each case: HOME is taken as it is.
  it.each([
    ['set', { HOME: '/tmp/somewhere-else' }],
    ['empty', { HOME: '' }],
  ])('agrees with os.homedir() in a process whose HOME is %s', (_, home) => {
    const env: Record<string, string> = { PATH: process.env.PATH ?? '', ...home };
    const run = spawnSync(process.execPath, ['-p', "JSON.stringify(require('node:os').homedir())"], {
      env,
      encoding: 'utf8',
    });
    expect(run.status).toBe(0);
    expect(homeDirectory(env, process.platform)).toBe(JSON.parse(run.stdout));
  });
});
