// A run registers only the command it names; completion gets the whole tree; help, no command
// and unknown names get the listing (COMMAND_LIST), so listings and suggestions never miss a command.
import { describe, expect, it } from 'vitest';
import type { App } from '../../src/cmdutil/command.js';
import { buildProgram, commandLine, commandListing, SHARED_COMMAND_FLAGS } from '../../src/cli/program.js';
import { COMMAND_LIST } from '../../src/cli/command-list.js';

const sink = { write: () => true };
const app = (): App => ({
  ctx: { version: '0.0.0', io: { stdout: sink, stderr: sink } } as unknown as App['ctx'],
  setExitCode: () => undefined,
});
const registered = async (argv?: string[]) => (await buildProgram(app(), argv)).commands.map((c) => c.name());

describe('the command tree', () => {
  it('registers only the named command, past global flags and their values', async () => {
    expect(await registered(['demo', '--json'])).toEqual(['demo']);
    expect(await registered(['--timeout', '5', '--json', 'predict', 'BTC/USD'])).toEqual(['predict']);
    // A flag's value that happens to be a command name is not the command.
    expect(await registered(['--base-url', 'demo', 'symbols'])).toEqual(['symbols']);
    expect(await registered(['--base-url=http://x', 'cmd', 'macro'])).toEqual(['cmd']);
    expect(await registered(['__complete-symbols'])).toEqual(['__complete-symbols']);
    // Past the shared command flags typed first, and their values: one root serves both the
    // search for the command and the moving of those flags (commandLine).
    expect(await registered(['--interval', '5', '--watch', '--count=2', 'demo'])).toEqual(['demo']);
    expect(await registered(['--count', '3', '--record', 'predict', 'BTC/USD'])).toEqual(['predict']);
  });

  it("registers only journal's subcommand named right after it; all of them for anything else", async () => {
    const subcommands = async (argv: string[]) =>
      (await buildProgram(app(), argv)).commands.find((c) => c.name() === 'journal')?.commands.map((c) => c.name());
    expect(await subcommands(['journal', 'report', '--offline'])).toEqual(['report']);
    expect(await subcommands(['--json', 'journal', 'prune', '--before', '2026-01-01'])).toEqual(['prune']);
    // Every one the whole tree has (none listed here: a new subcommand changes no test).
    const every = (await buildProgram(app())).commands
      .find((c) => c.name() === 'journal')!
      .commands.map((c) => c.name());
    expect(every.length).toBeGreaterThan(2);
    // The group's help, a misspelt or missing subcommand (suggestions), a flag before the name.
    for (const argv of [['journal'], ['journal', '--help'], ['journal', 'repot'], ['journal', '--help', 'report']])
      expect(await subcommands(argv), argv.join(' ')).toEqual(every);
  });

  it("registers only config's subcommand named right after it; all five for anything else", async () => {
    const subcommands = async (argv: string[]) =>
      (await buildProgram(app(), argv)).commands.find((c) => c.name() === 'config')?.commands.map((c) => c.name());
    expect(await subcommands(['config', 'list', '--json'])).toEqual(['list']);
    const five = ['list', 'get', 'set', 'unset', 'path'];
    for (const argv of [['config'], ['config', '--help'], ['config', 'lst'], ['config', '--json', 'list']])
      expect(await subcommands(argv), argv.join(' ')).toEqual(five);
  });

  it('registers every command for completion and without argv', async () => {
    const all = await registered();
    expect(all.length).toBeGreaterThan(10);
    const whole = await buildProgram(app());
    expect(whole.commands.find((c) => c.name() === 'journal')?.commands.length).toBeGreaterThan(3);
    const completion = await buildProgram(app(), ['completion', 'bash']);
    expect(completion.commands.map((c) => c.name())).toEqual(all);
    expect(completion.commands.find((c) => c.name() === 'journal')?.commands.length).toBeGreaterThan(3);
  });

  it('lists every command, loading none, for help, no command, an unknown name and a command after --', async () => {
    const all = await registered();
    for (const argv of [[], ['--help'], ['help', 'demo'], ['demoo'], ['--', 'demo']]) {
      const program = await buildProgram(app(), argv);
      expect(program.commands.map((c) => c.name())).toEqual(all);
      // Stand-ins: a group's subcommands are not there.
      expect(program.commands.find((c) => c.name() === 'journal')?.commands).toEqual([]);
    }
  });

  it("COMMAND_LIST is the whole tree's listing (else: npm run build && npm run completions)", async () => {
    expect(COMMAND_LIST).toEqual(commandListing(await buildProgram(app())));
  });
});

describe('the shared command flags before the command', () => {
  it('move after the command, with their values, past the global flags and before --', async () => {
    const root = await buildProgram(app(), []);
    expect(
      commandLine(root, ['--format', 'json', '--interval', '5', '--watch', 'predict', 'BTC/USD', '--tf', '1h']),
    ).toEqual(['--format', 'json', 'predict', 'BTC/USD', '--tf', '1h', '--interval', '5', '--watch']);
    expect(commandLine(root, ['--count=2', '--base-url', 'demo', 'demo', '--', 'x'])).toEqual([
      '--base-url',
      'demo',
      'demo',
      '--count=2',
      '--',
      'x',
    ]);
    // After the command's name, and without any of them, the line is as typed.
    const typed = ['demo', '--record', '--watch', '--interval', '5'];
    expect(commandLine(root, typed)).toEqual(typed);
  });

  it('are flags of commands, each taking a value exactly where the commands declare one', async () => {
    const program = await buildProgram(app());
    const declared = new Map<string, boolean[]>();
    const walk = (command: typeof program) => {
      for (const o of command.options) if (o.long) declared.set(o.long, [...(declared.get(o.long) ?? []), o.required]);
      for (const sub of command.commands) walk(sub);
    };
    for (const sub of program.commands) walk(sub);
    for (const [flag, takesValue] of SHARED_COMMAND_FLAGS) {
      expect(declared.get(flag), flag).toBeDefined();
      expect(new Set(declared.get(flag)), flag).toEqual(new Set([takesValue]));
      // Never one of the root's own: those commander reads anywhere already.
      expect(program.options.map((o) => o.long)).not.toContain(flag);
    }
  });
});
