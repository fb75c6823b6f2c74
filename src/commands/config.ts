import type { Command } from 'commander';
import { printConfigChange } from '../cmdutil/config-change.js';
import { action, addSubcommands, examples, type App, type Run, type Subcommands } from '../cmdutil/command.js';
import { UsageError } from '../core/errors.js';
import { closest } from '../cmdutil/input.js';
import { maskKey } from '../config/keys.js';
import { DASH } from '../output/format.js';
import { renderTable } from '../output/table.js';
import {
  configDir,
  DIRECTORIES,
  DIRECTORY_KEYS,
  type DirectoryKey,
  directorySetting,
  configFilePath,
} from '../config/directories.js';
import type { Sourced } from '../config/origin.js';
import { SettingError } from '../config/setting-parsers.js';
import {
  CONFIG_KEYS,
  readConfigFile,
  SECRET_KEYS,
  SETTINGS,
  settingOfConfigKey,
  type SettingName,
} from '../config/settings.js';

const KEY_LIST = CONFIG_KEYS.join(', ');
const DIRECTORY_KEY_LIST = DIRECTORY_KEYS.join(', ');

const isDirectoryKey = (raw: string): raw is DirectoryKey => (DIRECTORY_KEYS as readonly string[]).includes(raw);

/**
 * The setting a config key names; a secret, a directory or an unknown key is a usage error.
 * `get`, which reads the directories too (and asks for them first), passes them as `alsoKnown`
 * so that a misspelt one is suggested and listed like the others.
 */
function configKey(raw: string, alsoKnown: readonly string[] = []): SettingName {
  if ((SECRET_KEYS as readonly string[]).includes(raw)) {
    throw new UsageError(`'${raw}' is a key: it is never set, shown or removed with 'fcast config'`, {
      hint: "use 'fcast auth login', 'fcast auth status' or 'fcast auth logout'",
    });
  }
  if (isDirectoryKey(raw)) {
    const { env } = DIRECTORIES[raw];
    throw new UsageError(`'${raw}' is read from ${env} only, never from the config file`, {
      hint: `set ${env} in your environment to move it`,
    });
  }
  const name = settingOfConfigKey(raw);
  if (!name) {
    const known = [...CONFIG_KEYS, ...alsoKnown];
    const near = closest(raw, known);
    throw new UsageError(
      `unknown config key '${raw}'${near ? ` (did you mean ${near}?)` : ''}; the keys are ${known.join(', ')}`,
    );
  }
  return name;
}

const effectiveValue = (run: Run, name: SettingName): Sourced<string | number> | undefined =>
  run.settings()[name] as Sourced<string | number> | undefined;

function effective(run: Run): Array<{ key: string; value: string | number | null; source: string }> {
  const s = run.settings();
  const rows = CONFIG_KEYS.map((key) => {
    const got = effectiveValue(run, configKey(key));
    return { key, value: got?.value ?? null, source: got?.source ?? 'not set' };
  });
  const secret = (key: string, got: Sourced<string> | undefined) => ({
    key,
    value: got ? maskKey(got.value) : null,
    source: got?.source ?? 'not set',
  });
  const directories = DIRECTORY_KEYS.map((key) => ({ key, ...directorySetting(run.ctx, key) }));
  return [...rows, secret('api-key', s.apiKey), secret('gateway-key', s.gatewayKey), ...directories];
}

/**
 * `rest` is what the line holds after `config` (program.ts): a line naming a subcommand right
 * after it registers that one alone (as journal does); any other line, all five.
 */
export function register(program: Command, app: App, rest?: readonly string[]): void {
  addSubcommands(configCommand(program), app, SUBCOMMANDS, rest);
}

function configCommand(program: Command): Command {
  return program
    .command('config')
    .summary('show and change settings')
    .description(
      `Settings in the config file: ${KEY_LIST}.\nPrecedence: flag > environment variable > config file > default.`,
    )
    .addHelpText(
      'after',
      examples(
        ['fcast config set base-url https://forecasts.example', 'remember the service'],
        ['fcast config list', 'every setting, its value and where it comes from'],
        ['fcast config get timeout', 'one value, for scripts'],
      ),
    );
}

function list(config: Command, app: App): void {
  config
    .command('list')
    .description('every setting with its effective value and source (keys masked), then the directories')
    .addHelpText(
      'after',
      examples(
        ['fcast config list', 'values and where each comes from'],
        ['fcast config list --json | jq -r \'.["base-url"].value\'', 'for scripts'],
      ),
    )
    .action(
      action(
        app,
        async (run) => {
          const rows = effective(run);
          if (run.flags.json)
            return run.out.json(Object.fromEntries(rows.map((r) => [r.key, { value: r.value, source: r.source }])));
          run.out.data(
            renderTable(
              run.out,
              [{ header: 'Key' }, { header: 'Value' }, { header: 'Source' }],
              rows.map((r) => [r.key, r.value === null ? DASH : String(r.value), r.source]),
            ),
          );
        },
        { formats: ['table', 'json', 'markdown'] },
      ),
    );
}

