// defineCommand's flag kinds and definition fields become the commander command help and parsing read.
import { Command } from 'commander';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { App } from '../../src/cmdutil/command.js';
import {
  type AnyCommandDefinition,
  addCommand,
  defaultFlag,
  defineCommand,
  type FlagValues,
  flag,
  type LazySubcommands,
  negatedFlag,
  requiredFlag,
} from '../../src/cmdutil/define.js';

const sink = { write: () => true };
const app = (): App => ({
  ctx: { version: '0.0.0', io: { stdout: sink, stderr: sink } } as unknown as App['ctx'],
  setExitCode: () => undefined,
});

const FLAGS = {
  email: requiredFlag('--email <address>', 'an address', (raw) => raw),
  save: negatedFlag('--no-save', 'do not save'),
  host: defaultFlag('--host <host>', 'where to listen', '127.0.0.1'),
  force: flag('--force', 'replace'),
};

const definition = defineCommand({
  name: 'try',
  hidden: true,
  summary: 'a test command',
  description: 'A test command.',
  args: [{ name: '<shell>', help: 'a shell', choices: ['bash', 'zsh'] }],
  flags: FLAGS,
  run: async () => undefined,
});

describe('defineCommand', () => {
  it('declares them as commander would from .option, .requiredOption and a default', async () => {
    // A negated, a defaulted and a required flag are always there; a plain one may be absent.
    expectTypeOf<FlagValues<typeof FLAGS>>().toEqualTypeOf<
      { email: string; save: boolean; host: string } & { force?: boolean }
    >();
    const command = await addCommand(new Command('root'), app(), definition);
    const byName = new Map(command.options.map((o) => [o.attributeName(), o]));
    expect(byName.get('email')?.mandatory).toBe(true);
    expect(byName.get('save')?.negate).toBe(true);
    expect(byName.get('host')?.defaultValue).toBe('127.0.0.1');
    // Commander gives a negation its true before anything is parsed, and the default its value.
    expect(command.opts()).toEqual({ save: true, host: '127.0.0.1' });
    expect(command.helpInformation()).toContain('(default: "127.0.0.1")');
  });

  it('makes a hidden command and an argument with choices', async () => {
    const root = new Command('root');
    const command = await addCommand(root, app(), definition);
    expect((command as unknown as { _hidden: boolean })._hidden).toBe(true);
    expect(command.registeredArguments[0]?.argChoices).toEqual(['bash', 'zsh']);
    expect(root.helpInformation()).not.toContain('try');
  });
});

describe('a group', () => {
  const sub = (name: string) =>
    defineCommand({ name, description: `the ${name}`, flags: {}, run: async () => undefined });
  const lazy: LazySubcommands = [
    ['one', async () => ({ default: sub('one') })],
    ['two', async () => ({ default: sub('two') })],
  ];
  const group = (subcommands: LazySubcommands | readonly AnyCommandDefinition[]) =>
    defineCommand({
      name: 'group',
      description: 'a group',
      flags: {},
      helpCommand: false,
      usage: '<sub>',
      subcommands,
    });
  const names = (command: Command) => command.commands.map((c) => c.name());

  it('registers the lazy subcommand the line names alone, all of them for any other line', async () => {
    expect(names(await addCommand(new Command('root'), app(), group(lazy), ['two', '--x']))).toEqual(['two']);
    expect(names(await addCommand(new Command('root'), app(), group(lazy), ['tow']))).toEqual(['one', 'two']);
    expect(names(await addCommand(new Command('root'), app(), group(lazy)))).toEqual(['one', 'two']);
  });

  it('registers built subcommands at once, with the usage and without the help command it was given', async () => {
    const command = await addCommand(new Command('root'), app(), group([sub('a'), sub('b')]));
    expect(names(command)).toEqual(['a', 'b']);
    expect(command.usage()).toBe('<sub>');
    expect(command.helpInformation()).not.toContain('help [command]');
  });
});
