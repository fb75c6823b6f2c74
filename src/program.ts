// The command tree. Building it must stay cheap (every run pays for it): command modules
// hold definitions and import their heavy parts only when their action runs.
import { Command, Option } from 'commander';
import type { App } from './command.js';
import * as accuracy from './commands/accuracy.js';
import * as auth from './commands/auth.js';
import * as cmd from './commands/cmd.js';
import * as completion from './commands/completion.js';
import * as config from './commands/config.js';
import * as demo from './commands/demo.js';
import * as discover from './commands/discover.js';
import * as doctor from './commands/doctor.js';
import * as mock from './commands/mock.js';
import * as predict from './commands/predict.js';
import * as register from './commands/register.js';
import * as symbols from './commands/symbols.js';
import * as trackRecord from './commands/track-record.js';
import * as verify from './commands/verify.js';
import { EXIT_CODE_HELP } from './errors.js';
import { flagParser, settingFlags, settingsHelp } from './settings.js';

const COMMAND_MODULES = [
  discover,
  demo,
  register,
  auth,
  config,
  predict,
  symbols,
  trackRecord,
  accuracy,
  verify,
  cmd,
  completion,
  doctor,
  mock,
];

export function buildProgram(app: App): Command {
  const { io } = app.ctx;
  const program = new Command('fcast')
    .description('Probabilistic market forecasts, their public track record and the command gateway, in a terminal.')
    .version(app.ctx.version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .option('--json', 'print the response body as JSON on stdout (data only)');
  addSettingFlags(program);
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
    .addHelpText('after', rootHelpFooter());
  for (const module of COMMAND_MODULES) module.register(program, app);
  return program;
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
