// `fcast config path`: where the config file is.
import { defineCommand } from '../../cmdutil/define.js';
import { configDir, configFilePath } from '../../config/directories.js';

export default defineCommand({
  name: 'path',
  description: 'print the path of the config file',
  flags: {},
  examples: [
    ['fcast config path', 'e.g. ~/.config/fcast/config.json'],
    ['FCAST_CONFIG_DIR=/tmp/ci fcast config path', 'another directory'],
  ],
  run: async (run) => {
    const path = configFilePath(configDir(run.ctx));
    if (run.flags.json) return run.out.json(path);
    run.out.data(path);
  },
});
