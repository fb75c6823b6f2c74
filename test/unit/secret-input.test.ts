// Reading a key from a terminal with echo off, a piped key, and a yes/no answer.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { checkTypedKey, GATEWAY_KEY_KIND, REST_KEY_KIND, type KeyKind } from '../../src/config/keys.js';
import type { Reader } from '../../src/core/context.js';
import { ExitCode, type FcastError, InterruptedError } from '../../src/core/errors.js';
import { confirm, readHiddenLine, readPiped } from '../../src/config/secret-input.js';

function terminal() {
  const stdin = new PassThrough() as PassThrough & Reader & { isTTY: boolean; rawModes: boolean[] };
  stdin.isTTY = true;
  stdin.rawModes = [];
  stdin.setRawMode = (mode: boolean) => {
    stdin.rawModes.push(mode);
    return stdin;
  };
  let shown = '';
  const stderr = {
    write: (s: string) => {
      shown += s;
      return true;
    },
  };
  return { stdin, stderr, shown: () => shown };
}

describe('readHiddenLine', () => {
  it('turns echo off while reading, back on after, and never writes what was typed', async () => {
    const t = terminal();
    const typed = readHiddenLine(t.stdin, t.stderr, 'Key: ');
    t.stdin.write('mfa_ag_ab');
    t.stdin.write('cd\r');
    expect(await typed).toBe('mfa_ag_abcd');
    expect(t.stdin.rawModes).toEqual([true, false]);
    expect(t.shown()).toBe('Key: \n');
  });

  it('handles backspace, Ctrl-U and pasted escape sequences', async () => {
    const t = terminal();
    const typed = readHiddenLine(t.stdin, t.stderr, '');
    t.stdin.write('wrong\x15ab\x7fc\x1b[200~de\x1b[201~\n');
    expect(await typed).toBe('acde');
  });

  it('treats Ctrl-C as an interruption and restores the terminal', async () => {
    const t = terminal();
    const typed = readHiddenLine(t.stdin, t.stderr, '');
    t.stdin.write('abc\x03');
    await expect(typed).rejects.toBeInstanceOf(InterruptedError);
    expect(t.stdin.rawModes).toEqual([true, false]);
  });

  it('ends on Ctrl-D at an empty line, and on the end of input', async () => {
    const t = terminal();
    const typed = readHiddenLine(t.stdin, t.stderr, '');
    t.stdin.write('\x04');
    expect(await typed).toBe('');
    const u = terminal();
    const ended = readHiddenLine(u.stdin, u.stderr, '');
    u.stdin.end('partial');
    expect(await ended).toBe('partial');
  });
});

describe('readPiped and confirm', () => {
  it('reads everything piped in, and refuses a flood', async () => {
    const small = new PassThrough();
    small.end('key\n');
    expect(await readPiped(small)).toBe('key\n');
    const flood = new PassThrough();
    flood.end('x'.repeat(70 * 1024));
    await expect(readPiped(flood)).rejects.toMatchObject({ exitCode: ExitCode.Usage });
  });

  it('takes only y or yes as a yes', async () => {
    for (const [answer, expected] of [
      ['y\n', true],
      ['YES\r\n', true],
      ['n\n', false],
      ['\n', false],
      ['yep\n', false],
    ] as const) {
      const t = terminal();
      const asked = confirm(t.stdin, t.stderr, 'Remove?');
      t.stdin.write(answer);
      expect(await asked, answer).toBe(expected);
      expect(t.shown()).toBe('Remove? [y/N] ');
    }
  });
});

describe('checkTypedKey', () => {
  const key = `mfa_ag_${'a1'.repeat(20)}`;
  const refusal = (kind: KeyKind, typed: string): FcastError => {
    try {
      checkTypedKey(kind, typed, false);
    } catch (err) {
      return err as FcastError;
    }
    throw new Error('expected a refusal');
  };

  it('trims a REST key and accepts only <prefix>_ag_ + 40 lowercase hex', () => {
    expect(checkTypedKey(REST_KEY_KIND, `  ${key}\n`, false)).toBe(key);
    for (const bad of [
      key.toUpperCase(),
      key.slice(0, -1),
      `${key}0`,
      `mfa-ag-${'a1'.repeat(20)}`,
      `_ag_${'a1'.repeat(20)}`,
    ]) {
      expect(refusal(REST_KEY_KIND, bad).exitCode, bad).toBe(ExitCode.Usage);
    }
  });

  it('accepts any printable token as a gateway key, but not spaces or an empty paste', () => {
    expect(checkTypedKey(GATEWAY_KEY_KIND, 'gw_live.Abc-123_xyz\n', false)).toBe('gw_live.Abc-123_xyz');
    expect(refusal(GATEWAY_KEY_KIND, 'two words here').exitCode).toBe(ExitCode.Usage);
    expect(refusal(GATEWAY_KEY_KIND, 'short').exitCode).toBe(ExitCode.Usage);
    expect(refusal(GATEWAY_KEY_KIND, '  ').message).toMatch(/no gateway key given/);
  });

  it('never repeats the rejected text', () => {
    const secret = 'my-very-secret-password-123';
    const err = refusal(REST_KEY_KIND, secret);
    expect(err.message).toMatch(/it has 27 characters; not shown/);
    expect(err.message + (err.hint ?? '')).not.toContain(secret);
  });
});
