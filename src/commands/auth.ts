import type { Command } from 'commander';
import { printConfigChange } from '../cmdutil/config-change.js';
import { action, examples, type App, type Run } from '../cmdutil/command.js';
import { FcastError, UsageError } from '../core/errors.js';
import { checkTypedKey, keyKindOf, maskKey, REST_KEY_KIND, type KeyKind } from '../config/keys.js';
import { inspectKey } from '../config/key-checks.js';
import type { Sourced } from '../config/origin.js';
import { SETTINGS, secretFromEnv, storedSecret } from '../config/settings.js';

interface LoginFlags {
  gateway?: boolean;
  force?: boolean;
}
interface StatusFlags {
  check?: boolean;
}
interface LogoutFlags {
  gateway?: boolean;
  yes?: boolean;
}

export function register(program: Command, app: App): void {
  const auth = program
    .command('auth')
    .summary('store, show and remove API keys')
    .description(
      'Store a key you already have (auth login), see which keys are in use and where they come from (auth ' +
        'status), or remove a stored key (auth logout). Keys are read from stdin or a hidden prompt, never ' +
        'from arguments, and are only ever shown masked.',
    )
    .addHelpText(
      'after',
      examples(
        ['fcast auth login < key.txt', 'store the REST key kept in a file'],
        ['fcast auth status --check', 'which keys are used, and does the REST key work?'],
        ['fcast auth logout --yes', 'remove the stored REST key without asking'],
      ),
    );

  auth
    .command('login')
    .summary('store a key read from stdin or a hidden prompt')
    .description(
      'Stores a key in the config file (mode 0600). On a terminal it asks for the key without echoing it; ' +
        'otherwise it reads the key from stdin. A REST key looks like <prefix>_ag_ followed by 40 lowercase ' +
        'hex characters; anything else exits 2, and the rejected text is never printed. A key already stored ' +
        'is replaced only after a yes at the terminal, or with --force (needed when stdin is not a terminal).',
    )
    .option('--gateway', 'store the gateway key instead of the REST key')
    .option('--force', 'replace a stored key without asking')
    .addHelpText(
      'after',
      examples(
        ['fcast auth login', 'paste the REST key at the hidden prompt'],
        ['fcast auth login < key.txt', 'from a file'],
        ['echo "$KEY" | fcast auth login', 'from a variable, without putting it in argv'],
        ['fcast auth login --gateway < gateway-key.txt', 'the key of the command gateway'],
        ['fcast auth login --force < new-key.txt', 'replace the stored key'],
      ),
    )
    .action(action(app, (run, opts: LoginFlags) => login(run, keyKindOf(opts.gateway), opts.force === true)));

  auth
    .command('status')
    .summary('show the keys in use, where they come from, and the base URL')
    .description(
      'For the REST key and the gateway key: where each comes from (an environment variable or the config ' +
        'file) and a masked form; and the base URL. --check calls symbols.php to prove the REST key works ' +
        '(401 exits 3).',
    )
    .option('--check', 'call the service to prove that the REST key works')
    .addHelpText(
      'after',
      examples(
        ['fcast auth status', 'keys (masked), their sources and the base URL'],
        ['fcast auth status --check', 'also ask the service whether the REST key works'],
        ['fcast auth status --json | jq .api_key.source', 'for scripts'],
      ),
    )
    .action(action(app, (run, opts: StatusFlags) => status(run, opts.check === true)));

  auth
    .command('logout')
    .summary('remove a stored key (asks first)')
    .description(
      'Removes the REST key (or, with --gateway, the gateway key) from the config file. The service keeps ' +
        'only a hash of each key, so a removed key cannot be recovered: logout asks first, and without a ' +
        'terminal it needs --yes. A key set in the environment is not touched: unset the variable yourself.',
    )
    .option('--gateway', 'remove the gateway key instead of the REST key')
    .option('-y, --yes', 'do not ask (needed when stdin is not a terminal)')
    .addHelpText(
      'after',
      examples(
        ['fcast auth logout', 'asks, then removes the stored REST key'],
        ['fcast auth logout --gateway --yes', 'removes the stored gateway key, for scripts'],
      ),
    )
    .action(action(app, (run, opts: LogoutFlags) => logout(run, keyKindOf(opts.gateway), opts.yes === true)));
}

