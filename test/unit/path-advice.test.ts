// README's bash PATH advice appended to ~/.profile only, but a login bash reads the first of
// ~/.bash_profile, ~/.bash_login and ~/.profile that exists (macOS often has ~/.bash_profile),
// so the PATH line never reached login shells there. The block, run as written in a HOME of its
// own, writes where a login bash will read it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pasteBlocks, REPO } from '../helpers/docs.js';

const LINE = 'export PATH="$HOME/.local/bin:$PATH"';
const block = pasteBlocks(readFileSync(join(REPO, 'README.md'), 'utf8'), 'README.md').find(
  (b) => b.name === 'path-bash',
)!;
const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
});

/** Runs the block in bash with a HOME holding `files`; returns what each login file then says. */
function run(files: string[]): Record<string, string | undefined> {
  const home = mkdtempSync(join(tmpdir(), 'fcast-home-'));
  homes.push(home);
  for (const f of files) writeFileSync(join(home, f), '');
  const r = spawnSync('bash', ['-e', '-c', block.script], {
    env: { PATH: process.env.PATH ?? '', HOME: home },
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
  const read = (f: string) => (existsSync(join(home, f)) ? readFileSync(join(home, f), 'utf8') : undefined);
  return { bash_profile: read('.bash_profile'), bash_login: read('.bash_login'), profile: read('.profile') };
}

describe("README's bash PATH block", () => {
  it('appends to ~/.bash_profile when it exists, leaving ~/.profile alone', () => {
    const got = run(['.bash_profile', '.profile']);
    expect(got.bash_profile).toBe(`${LINE}\n`);
    expect(got.profile).toBe('');
  });

  it('appends to ~/.bash_login when it is the first that exists', () => {
    expect(run(['.bash_login'])).toEqual({ bash_profile: undefined, bash_login: `${LINE}\n`, profile: undefined });
  });

  it('appends to ~/.profile when neither exists', () => {
    expect(run([])).toEqual({ bash_profile: undefined, bash_login: undefined, profile: `${LINE}\n` });
  });
});
