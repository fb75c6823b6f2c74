// The command tree. A run loads only the module of the command it names (`fcast demo` never
// parses the other thirteen). The root's help, `fcast help`, a bare `fcast` and an unknown name
// load none: they list the commands from COMMAND_LIST (command-list.ts, made from the whole
// tree by `npm run completions`), each a stand-in with the name, arguments and summary the
// listing shows. Completion loads them all. Command modules hold definitions and import their
// heavy parts only when their action runs. The help and the usage errors: program-help.ts.
import { type Command, Option } from 'commander';
import type { App } from '../cmdutil/command.js';
import { addCommand, type AnyCommandDefinition } from '../cmdutil/define.js';
import type { Writer } from '../core/context.js';
import { COMPLETE_SYMBOLS_COMMAND } from '../completion/names.js';
import { flagParser, settingFlags } from '../config/setting-flags.js';
import { HELP_WIDTH } from '../cmdutil/help.js';
import { COMMAND_LIST, type CommandListing } from './command-list.js';
import {
  addHelpCommand,
  argumentTerm,
  FcastCommand,
  formatsSection,
  pointErrorsAtHelp,
  rootHelpFooter,
} from './program-help.js';
import { helpColourByEnv } from './help-colour.js';

/** A command's module: its definition (defineCommand), a group's with its subcommands. */
type CommandModule = { default: AnyCommandDefinition };

/** `rest`: the line after the command's name, when the line names it (a group then registers only the subcommand it names). */
async function registerModule(module: CommandModule, program: Command, app: App, rest?: readonly string[]) {
  await addCommand(program, app, module.default, rest);
}

/** Every command module, by the top-level names it registers, in the order help lists them. */
const COMMAND_MODULES: ReadonlyArray<readonly [names: readonly string[], load: () => Promise<CommandModule>]> = [
  [['discover'], () => import('../commands/discover.js')],
  [['demo'], () => import('../commands/demo.js')],
  [['register'], () => import('../commands/register.js')],
  [['auth'], () => import('../commands/auth/index.js')],
  [['config'], () => import('../commands/config/index.js')],
  [['predict'], () => import('../commands/predict.js')],
  [['symbols'], () => import('../commands/symbols.js')],
  [['track-record'], () => import('../commands/track-record/track-record.js')],
  [['accuracy'], () => import('../commands/track-record/accuracy.js')],
  [['verify'], () => import('../commands/verify.js')],
  [['journal'], () => import('../commands/journal/index.js')],
  [['cmd'], () => import('../commands/cmd.js')],
  [['api'], () => import('../commands/api.js')],
  [['completion'], () => import('../commands/completion.js')],
  [[COMPLETE_SYMBOLS_COMMAND], () => import('../commands/complete-symbols.js')],
  [['doctor'], () => import('../commands/doctor.js')],
  [['mock'], () => import('../commands/mock.js')],
  [['mcp'], () => import('../commands/mcp.js')],
];
/**
 * Flags that several commands share and that may, like the global ones, come before the
 * command's name (`fcast --watch demo` = `fcast demo --watch`), with whether each takes a
 * value. commandLine() moves them after it; the command still decides whether it takes them
 * (`fcast --watch symbols` is symbols' unknown option, exit 2).
 */
export const SHARED_COMMAND_FLAGS: ReadonlyMap<string, boolean> = new Map([
  ['--record', false],
  ['--watch', false],
  ['--interval', true],
  ['--count', true],
  ['--alert', true],
  ['--on-alert', true],
  ['--exit-on-alert', false],
  ['--no-annotations', false],
]);

/**
 * The command line as commander is to read it: the shared command flags typed before the
 * command's name (with their values) moved to its end, before any `--`. Commander reads the
 * root's options wherever they are, but a command's own only after its name. `program` is the
 * root buildProgram() made for this line.
 */
