// The command tree's help and its errors, which program.ts builds on: the help of a command
// (the formats it gives, a group given no command), the root help's footer, `fcast help`
// (a command's help or a topic's), and commander's usage errors in fcast's words, each
// pointing at the help of the command it is about.
import { type Argument, Command, CommanderError, type HelpContext as CommanderHelpContext } from 'commander';
import { action, type ActionHandler, type App, commandPath, formatsHelp, withHelpHint } from '../cmdutil/command.js';
import { docsPointer } from '../core/docs-pointer.js';
import type { OutputFormat } from '../core/domain.js';
import { UsageError } from '../core/errors.js';
import { examples, HELP_WIDTH, type HelpContext, helpRows, helpWidth, wrapHelp } from '../cmdutil/help.js';
import { HELP_TOPICS } from '../cmdutil/help-topics.js';
import { closest, shown } from '../cmdutil/input.js';

/**
 * A command that knows the formats its action gives (action() tells them), so that its help
 * lists them: every command of the tree is one, since commander makes subcommands with
 * createCommand.
 */
export class FcastCommand extends Command {
  formats: readonly OutputFormat[] | undefined;

  /**
   * Every command of the tree; none gets commander's own help command (`help [command]` in a
   * group's list): `fcast help auth login` and `-h` say it, for every group alike.
   */
  override createCommand(name?: string): FcastCommand {
    return new FcastCommand(name).helpCommand(false);
  }

  override action(fn: Parameters<Command['action']>[0]): this {
    this.formats = (fn as Partial<ActionHandler>).formats;
    return super.action(fn);
  }

  /**
   * A group given no command (`fcast journal`): one line naming its commands and a pointer to
   * its help, exit 2, as `fcast cmd` alone says; the whole help only when asked for.
   */
  override help(context?: CommanderHelpContext | ((str: string) => string)): never {
    if (typeof context === 'object' && context.error && this.parent && this.commands.length > 0) {
      const names = this.commands.map((c) => c.name()).filter((n) => n !== 'help');
      const path = commandPath(this);
      this.configureOutput().writeErr?.(
        `fcast: 'fcast ${path}' needs a command: ${names.join(', ')}\n  hint: see 'fcast ${path} --help'\n`,
      );
      throw new CommanderError(1, 'commander.help', '(outputHelp)');
    }
    return super.help(context as never);
  }
}

/**
 * The formats section of a command's help; none for a command that only groups others (auth,
 * cmd), nor for one that gives only its default (mock: "--format table" would offer no choice).
 */
export function formatsSection({ command }: { command: Command }): string {
  if (!(command instanceof FcastCommand) || !command.formats || command.commands.length > 0) return '';
  if (command.formats.length < 2) return '';
  return formatsHelp(command.formats);
}

/**
 * A usage error names the help of the command it is about: commander's own (`fcast register`
 * without --email: "see 'fcast register --help'") and a flag value our parsers refuse. Each
 * command gets its own error output, made once the tree is complete.
 */
export function pointErrorsAtHelp(command: Command): void {
  // Commander leaves a description unwrapped where fewer than 40 columns remain beside the
  // flags (a terminal 60 wide): wrapped in 20, it still fits.
  command.configureHelp({ ...command.configureHelp(), minWidthToWrap: 20 });
  const path = commandPath(command);
  const hint = `see 'fcast ${path ? `${path} ` : ''}--help'`;
  command.configureOutput({
    outputError: (s, write) => write(`fcast: ${redactTyped(commanderMessage(s))}\n  hint: ${hint}\n`),
  });
  for (const option of command.options) {
    const parse = option.parseArg;
    if (parse)
      option.argParser((value: string, previous: unknown) => withHelpHint(() => parse(value, previous), command));
  }
  for (const sub of command.commands) pointErrorsAtHelp(sub);
}

/**
 * The root's help command: a command's help, or a topic's (HELP_TOPICS). `treeFor` gives the
 * tree holding a top-level command's own definition (program.ts: the program itself, or one
 * built with the command's module where the listing has only its stand-in).
 */