async function login(run: Run, kind: KeyKind, force: boolean): Promise<void> {
  const { stdin, stderr } = run.ctx.io;
  const { readHiddenLine, readPiped } = await import('../config/secret-input.js');
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
    const { confirm } = await import('../config/secret-input.js');
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

interface KeyReport {
  key: string;
  source: string;
  well_formed: boolean;
  /** The gateway falls back to the REST key when it has none of its own. */
  from_api_key?: boolean;
}

async function status(run: Run, check: boolean): Promise<void> {
  const s = run.settings();
  const report = (got: Sourced<string>, kind: KeyKind): KeyReport => ({
    key: maskKey(got.value),
    source: got.source,
    well_formed: kind.isWellFormed(got.value),
  });
  const apiKey = s.apiKey ? report(s.apiKey, REST_KEY_KIND) : null;
  const gateway = inspectKey(s, 'gateway');
  const gatewayKey = gateway.key
    ? { ...report(gateway.key, gateway.key.spec), ...(gateway.fallback ? { from_api_key: true } : {}) }
    : null;

  let checked: Record<string, unknown> | undefined;
  let failure: FcastError | undefined;
  if (check) {
    const conn = await run.connect();
    const { fetchSymbols, requests } = await import('../api/endpoints.js');
    // The dry run prints the request it would send; that is the whole answer.
    if (run.flags.dryRun) return void (await run.dryRun(requests.symbols()));
    try {
      const res = await fetchSymbols(conn);
      const meta = res.body.meta as Record<string, unknown> | undefined;
      checked = { ok: true, status: res.response.status, symbols: res.body.count, tier: meta?.tier ?? null };
    } catch (err) {
      if (!(err instanceof FcastError)) throw err;
      failure = err;
      checked = { ok: false, exit_code: err.exitCode, error: err.message };
    }
  }

  if (run.flags.json) {
    run.out.json({
      api_key: apiKey,
      gateway_key: gatewayKey,
      base_url: s.baseUrl ? { value: s.baseUrl.value, source: s.baseUrl.source } : null,
      config_file: s.configPath,
      ...(checked ? { check: checked } : {}),
    });
    // stdout already holds the status document: thrown without the server's body, none is added.
    if (failure) throw new FcastError(failure.message, failure.exitCode, { hint: failure.hint, cause: failure });
    return;
  }

  const describe = (k: KeyReport | null, label: string): string => {
    if (!k) return 'not set';
    const origin = k.from_api_key ? `none of its own: uses the API key (from ${k.source})` : `from ${k.source}`;
    return `${k.key}  ${origin}${k.well_formed ? '' : `  (malformed: not a valid ${label})`}`;
  };
  const pairs: Array<[string, string]> = [
    ['API key', describe(apiKey, 'API key')],
    ['Gateway key', describe(gatewayKey, gatewayKey?.from_api_key ? 'API key' : 'gateway key')],
    ['Base URL', s.baseUrl ? `${s.baseUrl.value}  from ${s.baseUrl.source}` : 'not set'],
    ['Config file', s.configPath],
  ];
  if (checked?.ok) {
    const tier = typeof checked.tier === 'string' ? `, tier ${checked.tier}` : '';
    pairs.push([
      'Check',
      `the API key works: symbols.php answered ${String(checked.status)} with ${String(checked.symbols)} symbols${tier}`,
    ]);
  } else if (failure) {
    pairs.push(['Check', 'failed (see below)']);
  }
  const { renderPairs } = await import('../output/table.js');
  run.out.data(renderPairs(run.out, pairs));
  if (failure) throw failure;
}

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
    const { confirm } = await import('../config/secret-input.js');
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
