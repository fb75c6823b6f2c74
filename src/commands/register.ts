import type { Command } from 'commander';
import { action, examples, type App, type Run } from '../command.js';
import { ApiError, amend, BadResponseError, ConfigError, NetworkError, UsageError } from '../errors.js';
import { parseEmail } from '../input.js';
import { maskKey } from '../keys.js';
import { secretFromEnv, storedSecret } from '../settings.js';

interface RegisterFlags {
  email: string;
  save: boolean;
  force?: boolean;
}

export function register(program: Command, app: App): void {
  program
    .command('register')
    .summary('get a free API key for an e-mail address, and save it')
    .description(
      'Asks the service for a free API key (tier free: data delayed 15 minutes). The key is saved in the ' +
        'config file (mode 0600) and printed once on stdout: the service keeps only its hash and can never ' +
        'show it again. A key already stored is not replaced without --force. If saving fails, the key is ' +
        'still printed, and the exit code is 3. The request is retried only on 429, never once it may have ' +
        'reached the server.',
    )
    .requiredOption('--email <address>', 'your e-mail address (at most 190 characters)')
    .option('--no-save', 'print the key without saving it')
    .option('--force', 'replace a key already stored in the config file', false)
    .addHelpText(
      'after',
      examples(
        ['fcast register --email you@example.com', 'get a key and save it'],
        [
          'fcast register --email you@example.com --json | jq -r .api_key',
          'the body, for scripts (the key is saved too)',
        ],
        ['fcast register --email ci@example.com --no-save', 'print the key only, e.g. to put it in a secret store'],
        ['fcast register --email new@example.com --force', 'replace the stored key (the old one is lost for good)'],
      ),
    )
    .action(action(app, (run, opts: RegisterFlags) => registerAction(run, opts)));
}

async function registerAction(run: Run, opts: RegisterFlags): Promise<void> {
  const email = parseEmail(opts.email);
  const replaced = opts.save ? refuseToReplace(run, opts.force === true) : undefined;

  const conn = await run.connect();
  const { registerKey, requests } = await import('../api/endpoints.js');
  if (run.flags.dryRun) return void (await run.dryRun(requests.register(email)));
  let res: Awaited<ReturnType<typeof registerKey>>;
  try {
    // The shape is judged only after the key is safe: under --strict an off-shape body would
    // otherwise throw away the one copy of a key that was really issued.
    res = await registerKey({ ...conn, strict: false }, email);
  } catch (err) {
    throw explainFailure(err, email);
  }

  const key = typeof res.body.api_key === 'string' ? res.body.api_key : undefined;
  if (key === undefined) {
    if (run.flags.json) run.out.rawJson(res.raw);
    throw new BadResponseError('register.php answered without an api_key', { hint: lostKeyHint(email) });
  }

  let saved: string;
  let saveError: ConfigError | undefined;
  if (!opts.save) {
    saved = "no (--no-save): keep it safe; 'fcast auth login' can store it later";
  } else {
    try {
      const store = await run.configStore();
      store.set('api-key', key);
      saved = `${store.path} (mode 0600)${replaced ? `, replacing ${maskKey(replaced)}` : ''}`;
    } catch (err) {
      saveError = err instanceof ConfigError ? err : new ConfigError(`cannot save the key: ${(err as Error).message}`);
      saved = 'NO: it could not be saved (see the error on stderr); copy it now';
    }
  }

  if (run.flags.json) {
    run.out.rawJson(res.raw);
  } else {
    const { renderRegistration } = await import('../output/registration.js');
    run.out.data(renderRegistration(run.out, { ...res.body, api_key: key }, saved));
  }

  if (saveError) {
    throw new ConfigError(`the new key was printed but not saved: ${saveError.message}`, {
      hint: "it cannot be shown again: copy it from stdout now, then store it with 'fcast auth login' or in FCAST_API_KEY",
    });
  }
  if (opts.save && secretFromEnv(run.ctx.env, 'FCAST_API_KEY')) {
    run.out.warn('FCAST_API_KEY is set in the environment and takes precedence over the saved key');
  }
  if (!res.wellFormed && conn.strict) {
    throw new BadResponseError(
      'register.php: the response does not match the documented shape (the key was still printed and saved)',
    );
  }
}

/**
 * Exit 2 before any request when a stored key would be overwritten: it could never be shown
 * again. With --force, returns the key that will be replaced.
 */
function refuseToReplace(run: Run, force: boolean): string | undefined {
  const { path, value: stored } = storedSecret(run.ctx, 'api-key');
  if (stored === undefined) return undefined;
  if (force) return stored;
  throw new UsageError(
    `an API key (${maskKey(stored)}) is already stored in ${path}; a new key would replace it, and the old one cannot be shown again`,
    { hint: 'pass --force to replace it, or --no-save to only print the new key' },
  );
}

const lostKeyHint = (email: string) =>
  `a key may have been issued for ${email} without reaching you. Run the same command again: ` +
  'an answer 409 (already registered) means it was issued, and it cannot be shown again; then register another address';

/** Register is never sent twice: say plainly whether a key may exist that we never saw. */
function explainFailure(err: unknown, email: string): unknown {
  if (err instanceof NetworkError) {
    if (!err.mayHaveArrived) return amend(err, { hint: 'nothing was sent, so no key was issued; check the base URL' });
    return amend(err, {
      suffix: '; the request may have reached the server and was not retried',
      hint: lostKeyHint(email),
    });
  }
  if (err instanceof BadResponseError) return amend(err, { hint: lostKeyHint(email) });
  if (err instanceof ApiError && err.status === 409) {
    return amend(err, {
      hint: "if you still have that address's key, store it with 'fcast auth login'; otherwise register another address",
    });
  }
  return err;
}
