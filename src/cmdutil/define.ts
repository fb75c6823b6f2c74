// A command in one place: `defineCommand({ name, summary, description, args, flags, examples,
// notes, formats, run })`, as Wrangler's createCommand and gh's NewCmdX do it. The flags are a
// record of typed definitions, and `run` gets their values typed from that record: the types and
// the declarations cannot drift apart. `addCommand` turns a definition into commander's command
// (the tree help and completion read); it checks that each key is the name commander gives the
// flag, so a renamed flag fails every test that builds the tree, not a user's run.
import { Argument, type Command, type HelpConfiguration, Option } from 'commander';
import type { OutputFormat } from '../core/domain.js';
import { action, type App, type Run } from './command.js';
import { examples as examplesHelp, type HelpText, helpNotes } from './help.js';

/** One flag: how commander declares it, and (for the types) the value `run` gets. */
export interface Flag<T> {
  /** A fresh commander Option each time (an Option belongs to one command). */
  readonly option: () => Option;
  /** Never set: carries T for FlagValues. */
  readonly value?: T;
  /** Whether the value is always there (a required option, or one with a default). */
  readonly always?: boolean;
}

/** `--offline`: true when given. */
export function flag(spec: string, help: string): Flag<boolean> {
  return { option: () => new Option(spec, help) };
}

/** `--bins <n>`: the value `parse` makes of what was typed (exit 2 from parse for a bad one). */
export function valueFlag<T>(spec: string, help: string, parse: (raw: string, previous: T | undefined) => T): Flag<T> {
  return { option: () => new Option(spec, help).argParser(parse) };
}

/** A flag that must be given: commander refuses the line without it (exit 2). */
export function requiredFlag<T>(spec: string, help: string, parse: (raw: string) => T): Flag<T> & { always: true } {
  return { option: () => new Option(spec, help).argParser(parse).makeOptionMandatory(), always: true };
}

/** `--host <host>` with a value when not given: always there, its default shown in help as commander shows it. */
export function defaultFlag<T>(
  spec: string,
  help: string,
  value: T,
  parse?: (raw: string, previous: T) => T,
): Flag<T> & { always: true } {
  return {
    option: () => {
      const option = new Option(spec, help).default(value);
      return parse ? option.argParser(parse) : option;
    },
    always: true,
  };
}

/** `--no-save`: true unless given (commander's negation), read under the positive name (`save`). */
export function negatedFlag(spec: `--no-${string}`, help: string): Flag<boolean> & { always: true } {
  return { option: () => new Option(spec, help), always: true };
}

/** A flag built elsewhere as a commander Option (shared by several commands). */
export function optionFlag<T>(make: () => Option): Flag<T> {
  return { option: make };
}

export type Flags = Readonly<Record<string, Flag<unknown>>>;

/** What `run` gets: each flag's value, absent when not given (unless it is always there). */
export type FlagValues<F extends Flags> = {
  [K in keyof F as F[K] extends { always: true } ? K : never]: F[K] extends Flag<infer T> ? T : never;
} & {
  [K in keyof F as F[K] extends { always: true } ? never : K]?: F[K] extends Flag<infer T> ? T : never;
};

/** A positional argument, as commander writes it: `<file>`, `[symbols...]`. */
export interface Arg {
  readonly name: string;
  readonly help: string;
  /** The only values accepted (commander refuses any other, exit 2, and completion offers them). */
  readonly choices?: readonly string[];
}

