// `fcast register --email`: a free API key, printed once and saved.
import type { Transport } from '../api/transport.js';
import type { Run } from '../cmdutil/command.js';
import { defineCommand, type FlagValues, flag, negatedFlag, requiredFlag } from '../cmdutil/define.js';
import {
  ApiError,
  amend,
  BadResponseError,
  ConfigError,
  InterruptedError,
  NetworkError,
  UsageError,
} from '../core/errors.js';
import { parseEmail } from '../cmdutil/input.js';
import { maskKey } from '../config/keys.js';
import { configDir } from '../config/directories.js';
import { secretFromEnv, storedSecret } from '../config/settings.js';
import { asRecord } from '../core/values.js';

const REGISTER_FLAGS = {
  email: requiredFlag('--email <address>', 'your e-mail address (at most 190 characters)', (raw) => raw),
  save: negatedFlag('--no-save', 'print the key without saving it'),
  force: flag('--force', 'replace a key already stored in the config file'),
};

type RegisterFlags = FlagValues<typeof REGISTER_FLAGS>;

export default defineCommand({
  name: 'register',
  summary: 'get a free API key for an e-mail address, and save it',
  description:
    'Asks the service for a free API key (tier free: data delayed 15 minutes). The key is saved in the ' +
    'config file (mode 0600) and printed once on stdout: the service keeps only its hash and can never ' +
    'show it again. A key already stored is not replaced without --force. If saving fails, the key is ' +
    'still printed, and the exit code is 3. The request is retried only on 429, never once it may have ' +
    'reached the server.',
  flags: REGISTER_FLAGS,
  examples: [
    ['fcast register --email you@example.com', 'get a key and save it'],
    ['fcast register --email you@example.com --json | jq -r .api_key', 'the body, for scripts (the key is saved too)'],
    ['fcast register --email ci@example.com --no-save', 'print the key only, e.g. to put it in a secret store'],
    ['fcast register --email new@example.com --force', 'replace the stored key (the old one is lost for good)'],
  ],
  run: (run, flags) => registerAction(run, flags),
});

async function registerAction(run: Run, opts: RegisterFlags): Promise<void> {
  const email = parseEmail(opts.email);
  const replaced = opts.save ? refuseToReplace(run, opts.force === true) : undefined;
  // Where the key will go is checked (the directory made, and written to) before a key can be issued.
  if (opts.save && !run.flags.dryRun) {
    const { prepareConfigDir, checkConfigDirWritable } = await import('../config/config-store.js');
    prepareConfigDir(configDir(run.ctx));
    checkConfigDirWritable(configDir(run.ctx));
  }

  const settings = run.settings();
  const [{ openConnection }, { registerKey, requests }, { holdExit }] = await Promise.all([
    import('../api/connect.js'),
    import('../api/endpoints.js'),
    import('../cmdutil/exit-guard.js'),
  ]);
  if (run.flags.dryRun) return void (await run.dryRun(requests.register(email)));
  const window = new KeyWindow(run, holdExit);
  // The shape is judged only after the key is safe: under --strict an off-shape body would
  // otherwise throw away the one copy of a key that was really issued.
  const connection = openConnection(run.ctx, settings, run.out, {
    transport: run.transport,
    wrap: (wire) => window.watch(wire),
  });
  const stopNoting = noteDeferredInterrupt(run, window, email);
  try {
    let res: Awaited<ReturnType<typeof registerKey>>;
    try {
      res = await registerKey(connection.conn, email);
    } catch (err) {
      throw explainFailure(err, email);
    } finally {
      stopNoting();
    }
    await keepKey(run, res, opts, replaced);
    window.close();
    if (run.ctx.signal.aborted) throw new InterruptedError();
    if (!res.wellFormed && run.flags.strict) {
      throw new BadResponseError(
        'register.php: the response does not match the documented shape (the key was still printed and saved)',
      );
    }
  } finally {
    window.close();
    await connection.close().catch(() => undefined);
  }
}

type Registration = { body: unknown; raw: string };

