// `fcast auth login`: stores a key read from stdin or a hidden prompt.
import { printConfigChange } from '../../cmdutil/config-change.js';
import type { Run } from '../../cmdutil/command.js';
import { defineCommand, flag } from '../../cmdutil/define.js';
import { UsageError } from '../../core/errors.js';
import { checkTypedKey, keyKindOf, maskKey, type KeyKind } from '../../config/keys.js';
import { SETTINGS, secretFromEnv, storedSecret } from '../../config/settings.js';

export default defineCommand({
  name: 'login',
  summary: 'store a key read from stdin or a hidden prompt',
  description:
    'Stores a key in the config file (mode 0600). On a terminal it asks for the key without echoing it; ' +
    'otherwise it reads the key from stdin. A REST key looks like <prefix>_ag_ followed by 40 lowercase ' +
    'hex characters; anything else exits 2, and the rejected text is never printed. A key already stored ' +
    'is replaced only after a yes at the terminal, or with --force (needed when stdin is not a terminal).',
  flags: {
    gateway: flag('--gateway', 'store the gateway key instead of the REST key'),
    force: flag('--force', 'replace a stored key without asking'),
  },
  examples: [
    ['fcast auth login', 'paste the REST key at the hidden prompt'],
    ['fcast auth login < key.txt', 'from a file'],
    ['echo "$KEY" | fcast auth login', 'from a variable, without putting it in argv'],
    ['fcast auth login --gateway < gateway-key.txt', 'the key of the command gateway'],
    ['fcast auth login --force < new-key.txt', 'replace the stored key'],
  ],
  run: (run, flags) => login(run, keyKindOf(flags.gateway), flags.force === true),
});

async function login(run: Run, kind: KeyKind, force: boolean): Promise<void> {
  const { stdin, stderr } = run.ctx.io;
  const { readHiddenLine, readPiped } = await import('../../config/secret-input.js');
  const fromTerminal = stdin.isTTY === true;
  const typed = fromTerminal
    ? await readHiddenLine(stdin, stderr, `Paste your ${kind.label} (input hidden), then press Enter: `, run.ctx.signal)
    : await readPiped(stdin);
  run.secrets.add(typed);
  const key = checkTypedKey(kind, typed, fromTerminal);
  const masked = maskKey(key);
  const { path, value: stored } = storedSecret(run.ctx, kind.setting);
  const replaces = stored !== undefined && stored !== key;
  if (replaces && !force && !fromTerminal) {
    throw new UsageError(
      `a ${kind.label} (${maskKey(stored)}) is already stored in ${path}; stdin is not a terminal to ask: pass --force to replace it`,
      { hint: 'a replaced key cannot be recovered from fcast: the service keeps only its hash' },
    );
  }

  if (run.flags.dryRun) {
    printConfigChange(run, { saved: SETTINGS[kind.setting].configKey, key: masked }, path);
    run.out.note(`dry run: would save the ${kind.label} ${masked} to ${path}; nothing saved`);
    return;
  }
  if (replaces && !force) {
    const { confirm } = await import('../../config/secret-input.js');
    const question = `Replace the ${kind.label} ${maskKey(stored)} stored in ${path}? It cannot be recovered: the service keeps only its hash.`;
    if (!(await confirm(stdin, stderr, question, run.ctx.signal))) {
      run.out.note(`kept the ${kind.label} ${maskKey(stored)}; nothing was saved`);
      printConfigChange(run, { saved: null }, path);
      return;
    }
  }
  const store = await run.configStore();
  const configKey = SETTINGS[kind.setting].configKey;
  // What was checked (or confirmed) above must still be what the file holds.
  await store.set(configKey, key, force ? undefined : { ifStill: stored });
  printConfigChange(run, { saved: configKey, key: masked }, store.path);
  run.out.note(`saved the ${kind.label} ${masked} to ${store.path}`);
  if (replaces) run.out.note(`it replaces the ${kind.label} ${maskKey(stored)} stored there before`);
  if (secretFromEnv(run.ctx.env, kind.setting) !== undefined) {
    run.out.warn(`${SETTINGS[kind.setting].env} is set in the environment and takes precedence over the saved key`);
  }
}
