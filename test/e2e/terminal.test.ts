// What a person sees on a real terminal (a pty from util-linux `script`): register's new key
// whole, colour or not, and no spinner left behind by Ctrl-C. Skipped where `script` is absent.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { hasScript, runOnPty, screen, withoutColour } from '../helpers/pty.js';
import { racingRegistration } from '../helpers/register-race.js';

const emu = useEmulator();

const KEY = /\b[a-z]+_ag_[0-9a-f]{40}\b/g;
let counter = 0;
const freshEmail = (tag: string) => `pty-${tag}-${process.pid}-${++counter}@example.com`;

describe.skipIf(!hasScript)(`register on a terminal${hasScript ? '' : ' (skipped: no script(1))'}`, () => {
  const cases: Array<[string, string[], Record<string, string>, string | undefined]> = [
    ['colour on a pty', [], {}, undefined],
    ['colour on a pty, --no-save', ['--no-save'], {}, undefined],
    ['FORCE_COLOR=1 on a pty', [], { FORCE_COLOR: '1' }, undefined],
    ['FORCE_COLOR=1, stdout piped', [], { FORCE_COLOR: '1' }, '| cat'],
    ['FORCE_COLOR=1, stdout piped, --no-save', ['--no-save'], { FORCE_COLOR: '1' }, '| cat'],
    ['stdout piped, no colour', [], {}, '| cat'],
    ['--json on a pty', ['--json'], {}, undefined],
    ['--json --no-save, FORCE_COLOR=1, stdout piped', ['--json', '--no-save'], { FORCE_COLOR: '1' }, '| cat'],
  ];
  it.each(cases)('%s: the key is shown whole, once, and it is the key issued', async (_name, flags, env, pipeTo) => {
    const dir = tempDir();
    const r = await runOnPty(['register', '--email', freshEmail('k'), ...flags], {
      env: { FCAST_BASE_URL: emu.server.url, FCAST_CONFIG_DIR: dir, ...env },
      pipeTo,
    });
    expect(r.code, r.output).toBe(0);
    const keys = withoutColour(r.output).match(KEY) ?? [];
    expect(keys, r.output).toHaveLength(1);
    expect(keys[0]).toMatch(/^mfa_ag_/);
    expect(r.output).not.toMatch(/mfa_ag_[0-9a-f]{4}\.\.\./);
    // The very key the service issued: the one saved, or, unsaved, one the service accepts.
    if (flags.includes('--no-save')) {
      expect(existsSync(join(dir, 'config.json'))).toBe(false);
      const use = await emu.run(['symbols', '--json'], { env: { FCAST_API_KEY: keys[0]! } });
      expect(use.code, use.stderr).toBe(0);
    } else {
      expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))['api-key']).toBe(keys[0]);
    }
    // Colour where it was asked for: the key itself is green, its escape sequences intact.
    const coloured = (pipeTo === undefined || env.FORCE_COLOR === '1') && !flags.includes('--json');
    if (coloured) expect(r.output).toContain(`\x1b[32m${keys[0]}\x1b[39m`);
    else expect(r.output).not.toContain('\x1b[32m');
  });

  it('the key is shown whole when saving it fails (exit 3), in colour', async () => {
    // A server that answers with a real key, and as the request arrives stores another key in
    // the very config file fcast checked a moment before: the save is refused.
    const dir = tempDir();
    const race = await racingRegistration(emu.server.url, freshEmail('race'), dir, `mfa_ag_${'ab'.repeat(20)}`);
    try {
      const r = await runOnPty(['register', '--email', 'a@example.com'], {
        env: { FCAST_BASE_URL: race.url, FCAST_CONFIG_DIR: dir },
      });
      expect(r.code, r.output).toBe(3);
      expect(r.output).toContain(`\x1b[32m${race.issued}\x1b[39m`);
      expect(withoutColour(r.output)).toMatch(/the new key was printed but not saved/);
    } finally {
      await race.close();
    }
  });
});

describe.skipIf(!hasScript)(`the spinner on a terminal${hasScript ? '' : ' (skipped: no script(1))'}`, () => {
  it('Ctrl-C during a slow request leaves no spinner text on the screen', async () => {
    emu.server.setFaults([{ kind: 'slow', delayMs: 8000, path: 'demo.php' }]);
    let typed = false;
    const r = await runOnPty(['demo', 'BTC/USD'], {
      env: { FCAST_BASE_URL: emu.server.url },
      onOutput: (output, type) => {
        if (!typed && output.includes('fetching')) {
          typed = true;
          type('\x03');
        }
      },
    });
    expect(typed, r.output).toBe(true);
    expect(r.code, r.output).toBe(130);
    const shown = screen(r.output).filter((l) => l !== '');
    expect(shown, r.output).toEqual(['fcast: interrupted']);
  });
});
