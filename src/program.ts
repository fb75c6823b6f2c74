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
import { maskKey } from './keys.js';
import { DEFAULTS, flagParser } from './settings.js';

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
    .option('--json', 'print the response body as JSON on stdout (data only)')
    .option('--base-url <url>', 'base URL of the service (env FCAST_BASE_URL)')
    .addOption(
      new Option('--timeout <seconds>', `request deadline (env FCAST_TIMEOUT, default ${DEFAULTS.timeout})`).argParser(
        flagParser('timeout'),
      ),
    )
    .addOption(
      new Option('--retries <n>', `automatic retries (env FCAST_RETRIES, default ${DEFAULTS.retries})`).argParser(
        flagParser('retries'),
      ),
    )
    .addOption(
      new Option(
        '--max-wait <seconds>',
        `longest wait accepted for one retry (env FCAST_MAX_WAIT, default ${DEFAULTS['max-wait']})`,
      ).argParser(flagParser('max-wait')),
    )
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

/**
 * Commander repeats what was typed in its errors ("unknown option '--api-key=...'"). A key
 * pasted on the command line must not reach a CI log that way: option values and anything
 * shaped like a key are masked.
 */
function redactTyped(message: string): string {
  return message
    .replace(/(--?[\w-]+)=[^'\s]+/g, '$1=<redacted>')
    .replace(/[A-Za-z0-9]+_ag_[0-9a-f]{8,}/g, (key) => maskKey(key));
}

function rootHelpFooter(): string {
  const codes = EXIT_CODE_HELP.map(([code, meaning]) => `  ${String(code).padStart(3)}  ${meaning}`).join('\n');
  return `
Settings (flag > environment > config file > default):
  FCAST_BASE_URL      base URL of the service           (config key base-url)
  FCAST_API_KEY       REST key (never a flag)           (stored by register / auth login)
  FCAST_GATEWAY_KEY   gateway key; falls back to the REST key
  FCAST_TIMEOUT, FCAST_RETRIES, FCAST_MAX_WAIT          (config keys timeout, retries, max-wait)
  FCAST_CONFIG_DIR    where config.json lives
  NO_COLOR, FORCE_COLOR, HTTPS_PROXY, HTTP_PROXY, NO_PROXY

Exit codes:
${codes}

Start here: 'fcast mock' serves the whole API offline; 'fcast demo' needs no key.
`;
}
