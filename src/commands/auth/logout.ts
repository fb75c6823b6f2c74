// `fcast auth logout`: removes a stored key, after asking (or with --yes).
import { printConfigChange } from '../../cmdutil/config-change.js';
import type { Run } from '../../cmdutil/command.js';
import { defineCommand, flag } from '../../cmdutil/define.js';
import { UsageError } from '../../core/errors.js';
import { keyKindOf, maskKey, type KeyKind } from '../../config/keys.js';
import { SETTINGS, secretFromEnv, storedSecret } from '../../config/settings.js';

export default defineCommand({
  name: 'logout',
  summary: 'remove a stored key (asks first)',
  description:
    'Removes the REST key (or, with --gateway, the gateway key) from the config file. The service keeps ' +
    'only a hash of each key, so a removed key cannot be recovered: logout asks first, and without a ' +
    'terminal it needs --yes. A key set in the environment is not touched: unset the variable yourself.',
  flags: {
    gateway: flag('--gateway', 'remove the gateway key instead of the REST key'),
    yes: flag('-y, --yes', 'do not ask (needed when stdin is not a terminal)'),
  },
  examples: [
    ['fcast auth logout', 'asks, then removes the stored REST key'],
    ['fcast auth logout --gateway --yes', 'removes the stored gateway key, for scripts'],
  ],
  run: (run, flags) => logout(run, keyKindOf(flags.gateway), flags.yes === true),
});

async function logout(run: Run, kind: KeyKind, yes: boolean): Promise<void> {
  const { stdin, stderr } = run.ctx.io;
  if (!yes && stdin.isTTY !== true) {
    throw new UsageError(
      `auth logout asks before removing the ${kind.label}, and stdin is not a terminal: pass --yes`,
      {
        hint: 'a removed key cannot be recovered: the service keeps only its hash',
      },
    );
  }
  const { path, value: stored } = storedSecret(run.ctx, kind.setting);
  if (secretFromEnv(run.ctx.env, kind.setting) !== undefined) {
    run.out.warn(
      `${SETTINGS[kind.setting].env} is set in the environment; logout cannot unset it (run 'unset ${SETTINGS[kind.setting].env}' in your shell)`,
    );
  }
  if (stored === undefined) {
    printConfigChange(run, { removed: null }, path);
    run.out.note(`no ${kind.label} is stored in ${path}; nothing to remove`);
    return;
  }
  const masked = maskKey(stored);
  if (!yes) {
    const { confirm } = await import('../../config/secret-input.js');
    const question = `Remove the ${kind.label} ${masked} from ${path}? It cannot be recovered: the service keeps only its hash.`;
    if (!(await confirm(stdin, stderr, question, run.ctx.signal))) {
      run.out.note(`kept the ${kind.label}; nothing was removed`);
      printConfigChange(run, { removed: null }, path);
      return;
    }
  }
  if (run.flags.dryRun) {
    printConfigChange(run, { removed: SETTINGS[kind.setting].configKey, key: masked }, path);
    run.out.note(`dry run: would remove the ${kind.label} ${masked} from ${path}; nothing removed`);
    return;
  }
  const store = await run.configStore();
  const configKey = SETTINGS[kind.setting].configKey;
  await store.delete(configKey);
  printConfigChange(run, { removed: configKey, key: masked }, store.path);
  run.out.note(`removed the ${kind.label} ${masked} from ${store.path}`);
}
