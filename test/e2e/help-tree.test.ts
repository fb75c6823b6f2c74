// Help is built from part of the command tree: a command's own module for `fcast X --help` and
// `fcast help X`, and for the root's help none at all (the stand-ins of COMMAND_LIST). Every
// help text must be byte for byte what the whole tree, every module loaded, prints.
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import type { App } from '../../src/cmdutil/command.js';
import { buildProgram } from '../../src/cli/program.js';
import { expectExit, runCli, spawnFcast } from '../helpers/cli.js';

/** The whole tree, printing into `out`: as main's program is configured, on a pipe (80 columns). */
async function wholeTree(out: { text: string }): Promise<Command> {
  const writer = {
    isTTY: false,
    write: (s: string) => {
      out.text += s;
      return true;
    },
  };
  const app = {
    ctx: { version: '0.0.0', io: { stdout: writer, stderr: writer } },
    setExitCode: () => undefined,
  } as unknown as App;
  return buildProgram(app);
}

const printed = { text: '' };
const whole = await wholeTree(printed);

/** Every command of the tree with its path, hidden ones included (`fcast help __complete-symbols`). */
function commands(root: Command): Array<[path: string[], command: Command]> {
  const found: Array<[string[], Command]> = [];
  const walk = (command: Command, prefix: string[]) => {
    for (const sub of command.commands) {
      if (sub.name() === 'help' && !command.parent) continue;
      const path = [...prefix, sub.name()];
      found.push([path, sub]);
      walk(sub, path);
    }
  };
  walk(root, []);
  return found;
}

/** What the whole tree prints as `command`'s help. */
function wholeHelp(command: Command): string {
  printed.text = '';
  command.outputHelp();
  return printed.text;
}

describe('help from part of the tree', () => {
  it('the root: --help, -h, and help alone print what the whole tree prints', async () => {
    const expected = wholeHelp(whole);
    expect(expected).toMatch(/^ {2}journal\b/m);
    for (const argv of [['--help'], ['-h'], ['help']]) {
      const r = await runCli(argv);
      expectExit(r, 0);
      expect(r.stdout, argv.join(' ')).toBe(expected);
      expect(r.stderr).toBe('');
    }
  });

  it('the installed command: --help, -h and help on a pipe (the text the build wrote, or main with colour forced)', async () => {
    const expected = wholeHelp(whole);
    for (const [argv, env] of [
      [['--help'], {}],
      [['-h'], {}],
      [['help'], {}],
      [['--help'], { FORCE_COLOR: '1' }],
    ] as const) {
      const r = await spawnFcast([...argv], env);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout, `${argv.join(' ')} ${JSON.stringify(env)}`).toBe(expected);
      expect(r.stderr).toBe('');
    }
  });

  it('the installed command: a secret of the environment that shows in the help is masked, as main masks it', async () => {
    // A gateway key that is a word of the help, and a proxy password that is one: main's
    // redactor masks them; the text the build wrote would not, so bin leaves the help to main.
    for (const [env, word] of [
      [{ FCAST_GATEWAY_KEY: 'terminal' }, 'terminal'],
      [{ HTTPS_PROXY: 'http://u:forecasts@proxy.invalid:8080' }, 'forecasts'],
    ] as const) {
      expect(wholeHelp(whole)).toContain(word);
      const r = await spawnFcast(['--help'], env);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).not.toContain(word);
      expect(r.stdout).toContain('<redacted>');
      expect(r.stdout).toBe((await spawnFcast(['--help'], { ...env, FORCE_COLOR: '1' })).stdout);
    }
  });

  it('a bare fcast prints the whole tree’s help on stderr', async () => {
    const r = await runCli([]);
    expect(r.stderr).toBe(wholeHelp(whole));
    expect(r.stdout).toBe('');
  });

  it('every command and subcommand: COMMAND --help and help COMMAND print what the whole tree prints', async () => {
    const all = commands(whole);
    expect(all.length).toBeGreaterThan(30);
    for (const [path, command] of all) {
      const expected = wholeHelp(command);
      for (const argv of [
        [...path, '--help'],
        ['help', ...path],
      ]) {
        const r = await runCli(argv);
        expectExit(r, 0);
        expect(r.stdout, `fcast ${argv.join(' ')}`).toBe(expected);
      }
    }
  });

  it('a command commander finds where the first look did not (past --) runs from the whole tree', async () => {
    const r = await runCli(['--', 'demo', '--json']);
    expectExit(r, 2);
    // demo's own check ran: '--json' came after --, a symbol.
    expect(r.stderr).toMatch(/^fcast: the demo has no symbol '--json'/);
  });
});
