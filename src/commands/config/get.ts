// `fcast config get <key>`: the effective value of one setting, or of a directory.
import { defineCommand } from '../../cmdutil/define.js';
import { DIRECTORY_KEYS, directorySetting } from '../../config/directories.js';
import { configKey, DIRECTORY_KEY_LIST, effectiveValue, isDirectoryKey, KEY_LIST } from './shared.js';

export default defineCommand({
  name: 'get',
  description: 'print the effective value of one setting, or of a directory',
  args: [{ name: '<key>', help: `${KEY_LIST}; ${DIRECTORY_KEY_LIST}` }],
  flags: {},
  examples: [
    ['fcast config get base-url', 'prints the URL, or nothing when unset'],
    ['fcast config get data-dir', 'where the journal lives'],
  ],
  run: async (run, _flags, raw: string) => {
    const got = isDirectoryKey(raw)
      ? directorySetting(run.ctx, raw)
      : effectiveValue(run, configKey(raw, DIRECTORY_KEYS));
    if (run.flags.json) return run.out.json(got?.value ?? null);
    if (got === undefined) {
      run.out.note(`${raw} is not set`);
      return;
    }
    run.out.data(String(got.value));
  },
});
