// main(argv, ctx) parses, runs and maps every error to the one exit-code table. It never
// exits: bin/fcast.js does, so tests can call main() in-process as often as they like.
import { CommanderError } from 'commander';
import { DryRunDone, renderDryRun } from './api/dry-run.js';
import type { App } from './command.js';
import type { Ctx } from './context.js';
import { ApiError, ExitCode, FcastError, InterruptedError } from './errors.js';
import { errorLines } from './output/io.js';
import { reindentJson } from './output/json.js';
import { Redactor, redactedIO } from './output/redact.js';
import { clean } from './output/sanitize.js';
import { buildProgram } from './program.js';
import { knownSecrets } from './settings.js';

export interface MainOptions {
  /** Tests may swap the wire; see App.transport. */
  transport?: App['transport'];
}

export async function main(argv: string[], given: Ctx, options: MainOptions = {}): Promise<number> {
  // Every line written, by a command, commander or the error report below, passes the redactor.
  const redactor = new Redactor(() => knownSecrets(given));
  const ctx: Ctx = { ...given, io: redactedIO(given.io, redactor) };
  const app: App = { ctx, exitCode: ExitCode.Ok, transport: options.transport, redactor };
  try {
    const program = await buildProgram(app, argv);
    await untilInterrupted(program.parseAsync(argv, { from: 'user' }), app);
    return app.exitCode;
  } catch (err) {
    return report(err, app);
  } finally {
    await app.run?.close().catch(() => undefined);
  }
}

/** Ctrl-C ends the command at once, even one stuck where no signal reaches. */
function untilInterrupted<T>(work: Promise<T>, app: App): Promise<T> {
  const { signal } = app.ctx;
  if (signal.aborted) return Promise.reject(new InterruptedError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      if (!app.handlesInterrupt) reject(new InterruptedError());
    };
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function report(err: unknown, app: App): number {
  const { stderr, stdout } = app.ctx.io;
  if (err instanceof CommanderError) {
    // Help and version were printed by commander; its own errors too (configureOutput).
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return ExitCode.Ok;
    // `fcast` or `fcast auth` alone: commander printed the help to stderr; a command is missing.
    if (err.code === 'commander.help') return err.exitCode === 0 ? ExitCode.Ok : ExitCode.Usage;
    return ExitCode.Usage;
  }
  if (err instanceof DryRunDone) {
    stdout.write(`${renderDryRun([err.request], app.run?.flags.json === true)}\n`);
    return ExitCode.Ok;
  }
  if (err instanceof FcastError) {
    if (err.exitCode === ExitCode.Interrupted) {
      // One line, however many requests were cut; on a terminal, after the echoed ^C.
      stderr.write(`${stderr.isTTY ? '\n' : ''}fcast: interrupted\n`);
      return ExitCode.Interrupted;
    }
    // Under --json the server's error body is the document, unless the command already wrote one.
    if (err instanceof ApiError && err.details.raw !== undefined && app.run?.flags.json && !app.run.out.wroteData) {
      const document = reindentOrNothing(err.details.raw);
      if (document !== undefined) stdout.write(`${document}\n`);
    }
    stderr.write(errorLines(err));
    if (app.run?.flags.verbose && err.stack) stderr.write(`${err.stack}\n`);
    return err.exitCode;
  }
  const e = err instanceof Error ? err : new Error(String(err));
  stderr.write(`fcast: internal error: ${clean(e.message)}\n`);
  if (app.run?.flags.verbose) stderr.write(`${e.stack ?? ''}\n`);
  else stderr.write('  hint: run again with --verbose for the stack trace, and report it\n');
  return ExitCode.Internal;
}

/** An error body nested too deeply or too large to print is left out, as a success body would be. */
function reindentOrNothing(raw: string): string | undefined {
  try {
    return reindentJson(raw);
  } catch {
    return undefined;
  }
}