export function commandLine(program: Command, argv: readonly string[]): string[] {
  // Most lines hold none of them: those are read as typed.
  if (!argv.some((arg) => SHARED_COMMAND_FLAGS.has(arg.split('=')[0]!))) return [...argv];
  const rootTakesValue = rootValueFlags(program);
  const kept: string[] = [];
  const moved: string[] = [];
  let i = 0;
  for (; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--' || !arg.startsWith('-')) break;
    const takesValue = SHARED_COMMAND_FLAGS.get(arg.split('=')[0]!);
    const into = takesValue === undefined ? kept : moved;
    into.push(arg);
    if ((takesValue ?? rootTakesValue.has(arg)) && !arg.includes('=') && i + 1 < argv.length) into.push(argv[++i]!);
  }
  if (moved.length === 0) return [...argv];
  const rest = argv.slice(i);
  const end = rest.includes('--') ? rest.indexOf('--') : rest.length;
  return [...kept, ...rest.slice(0, end), ...moved, ...rest.slice(end)];
}

/** The root's options that take a value, long and short names. */
function rootValueFlags(program: Command): Set<string> {
  return new Set(
    program.options
      .filter((o) => o.required || o.optional)
      .flatMap((o) => [o.long, o.short].filter((n): n is string => n !== undefined)),
  );
}

/** Commands that read the whole tree when they run. */
const NEEDS_WHOLE_TREE = new Set(['completion']);

/**
 * The root command and its global flags, with the commands `argv` needs registered: the one
 * it names; all of them for completion; or, when it names none (help, no command, an unknown
 * name), stand-ins from COMMAND_LIST. Without argv: the whole tree.
 */
export async function buildProgram(app: App, argv?: readonly string[]): Promise<Command> {
  const program = rootCommand(app);
  const named = argv === undefined ? 'all' : commandModuleNamed(program, argv);
  if (named === undefined) listCommands(program);
  else if (named === 'all') {
    const modules = await Promise.all(COMMAND_MODULES.map(([, load]) => load()));
    // Each registers its command before its first await, so in this order; the groups'
    // subcommands then load side by side instead of one group after another.
    await Promise.all(modules.map((module) => registerModule(module, program, app)));
  } else await registerModule(await named.module[1](), program, app, named.rest);
  // `fcast help ...` names no command module, so it always comes with the listing or the whole tree.
  if (named === undefined || named === 'all')
    addHelpCommand(program, app, async (name) =>
      // The command's module, when the listing has only its stand-in.
      program.commands.some((c) => c.name() === name && standIns.has(c)) ? buildProgram(app, [name]) : program,
    );
  pointErrorsAtHelp(program);
  return program;
}

/**
 * Parses and runs `argv`. Commander may still run a command that commandModuleNamed() did not
 * see (`fcast -- demo`): its stand-in stops the run before anything of it ran, and the line
 * runs again with the whole tree.
 */
export async function runProgram(app: App, argv: readonly string[]): Promise<void> {
  const program = await buildProgram(app, argv);
  try {
    await program.parseAsync(commandLine(program, argv), { from: 'user' });
  } catch (err) {
    if (!(err instanceof StandInReached)) throw err;
    const whole = await buildProgram(app);
    await whole.parseAsync(commandLine(whole, argv), { from: 'user' });
  }
}

/** The stand-ins of listCommands(): listed, never run. */
const standIns = new WeakSet<Command>();

class StandInReached extends Error {}

/**
 * Each top-level command as the listings show it (root help, suggestions for an unknown name,
 * `fcast help`), without loading its module.
 */
function listCommands(program: Command): void {
  for (const { name, args, summary, aliases, hidden } of COMMAND_LIST) {
    const command = program.command(name, { hidden }).summary(summary).aliases(aliases);
    for (const arg of args) command.argument(arg);
    standIns.add(command);
  }
  program.hook('preSubcommand', (_root, sub) => {
    if (standIns.has(sub)) throw new StandInReached(`the stand-in of '${sub.name()}' was reached`);
  });
}

/**
 * What the listings show of each top-level command of `program` (the whole tree), in its
 * order: COMMAND_LIST is this, written out.
 */
export function commandListing(program: Command): CommandListing[] {
  return program.commands
    .filter((c) => c.name() !== 'help')
    .map((c) => ({
      name: c.name(),
      args: c.registeredArguments.map(argumentTerm),
      summary: c.summary() || c.description(),
      aliases: c.aliases(),
      hidden: (c as unknown as { _hidden: boolean })._hidden,
    }));
}

