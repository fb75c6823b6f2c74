// The settings on the command line: the global flags commander declares, their parser, and the
// rows of `fcast help settings`, all read from settings.ts's table.
import { UsageError } from '../core/errors.js';
import { CONFIG_KEYS, SETTING_NAMES, SETTINGS, type SettingName, type SettingSpec } from './settings.js';

/**
 * The settings that have a flag, with its help line: `request deadline (default 30)`. The
 * environment variables and config keys are in `fcast help settings`: on one line each here,
 * the root help stays within 80 columns.
 */
export function settingFlags(): Array<{ name: SettingName; flag: string; help: string }> {
  return SETTING_NAMES.flatMap((name) => {
    const s: SettingSpec<unknown> = SETTINGS[name];
    if (!s.flag) return [];
    return [
      { name, flag: s.flag, help: s.default === undefined ? s.help : `${s.help} (default ${String(s.default)})` },
    ];
  });
}

/** Commander option parser for a setting's flag: a bad value is a usage error (exit 2). */
export function flagParser(name: SettingName): (raw: string) => unknown {
  const s: SettingSpec<unknown> = SETTINGS[name];
  const where = s.flag?.split(' ')[0] ?? name;
  return (raw) => {
    try {
      return s.parse(raw, where);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  };
}

/** `fcast help settings`: one row per setting (its variable, then what it is and where else it is set), then the config keys. */
export function settingRows(): Array<[variable: string, text: string]> {
  const rows = SETTING_NAMES.map((name): [string, string] => {
    const s: SettingSpec<unknown> = SETTINGS[name];
    const note =
      s.footer ??
      [s.flag?.split(' ')[0], s.default === undefined ? '' : `default ${String(s.default)}`].filter(Boolean).join(', ');
    return [s.env, `${s.help} (${note})`];
  });
  return [...rows, ['config keys', CONFIG_KEYS.join(', ')]];
}
