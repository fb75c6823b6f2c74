// What the config subcommands share: the keys they name, and the check that a key is one the
// config file holds (a secret, a directory or a misspelt key is a usage error).
// Imported when the group's tree is built: keep it free of heavy modules.
import type { Run } from '../../cmdutil/command.js';
import { closest } from '../../cmdutil/input.js';
import { UsageError } from '../../core/errors.js';
import { DIRECTORIES, DIRECTORY_KEYS, type DirectoryKey } from '../../config/directories.js';
import type { Sourced } from '../../config/origin.js';
import { CONFIG_KEYS, SECRET_KEYS, settingOfConfigKey, type SettingName } from '../../config/settings.js';

export const KEY_LIST = CONFIG_KEYS.join(', ');
export const DIRECTORY_KEY_LIST = DIRECTORY_KEYS.join(', ');

export const isDirectoryKey = (raw: string): raw is DirectoryKey => (DIRECTORY_KEYS as readonly string[]).includes(raw);

/**
 * The setting a config key names; a secret, a directory or an unknown key is a usage error.
 * `get`, which reads the directories too (and asks for them first), passes them as `alsoKnown`
 * so that a misspelt one is suggested and listed like the others.
 */
export function configKey(raw: string, alsoKnown: readonly string[] = []): SettingName {
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

export const effectiveValue = (run: Run, name: SettingName): Sourced<string | number> | undefined =>
  run.settings()[name] as Sourced<string | number> | undefined;
