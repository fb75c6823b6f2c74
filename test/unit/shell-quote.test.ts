// Every path in a hint goes through shellQuote; pasted into bash, zsh or fish it must be the
// same word, whatever the name holds (quotes, backslashes, $(...), newlines), and run nothing.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { shellQuote } from '../../src/core/shell-quote.js';
import { underCi } from '../helpers/oracles.js';
import { tempDir } from '../helpers/cli.js';

const has = (shell: string) => spawnSync(shell, ['-c', 'true'], { stdio: 'ignore' }).status === 0;
const SHELLS = ['bash', 'zsh', 'fish'].filter((s) => has(s) || underCi());

/** What `shell` makes of `printf '%s' <quoted>`: the word it read, run in an empty directory. */
function pasted(shell: string, quoted: string, cwd: string): string {
  const r = spawnSync(shell, ['-c', `printf '%s' ${quoted}`], { cwd, encoding: 'utf8' });
  expect(r.stderr).toBe('');
  return r.stdout;
}

const HOSTILE = [
  '',
  'plain',
  "x'$(touch HINT-PWN)'y",
  "it's",
  "''",
  '\\',
  "a\\'b",
  'trail\\',
  'a b\tc',
  '$(touch HINT-PWN)',
  '`touch HINT-PWN`',
  '; touch HINT-PWN #',
  '(touch HINT-PWN)',
  '{a,b}*?[x]~',
  'line\nbreak',
  '%s %d !! !$',
];

describe('shellQuote', () => {
  it('gives the shapes a reader expects', () => {
    expect(shellQuote('/home/me/.local/share/fcast')).toBe("'/home/me/.local/share/fcast'");
    expect(shellQuote("it's")).toBe("'it'\\''s'");
    expect(shellQuote('')).toBe("''");
    expect(shellQuote("'")).toBe("\\'");
  });

  for (const shell of SHELLS) {
    it(`reads back every hostile name as it is in ${shell}, and runs nothing`, () => {
      const cwd = tempDir();
      for (const name of HOSTILE)
        expect(pasted(shell, shellQuote(name), cwd), `${shell}: ${JSON.stringify(name)}`).toBe(name);
      expect(readdirSync(cwd)).toEqual([]);
    });
  }

  // Printable ASCII and the characters the shells treat specially, in any order.
  const word = fc.string({
    unit: fc.constantFrom(...` !"#$%&'()*+,-./09:;<=>?@AZ[\\]^_\`az{|}~\t\n`.split('')),
    maxLength: 24,
  });
  test.prop([fc.array(word, { minLength: 20, maxLength: 20 })], { numRuns: 5 })('any word, in bash', (words) => {
    const cwd = tempDir();
    // One shell for the lot: a NUL-free separator the words cannot hold.
    const r = spawnSync('bash', ['-c', words.map((w) => `printf '%s\\001' ${shellQuote(w)}`).join('; ')], {
      cwd,
      encoding: 'utf8',
    });
    expect(r.stdout.split('\u0001').slice(0, -1)).toEqual(words);
    expect(existsSync(`${cwd}/HINT-PWN`)).toBe(false);
  });
});