function get(config: Command, app: App): void {
  config
    .command('get')
    .description('print the effective value of one setting, or of a directory')
    .argument('<key>', `${KEY_LIST}; ${DIRECTORY_KEY_LIST}`)
    .addHelpText(
      'after',
      examples(
        ['fcast config get base-url', 'prints the URL, or nothing when unset'],
        ['fcast config get data-dir', 'where the journal lives'],
      ),
    )
    .action(
      action(app, async (run, _opts, raw: string) => {
        const got = isDirectoryKey(raw)
          ? directorySetting(run.ctx, raw)
          : effectiveValue(run, configKey(raw, DIRECTORY_KEYS));
        if (run.flags.json) return run.out.json(got?.value ?? null);
        if (got === undefined) {
          run.out.note(`${raw} is not set`);
          return;
        }
        run.out.data(String(got.value));
      }),
    );
}

function set(config: Command, app: App): void {
  config
    .command('set')
    .description('store a setting in the config file')
    .argument('<key>', KEY_LIST)
    .argument(
      '<value>',
      'the value: an http(s) URL for base-url, seconds for timeout and max-wait, a count for retries',
    )
    .addHelpText(
      'after',
      examples(
        ['fcast config set base-url https://forecasts.example', 'the service'],
        ['fcast config set max-wait 120', 'accept waits of up to two minutes'],
      ),
    )
    .action(
      action(app, async (run, _opts, raw: string, value: string) => {
        const name = configKey(raw);
        let parsed: unknown;
        try {
          parsed = SETTINGS[name].parse(value, raw);
        } catch (err) {
          if (err instanceof SettingError) throw new UsageError(err.message);
          throw err;
        }
        if (run.flags.dryRun) {
          const path = configFilePath(configDir(run.ctx));
          printConfigChange(run, { set: raw, value: parsed }, path);
          return run.out.note(`dry run: would set ${raw} in ${path}; nothing written`);
        }
        const store = await run.configStore();
        await store.set(raw, parsed);
        // As auth login does: a script asking for JSON gets one document saying what was stored where.
        printConfigChange(run, { set: raw, value: parsed }, store.path);
        run.out.note(`set ${raw} in ${store.path}`);
        // As auth login and register do: a value the environment overrides changes nothing visible.
        const { env } = SETTINGS[name];
        const exported = run.ctx.env[env];
        if (exported !== undefined && exported.trim() !== '')
          run.out.warn(
            `${env} is set in the environment and takes precedence over the value just set; unset ${env} to use it`,
          );
      }),
    );
}

function unset(config: Command, app: App): void {
  config
    .command('unset')
    .description('remove a setting from the config file')
    .argument('<key>', KEY_LIST)
    .addHelpText('after', examples(['fcast config unset timeout', 'back to the default (30 s)']))
    .action(
      action(app, async (run, _opts, raw: string) => {
        configKey(raw);
        if (run.flags.dryRun) {
          const path = configFilePath(configDir(run.ctx));
          const stored = readConfigFile(path)[raw] !== undefined;
          printConfigChange(run, { removed: stored ? raw : null }, path);
          return run.out.note(
            stored ? `dry run: would remove ${raw} from ${path}; nothing written` : `${raw} was not set in ${path}`,
          );
        }
        const store = await run.configStore();
        if (store.get(raw) === undefined) {
          printConfigChange(run, { removed: null }, store.path);
          return run.out.note(`${raw} was not set in ${store.path}`);
        }
        await store.delete(raw);
        printConfigChange(run, { removed: raw }, store.path);
        run.out.note(`removed ${raw} from ${store.path}`);
      }),
    );
}

function path(config: Command, app: App): void {
  config
    .command('path')
    .description('print the path of the config file')
    .addHelpText(
      'after',
      examples(
        ['fcast config path', 'e.g. ~/.config/fcast/config.json'],
        ['FCAST_CONFIG_DIR=/tmp/ci fcast config path', 'another directory'],
      ),
    )
    .action(
      action(app, async (run) => {
        const path = configFilePath(configDir(run.ctx));
        if (run.flags.json) return run.out.json(path);
        run.out.data(path);
      }),
    );
}

/** The subcommands, in the order help lists them. */
const SUBCOMMANDS: Subcommands = [
  ['list', list],
  ['get', get],
  ['set', set],
  ['unset', unset],
  ['path', path],
];
