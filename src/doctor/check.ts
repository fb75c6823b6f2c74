// A check of `fcast doctor`: its verdict (pass, warn, fail), what it found, how to fix it, and
// the exit code a failure maps to; the checks themselves are checks.ts and service.ts.
import type { Transport } from '../api/transport.js';
import type { Ctx } from '../core/context.js';
import { ExitCode, FcastError } from '../core/errors.js';
import type { GlobalFlags } from '../config/settings.js';
import type { Output } from '../output/io.js';

export type CheckStatus = 'pass' | 'warn' | 'fail';

export interface Check {
  name: string;
  status: CheckStatus;
  detail: string;
  /** How to fix it; given for failures and warnings. */
  hint?: string;
  /** The exit code a failure maps to, per the contract's table. */
  exitCode?: ExitCode;
}

export const pass = (name: string, detail: string): Check => ({ name, status: 'pass', detail });
export const warn = (name: string, detail: string, hint?: string): Check => ({ name, status: 'warn', detail, hint });
export const fail = (
  name: string,
  detail: string,
  hint: string | undefined,
  exitCode: ExitCode = ExitCode.Config,
): Check => ({
  name,
  status: 'fail',
  detail,
  hint,
  exitCode,
});

export interface DoctorInput {
  ctx: Ctx;
  flags: GlobalFlags;
  out: Output;
  /** Tests swap the wire (App.transport); production gets node:http(s), and undici behind a proxy. */
  transport?: (ctx: Ctx) => Transport;
}

/** 0 when nothing failed; else the code of the first failed check. */
export function exitCodeOf(checks: readonly Check[]): ExitCode {
  const first = checks.find((c) => c.status === 'fail');
  return first ? (first.exitCode ?? ExitCode.Config) : ExitCode.Ok;
}

/**
 * A failed check from an error; a hint that would send the reader to doctor itself, or the
 * emulator's (which doctor's own names, with where the base URL is set), gives way to `fallbackHint`.
 */
export function failure(name: string, err: unknown, fallbackHint: string): Check {
  if (err instanceof FcastError) {
    const hint =
      err.hint === undefined || /fcast doctor|^nothing listens there/.test(err.hint) ? fallbackHint : err.hint;
    return fail(name, err.message, hint, err.exitCode);
  }
  return fail(
    name,
    `unexpected error: ${err instanceof Error ? err.message : String(err)}`,
    'run again with --verbose, and report it',
    ExitCode.Internal,
  );
}