export function addHelpCommand(program: Command, app: App, treeFor: (name: string) => Promise<Command>): void {
  program
    .helpCommand(false)
    .command('help')
    .summary('help on a command, or on a topic below')
    .description("Shows a command's help (as 'fcast COMMAND --help' does) or one of the help topics.")
    .argument('[topic...]', `a command, or a topic: ${Object.keys(HELP_TOPICS).join(', ')}`)
    .addHelpText(
      'after',
      examples(
        ['fcast help settings', 'every setting and where it is read'],
        ['fcast help auth login', "the same as 'fcast auth login --help'"],
      ),
    )
    .action(
      action(
        app,
        async (run, _opts, words: string[]) => {
          const [first] = words;
          if (first === undefined) return void program.outputHelp();
          // Own keys only: `fcast help constructor` is no topic, whatever Object.prototype holds.
          const topic = Object.hasOwn(HELP_TOPICS, first.toLowerCase()) ? HELP_TOPICS[first.toLowerCase()] : undefined;
          if (topic && words.length === 1) {
            const width = run.ctx.io.stdout.isTTY ? Math.min(HELP_WIDTH, run.out.columns) : HELP_WIDTH;
            return void run.out.data(topic.render(width));
          }
          let command = await treeFor(first);
          for (const word of words) {
            const next = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
            if (!next || next.name() === 'help') throw unknownHelpTopic(word, command);
            command = next;
          }
          command.outputHelp();
        },
        // Text only: `fcast help exit-codes --json` is exit 2, as any format a command cannot give.
        { formats: ['table'] },
      ),
    );
}

function unknownHelpTopic(word: string, parent: Command): UsageError {
  if (parent.parent) {
    const near = closest(
      word,
      parent.commands.map((c) => c.name()),
    );
    return new UsageError(
      `fcast ${commandPath(parent)} has no command '${word}'${near ? `; did you mean '${near}'?` : ''}`,
      {
        hint: `see 'fcast ${commandPath(parent)} --help'`,
      },
    );
  }
  const names = [
    ...parent.commands.filter((c) => c.name() !== 'help').map((c) => c.name()),
    ...Object.keys(HELP_TOPICS),
  ];
  const near = closest(word, names);
  return new UsageError(`no command or help topic '${word}'${near ? `; did you mean '${near}'?` : ''}`, {
    hint: `the topics are ${Object.keys(HELP_TOPICS).join(', ')}; 'fcast --help' lists the commands`,
  });
}

/**
 * Commander's error in fcast's words, on one line: its "(Did you mean login?)" joins the line,
 * and a value outside an argument's choices gets the likely one, as fcast's own checks say it.
 */
function commanderMessage(text: string): string {
  const message = text
    .replace(/^error: /, '')
    .trimEnd()
    .replace(/\s*\n\(Did you mean (.+)\?\)$/, ' (did you mean $1?)');
  const choice =
    /^(?:command-argument value|option '.+' argument) '(.*)' is invalid(?: for argument '(.+)')?\. Allowed choices are (.+)\.$/s.exec(
      message,
    );
  if (!choice) return message;
  const [, value = '', name, list = ''] = choice;
  const allowed = list.split(', ');
  const near = closest(value, allowed);
  return `invalid ${name ? `<${name}>` : 'value'} ${shown(value)}${near ? ` (did you mean ${near}?)` : ''}; choose one of ${allowed.join(', ')}`;
}

/**
 * Commander repeats what was typed in its errors ("unknown option '--api-key=...'"). A key
 * pasted on the command line must not reach a CI log that way: option values are masked here,
 * and anything shaped like a key by the redactor every write passes.
 */
function redactTyped(message: string): string {
  return message.replace(/(--?[\w-]+)=[^'\s]+/g, '$1=<redacted>');
}

export const argumentTerm = (arg: Argument): string => {
  const name = `${arg.name()}${arg.variadic ? '...' : ''}`;
  return arg.required ? `<${name}>` : `[${name}]`;
};

/** The end of the root help: the topics, then where to start and where the reference is. */
export function rootHelpFooter(context: HelpContext): string {
  const width = helpWidth(context);
  const topics = Object.entries(HELP_TOPICS).map(([name, topic]): [string, string] => [name, topic.summary]);
  return [
    '',
    "Help topics ('fcast help TOPIC'):",
    helpRows(topics, width),
    '',
    wrapHelp(
      "Start here: 'fcast mock' serves the whole API offline; 'fcast demo' needs no key. " +
        "Each command's flags and examples: 'fcast COMMAND --help' or 'man fcast-COMMAND'; the reference: " +
        `${docsPointer('reference.md')}.`,
      0,
      width,
    ),
  ].join('\n');
}
