// `fcast config unset <key>`: one setting removed from the config file.
import { printConfigChange } from '../../cmdutil/config-change.js';
import { defineCommand } from '../../cmdutil/define.js';
import { configDir, configFilePath } from '../../config/directories.js';
import { readConfigFile } from '../../config/settings.js';
import { configKey, KEY_LIST } from './shared.js';

export default defineCommand({
  name: 'unset',
  description: 'remove a setting from the config file',
  args: [{ name: '<key>', help: KEY_LIST }],
  flags: {},
  examples: [['fcast config unset timeout', 'back to the default (30 s)']],
  run: async (run, _flags, raw: string) => {
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
  },
});
