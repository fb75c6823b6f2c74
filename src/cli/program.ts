// The command tree. A run loads only the module of the command it names (`fcast demo` never
// parses the other thirteen); help, completion, and anything not recognised load them all, so
// listings and "did you mean" suggestions see the whole tree. Command modules hold definitions
// and import their heavy parts only when their action runs.
import { Command, Option } from 'commander';
import { formatsHelp, type ActionHandler, type App } from './command.js';
import type { OutputFormat } from '../core/domain.js';
import { COMPLETE_SYMBOLS_COMMAND } from '../completion/names.js';
import { EXIT_CODE_HELP } from '../core/errors.js';
import { flagParser, settingFlags, settingsHelp } from '../config/settings.js';

interface CommandModule {
  register(program: Command, app: App): void;
}

/** Every command module, by the top-level names it registers, in the order help lists them. */
const COMMAND_MODULES: ReadonlyArray<readonly [names: readonly string[], load: () => Promise<CommandModule>]> = [
  [['discover'], () => import('../commands/discover.js')],
  [['demo'], () => import('../commands/demo.js')],
  [['register'], () => import('../commands/register.js')],
  [['auth'], () => import('../commands/auth.js')],
  [['config'], () => import('../commands/config.js')],
  [['predict'], () => import('../commands/predict.js')],
  [['symbols'], () => import('../commands/symbols.js')],
  [['track-record'], () => import('../commands/track-record.js')],
  [['accuracy'], () => import('../commands/accuracy.js')],
  [['verify'], () => import('../commands/verify.js')],
  [['journal'], () => import('../commands/journal.js')],
  [['cmd'], () => import('../commands/cmd.js')],
  [['completion', COMPLETE_SYMBOLS_COMMAND], () => import('../commands/completion.js')],
  [['doctor'], () => import('../commands/doctor.js')],
  [['mock'], () => import('../commands/mock.js')],
];

/**
 * A command that knows the formats its action gives (action() tells them), so that its help
 * lists them: every command of the tree is one, since commander makes subcommands with
 * createCommand.
 */
class FcastCommand extends Command {
  formats: readonly OutputFormat[] | undefined;

  override createCommand(name?: string): FcastCommand {
    return new FcastCommand(name);
  }

  override action(fn: Parameters<Command['action']>[0]): this {
    this.formats = (fn as Partial<ActionHandler>).formats;
    return super.action(fn);
  }
}

/** The formats section of a command's help; none for a command that only groups others (auth, cmd). */
function formatsSection({ command }: { command: Command }): string {
  if (!(command instanceof FcastCommand) || !command.formats || command.commands.length > 0) return '';
  return formatsHelp(command.formats);
}

/** Commands that read the whole tree when they run. */
const NEEDS_WHOLE_TREE = new Set(['completion']);

/**
 * The root command and its global flags, with the commands `argv` needs registered: the one
 * it names, or all of them (no argv, help, an unknown name). Without argv: the whole tree.
 */
export async function buildProgram(app: App, argv?: readonly string[]): Promise<Command> {
  const program = rootCommand(app);
  const named = argv === undefined ? undefined : commandModuleNamed(program, argv);
  const modules = await Promise.all((named ? [named] : COMMAND_MODULES).map(([, load]) => load()));
  for (const module of modules) module.register(program, app);
  return program;
}

/**
 * The module of the first operand, the command commander will run, when it is one of ours.
 * The root's own options are read from the program, so a value (`--base-url demo`) is never
 * taken for a command, whatever global flags are added later.
 */
function commandModuleNamed(program: Command, argv: readonly string[]) {
  const takesValue = new Set(
    program.options.filter((o) => o.required || o.optional).flatMap((o) => [o.long, o.short].filter(Boolean)),
  );
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') return undefined;
    if (arg.startsWith('-')) {
      if (takesValue.has(arg)) i++;
      continue;
    }
    if (NEEDS_WHOLE_TREE.has(arg)) return undefined;
    return COMMAND_MODULES.find(([names]) => names.includes(arg));
  }
  return undefined;
}

function rootCommand(app: App): Command {
  const { io } = app.ctx;
  const program = new FcastCommand('fcast')
    .description('Probabilistic market forecasts, their public track record and the command gateway, in a terminal.')
    .version(app.ctx.version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .option('--json', 'print the response body as JSON on stdout (data only); the same as --format json')
    .addOption(
      new Option(
        '--format <format>',
        'table, json, csv, tsv or markdown (each command lists those it gives)',
      ).argParser((raw) => raw.trim().toLowerCase()),
    );
  addSettingFlags(program);
  return (
    program
      .option('--verbose', 'log requests on stderr (keys redacted); stack traces on errors')
      .option('--dry-run', 'print the request that would be sent (key masked) and send nothing')
      .option('--strict', 'exit 7 when a response breaks the documented shape')
      .option('--wide', 'every table column, whatever the terminal width (piped tables always have them)')
      .option('--no-color', 'no colour, even with FORCE_COLOR')
      .showSuggestionAfterError(true)
      .exitOverride()
      .configureOutput({
        writeOut: (s) => io.stdout.write(s),
        writeErr: (s) => io.stderr.write(s),
        // Piped help wraps at 80 columns, so it reads the same in every log and snapshot.
        getOutHelpWidth: () => (io.stdout.isTTY ? (io.stdout.columns ?? 80) : 80),
        getErrHelpWidth: () => (io.stderr.isTTY ? (io.stderr.columns ?? 80) : 80),
        outputError: (s, write) =>
          write(`fcast: ${redactTyped(s.replace(/^error: /, '').trimEnd())}\n  hint: see 'fcast --help'\n`),
      })
      // Built only when help is shown, not on every run.
      .addHelpText('after', () => rootHelpFooter())
      .addHelpText('afterAll', formatsSection)
  );
}

/** The settings' flags, from the settings table: `--timeout <seconds>` and its parser. */
function addSettingFlags(program: Command): void {
  for (const { name, flag, help } of settingFlags()) {
    program.addOption(new Option(flag, help).argParser(flagParser(name)));
  }
}

/**
 * Commander repeats what was typed in its errors ("unknown option '--api-key=...'"). A key
 * pasted on the command line must not reach a CI log that way: option values are masked here,
 * and anything shaped like a key by the redactor every write passes.
 */
function redactTyped(message: string): string {
  return message.replace(/(--?[\w-]+)=[^'\s]+/g, '$1=<redacted>');
}

function rootHelpFooter(): string {
  const codes = EXIT_CODE_HELP.map(([code, meaning]) => `  ${String(code).padStart(3)}  ${meaning}`).join('\n');
  return `
Settings (flag > environment > config file > default):
${settingsHelp().join('\n')}
  FCAST_CONFIG_DIR   where config.json lives (a private directory of yours)
  NO_COLOR, FORCE_COLOR, HTTPS_PROXY, HTTP_PROXY, NO_PROXY

Exit codes:
${codes}

Start here: 'fcast mock' serves the whole API offline; 'fcast demo' needs no key.
`;
}