/** Prints the key, then saves it, then says where it went: the order that never leaves a key only in a temp file. */
async function keepKey(run: Run, res: Registration, opts: RegisterFlags, replaced: string | undefined): Promise<void> {
  const body = asRecord(res.body);
  const key = typeof body.api_key === 'string' ? body.api_key : undefined;
  if (key === undefined) {
    if (run.flags.json) run.out.rawJson(res.raw);
    throw new BadResponseError('register.php answered without an api_key', { hint: lostKeyHint(String(opts.email)) });
  }
  // Not a new key: one fcast already holds (this key, the gateway key, a proxy password). The
  // service keeps only a key's hash, so a server answering with it is broken or hostile, and
  // would have fcast show it whole: it stays masked, and nothing is saved.
  if (run.secrets.holds(key)) {
    if (run.flags.json) run.out.rawJson(res.raw);
    throw new BadResponseError(
      'register.php answered with a key fcast already holds, not a new one: not shown, not saved',
    );
  }
  const view = { ...body, api_key: key };
  const { renderNewKey, renderRegistrationDetails } = await import('../output/registration.js');
  // The one place a key is shown whole.
  run.secrets.reveal(key, () =>
    run.flags.json ? run.out.rawJson(res.raw) : run.out.data(renderNewKey(run.out, view)),
  );

  let saved: string;
  let saveError: ConfigError | undefined;
  if (!opts.save) {
    saved = "no (--no-save): keep it safe; 'fcast auth login' can store it later";
  } else {
    try {
      const store = await run.configStore();
      // No key was stored when refuseToReplace looked: none may have appeared since.
      await store.set('api-key', key, opts.force ? undefined : { ifStill: undefined });
      saved = `${store.path} (mode 0600)${replaced ? `, replacing ${maskKey(replaced)}` : ''}`;
    } catch (err) {
      saveError = err instanceof ConfigError ? err : new ConfigError(`cannot save the key: ${(err as Error).message}`);
      saved = 'NO: it could not be saved (see the error on stderr); copy it now';
    }
  }
  if (!run.flags.json) run.out.data(renderRegistrationDetails(run.out, view, saved));

  if (saveError) {
    throw new ConfigError(`the new key was printed but not saved: ${saveError.message}`, {
      hint: "it cannot be shown again: copy it from stdout now, then store it with 'fcast auth login' or in FCAST_API_KEY",
    });
  }
  if (opts.save && secretFromEnv(run.ctx.env, 'apiKey')) {
    run.out.warn('FCAST_API_KEY is set in the environment and takes precedence over the saved key');
  }
}

/**
 * From the moment the request is on its way (a 201 may arrive at any time) until the key is
 * printed and saved, the first Ctrl-C waits: the answer is read to its end (within the
 * deadline), main does not end the command, which then exits 130. A second Ctrl-C stops at once
 * while no answer has come; once a 2xx has come, its hard exit waits for the key too.
 */
class KeyWindow {
  answered = false;
  private sending = false;
  private release: (() => void) | undefined;
  private releaseInterrupts: (() => void) | undefined;
  constructor(
    private readonly run: Run,
    private readonly holdExit: () => () => void,
  ) {}

  /** The wire, on which an interrupt no longer cuts the exchange; the deadline still does. */
  watch(wire: Transport): Transport {
    return {
      close: () => wire.close(),
      proxyFor: wire.proxyFor ? (url) => wire.proxyFor?.(url) : undefined,
      // The client never aborts a request marked finishOnInterrupt on Ctrl-C (only its
      // deadline does), so the request goes through as it is.
      send: async (req) => {
        this.sending = true;
        this.releaseInterrupts ??= this.run.holdInterrupts();
        const res = await wire.send(req);
        if (res.status >= 200 && res.status < 300) this.holdKey();
        return res;
      },
    };
  }

  /** Whether an interrupt now waits for the answer. */
  get waiting(): boolean {
    return this.sending && !this.answered;
  }

  private holdKey(): void {
    if (this.answered) return;
    this.answered = true;
    this.release = this.holdExit();
  }

  close(): void {
    if (!this.sending) return;
    this.sending = false;
    this.releaseInterrupts?.();
    this.releaseInterrupts = undefined;
    this.release?.();
  }
}

/** Says why the first Ctrl-C does not stop register at once. */
function noteDeferredInterrupt(run: Run, window: KeyWindow, email: string): () => void {
  const { signal } = run.ctx;
  const onAbort = () => {
    if (window.waiting) {
      run.out.note(
        `\nfcast: waiting for the answer (a key may be being issued for ${email}); press Ctrl-C again to stop now`,
      );
    }
  };
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}

/**
 * Exit 2 before any request when a stored key would be overwritten: it could never be shown
 * again. With --force, returns the key that will be replaced.
 */
function refuseToReplace(run: Run, force: boolean): string | undefined {
  const { path, value: stored } = storedSecret(run.ctx, 'apiKey');
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
