// `fcast config set <key> <value>`: one setting stored in the config file.
import { printConfigChange } from '../../cmdutil/config-change.js';
import { defineCommand } from '../../cmdutil/define.js';
import { UsageError } from '../../core/errors.js';
import { configDir, configFilePath } from '../../config/directories.js';
import { SettingError } from '../../config/setting-parsers.js';
import { SETTINGS } from '../../config/settings.js';
import { configKey, KEY_LIST } from './shared.js';

export default defineCommand({
  name: 'set',
  description: 'store a setting in the config file',
  args: [
    { name: '<key>', help: KEY_LIST },
    {
      name: '<value>',
      help: 'the value: an http(s) URL for base-url, seconds for timeout and max-wait, a count for retries',
    },
  ],
  flags: {},
  examples: [
    ['fcast config set base-url https://forecasts.example', 'the service'],
    ['fcast config set max-wait 120', 'accept waits of up to two minutes'],
  ],
  run: async (run, _flags, raw: string, value: string) => {
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
  },
});
