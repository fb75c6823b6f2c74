// An error, told once: one line and a hint on stderr, the server's error body on stdout under
// --json, the stack (and the library error under it) only with --verbose. Returns the exit code.
import { CommanderError } from 'commander';
import type { IO } from '../core/context.js';
import { ApiError, ExitCode, FcastError } from '../core/errors.js';
import { errorLines } from '../output/io.js';
import { reindentJson } from '../output/json.js';
import { clean, cleanBlock } from '../output/sanitize.js';

interface ReportFlags {
  json?: boolean;
  verbose?: boolean;
  /** The progress line was just cleared: the cursor is at the start of an empty line. */
  lineCleared?: boolean;
}

export function reportError(err: unknown, io: IO, flags: ReportFlags = {}): number {
  const { stderr, stdout } = io;
  if (err instanceof CommanderError) {
    // Help and version were printed by commander; its own errors too (configureOutput).
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return ExitCode.Ok;
    // `fcast` or `fcast auth` alone: commander printed the help to stderr; a command is missing.
    if (err.code === 'commander.help') return err.exitCode === 0 ? ExitCode.Ok : ExitCode.Usage;
    return ExitCode.Usage;
  }
  if (err instanceof FcastError) {
    if (err.exitCode === ExitCode.Interrupted) {
      // One line, however many requests were cut; on a terminal, after the echoed ^C.
      stderr.write(`${stderr.isTTY && !flags.lineCleared ? '\n' : ''}fcast: interrupted\n`);
      return ExitCode.Interrupted;
    }
    // Under --json the server's error body is the document.
    if (err instanceof ApiError && err.details.raw !== undefined && flags.json) {
      const document = reindentOrNothing(err.details.raw);
      if (document !== undefined) stdout.write(`${document}\n`);
    }
    stderr.write(errorLines(err, flags.verbose));
    // The stack begins with the message, server text and all: sanitised as every other line is.
    if (flags.verbose) stderr.write(cleanBlock(verboseDetail(err)));
    return err.exitCode;
  }
  const e = err instanceof Error ? err : new Error(String(err));
  stderr.write(`fcast: internal error: ${clean(e.message)}\n`);
  if (flags.verbose) stderr.write(`${cleanBlock(e.stack ?? '')}\n`);
  else stderr.write('  hint: run again with --verbose for the stack trace, and report it\n');
  return ExitCode.Internal;
}

/** The stack, then each cause's: the library's own words (OpenSSL, undici) live there. */
function verboseDetail(err: Error): string {
  let text = err.stack ? `${err.stack}\n` : '';
  let cause = err.cause;
  for (let depth = 0; cause !== undefined && depth < 5; depth++) {
    text += `caused by: ${cause instanceof Error ? (cause.stack ?? cause.message) : String(cause)}\n`;
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return text;
}

/** An error body nested too deeply or too large to print is left out, as a success body would be. */
function reindentOrNothing(raw: string): string | undefined {
  try {
    return reindentJson(raw);
  } catch {
    return undefined;
  }
}