/**
 * The module of the first operand, the command commander will run, when it is one of ours,
 * with the line after it; 'all' for a command that reads the whole tree. The root's own options are read from the
 * program, so a value (`--base-url demo`) is never taken for a command, whatever global flags
 * are added later.
 */
function commandModuleNamed(
  program: Command,
  argv: readonly string[],
): { module: (typeof COMMAND_MODULES)[number]; rest: readonly string[] } | 'all' | undefined {
  // The shared command flags too, which may come first (`fcast --interval 5 demo`).
  const takesValue = rootValueFlags(program);
  for (const [flag, value] of SHARED_COMMAND_FLAGS) if (value) takesValue.add(flag);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') return undefined;
    if (arg.startsWith('-')) {
      if (takesValue.has(arg)) i++;
      continue;
    }
    if (NEEDS_WHOLE_TREE.has(arg)) return 'all';
    const module = COMMAND_MODULES.find(([names]) => names.includes(arg));
    return module === undefined ? undefined : { module, rest: argv.slice(i + 1) };
  }
  return undefined;
}

function rootCommand(app: App): Command {
  const { io } = app.ctx;
  const program = new FcastCommand('fcast')
    .description('Probabilistic market forecasts, their public track record and the command gateway, in a terminal.')
    .version(app.ctx.version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .option('--json', 'the body as JSON on stdout (= --format json)')
    .addOption(
      new Option('--format <format>', 'table, json, csv, tsv or markdown: see each command').argParser((raw) =>
        raw.trim().toLowerCase(),
      ),
    );
  addSettingFlags(program);
  return (
    program
      .option('--verbose', 'log requests (keys redacted) and stack traces')
      .option('--dry-run', 'print the request (key masked) and send nothing')
      .option('--strict', 'exit 7 when a response breaks the documented shape')
      .option('--wide', 'every table column, whatever the terminal width')
      .option('--no-color', 'no colour, even with FORCE_COLOR')
      .showSuggestionAfterError(true)
      .exitOverride()
      .configureOutput({
        writeOut: (s) => io.stdout.write(s),
        writeErr: (s) => io.stderr.write(s),
        // Help wraps at the terminal's width, at most 80 columns (piped: 80), so it reads the
        // same on a wide terminal, in every log and in every snapshot.
        getOutHelpWidth: () => Math.min(HELP_WIDTH, io.stdout.isTTY ? (io.stdout.columns ?? HELP_WIDTH) : HELP_WIDTH),
        getErrHelpWidth: () => Math.min(HELP_WIDTH, io.stderr.isTTY ? (io.stderr.columns ?? HELP_WIDTH) : HELP_WIDTH),
        getOutHasColors: () => hasColors(io.stdout, 'stdout'),
        getErrHasColors: () => hasColors(io.stderr, 'stderr'),
      })
      .configureHelp({
        // `predict [symbol...]`, not `predict [options] [symbol...]`: every command has options,
        // and the narrower column leaves each summary its one line.
        subcommandTerm: (cmd) => [cmd.name(), ...cmd.registeredArguments.map(argumentTerm)].join(' '),
      })
      // Built only when help is shown, not on every run.
      .addHelpText('after', rootHelpFooter)
      .addHelpText('afterAll', formatsSection)
  );
}

/**
 * Whether help may keep colour codes, as commander decides it (its useColor(), then the
 * stream's own colour depth), but asking Node's stream only about a terminal: on a pipe
 * the launcher writes without building it (process.stdout.isTTY would), and it is no terminal.
 */
function hasColors(writer: Writer, stream: 'stdout' | 'stderr'): boolean {
  const said = helpColourByEnv(process.env);
  if (said !== undefined) return said;
  return writer.isTTY === true && process[stream].isTTY && process[stream].hasColors?.() === true;
}

/** The settings' flags, from the settings table: `--timeout <seconds>` and its parser. */
function addSettingFlags(program: Command): void {
  for (const { name, flag, help } of settingFlags()) {
    program.addOption(new Option(flag, help).argParser(flagParser(name)));
  }
}