export interface CommandDefinition<F extends Flags, A extends unknown[]> {
  readonly name: string;
  /** Left out of help and of the listings (a command the completion scripts call). */
  readonly hidden?: boolean;
  /** One line, for the listing of the parent's help (without one, the listing shows the description). */
  readonly summary?: string;
  /** The paragraph at the top of the command's own help. */
  readonly description: string;
  readonly args?: readonly Arg[];
  readonly flags: F;
  /** The --format values it gives, the default first (default: table and json). */
  readonly formats?: readonly OutputFormat[];
  /** Shown under "Examples", each a command line and what it does. */
  readonly examples?: ReadonlyArray<readonly [command: string, what: string]>;
  /** Sections after the examples (before them with notesFirst): a title and its paragraphs, or a shared text. */
  readonly notes?: ReadonlyArray<readonly [title: string, ...paragraphs: string[]] | HelpText>;
  readonly notesFirst?: boolean;
  /** The usage line after the command's path, when commander's own (`[options] [args...]`) says less. */
  readonly usage?: string;
  /** Commander's help hooks for this command alone (how its subcommands or arguments are shown). */
  readonly help?: HelpConfiguration;
  /** A group's subcommands: loaded lazily (only the one the line names), or built at once. */
  readonly subcommands?: LazySubcommands | readonly AnyCommandDefinition[];
  /** `help [command]` among a group's subcommands, as commander adds it (default: shown). */
  readonly helpCommand?: boolean;
  /**
   * The body: its exit code, or nothing for success. The arguments come as commander parsed
   * them. A group without one shows its help when no subcommand is named.
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: a body that returns nothing means success
  run?(run: Run, flags: FlagValues<F>, ...args: A): Promise<number | void>;
}

/** A definition, typed: `run`'s flags from `flags`. The identity at run time. */
export function defineCommand<F extends Flags, A extends unknown[] = []>(
  definition: CommandDefinition<F, A>,
): CommandDefinition<F, A> {
  return definition;
}

// biome-ignore lint/suspicious/noExplicitAny: a definition of any flags and arguments
export type AnyCommandDefinition = CommandDefinition<any, any>;

/**
 * Registers `definition` under `parent`, as commander's command with its help and its action,
 * and its subcommands: of lazy ones, those that `rest` (the line after the command's name)
 * needs, as addSubcommandsOf() chooses them.
 */
export async function addCommand(
  parent: Command,
  app: App,
  definition: AnyCommandDefinition,
  rest?: readonly string[],
): Promise<Command> {
  const command = addOne(parent, app, definition);
  const { subcommands } = definition;
  if (subcommands === undefined) return command;
  if (subcommands.length > 0 && typeof subcommands[0] === 'object' && 'name' in subcommands[0])
    for (const sub of subcommands as readonly AnyCommandDefinition[]) await addCommand(command, app, sub);
  else await addSubcommandsOf(command, app, subcommands as LazySubcommands, rest);
  return command;
}

function addOne(parent: Command, app: App, definition: AnyCommandDefinition): Command {
  const command = parent
    .command(definition.name, { hidden: definition.hidden === true })
    .description(definition.description);
  if (definition.summary !== undefined) command.summary(definition.summary);
  if (definition.usage !== undefined) command.usage(definition.usage);
  for (const arg of definition.args ?? []) {
    const argument = new Argument(arg.name, arg.help);
    command.addArgument(arg.choices ? argument.choices(arg.choices) : argument);
  }
  if (definition.helpCommand === false) command.helpCommand(false);
  if (definition.help !== undefined) command.configureHelp(definition.help);
  for (const [key, flag] of Object.entries(definition.flags as Flags)) {
    const option = flag.option();
    if (option.attributeName() !== key) {
      throw new Error(
        `${definition.name}: the flag ${option.flags} is read as '${option.attributeName()}', not '${key}'`,
      );
    }
    command.addOption(option);
  }
  const notes = (definition.notes ?? []).map((note) =>
    typeof note === 'function' ? note : helpNotes(note[0], ...note.slice(1)),
  );
  const shown = definition.examples?.length
    ? [examplesHelp(...definition.examples.map(([c, w]) => [c, w] as [string, string]))]
    : [];
  for (const help of definition.notesFirst ? [...notes, ...shown] : [...shown, ...notes])
    command.addHelpText('after', help);
  const body = definition.run;
  if (body === undefined) return command;
  return command.action(
    action(app, (run, opts, ...args: unknown[]) => body(run, opts as never, ...args), {
      formats: definition.formats,
    }),
  );
}

/** A group's subcommands, each loaded only when the line names it (or when the whole group is needed). */
export type LazySubcommands = ReadonlyArray<
  readonly [name: string, load: () => Promise<{ default: AnyCommandDefinition }>]
>;

/**
 * Registers under `group` the subcommand that `rest` (what the line holds after the group's
 * name) names first, alone; any other line (none named, a misspelt name, a flag first,
 * completion, the group's help) registers them all, in the list's order, so help and
 * suggestions see every one.
 */
export async function addSubcommandsOf(
  group: Command,
  app: App,
  subcommands: LazySubcommands,
  rest?: readonly string[],
): Promise<void> {
  const named = rest?.[0] === undefined ? undefined : subcommands.find(([name]) => name === rest[0]);
  const chosen = named === undefined ? subcommands : [named];
  const loaded = await Promise.all(chosen.map(([, load]) => load()));
  for (const module of loaded) await addCommand(group, app, module.default);
}
