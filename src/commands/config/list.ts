// `fcast config list`: every setting, its effective value and where it comes from, then the directories.
import type { Run } from '../../cmdutil/command.js';
import { defineCommand } from '../../cmdutil/define.js';
import { DIRECTORY_KEYS, directorySetting } from '../../config/directories.js';
import { maskKey } from '../../config/keys.js';
import type { Sourced } from '../../config/origin.js';
import { CONFIG_KEYS } from '../../config/settings.js';
import { DASH } from '../../output/format.js';
import { renderTable } from '../../output/table.js';
import { configKey, effectiveValue } from './shared.js';

export default defineCommand({
  name: 'list',
  description: 'every setting with its effective value and source (keys masked), then the directories',
  flags: {},
  formats: ['table', 'json', 'markdown'],
  examples: [
    ['fcast config list', 'values and where each comes from'],
    ['fcast config list --json | jq -r \'.["base-url"].value\'', 'for scripts'],
  ],
  run: async (run) => {
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
});

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
