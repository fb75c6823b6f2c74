// A watch whose stdout is not a terminal (or asked for --json): each refresh appended to the
// stream, for a log file, `jq` or `head`. With --json, one compact JSON document per response
// per line (NDJSON), the body's content as sent; without, the plain table and a blank line.
// Errors go to stderr, one line each with a timestamp, and the stream goes on; a permanent one
// ends it with its code. A reader that leaves ends it quietly: exit 0.
import type { Ctx } from '../core/context.js';
import { ApiError, FcastError, InterruptedError } from '../core/errors.js';
import { formatDuration } from '../output/format.js';
import type { Output } from '../output/io.js';
import { compactJson } from '../output/json.js';
import { clean } from '../output/sanitize.js';
import { alertJson, MAX_TOLD_PER_REFRESH, type Told, WatchAlerts } from './alert-actions.js';
import { pipeReaderCheck } from './reader-gone.js';
import { type Failure, Refresher, type RefreshReport } from './refresher.js';
import type { ForecastSource, WatchLoop, WatchOptions } from './source.js';

/** How often a sleeping stream looks whether its reader is still there. */
const READER_CHECK_MS = 500;

/** The reader left: the stream ends, exit 0. */
class ReaderGone extends Error {}

export const streamForecasts: WatchLoop = async (ctx, out, source, options) => {
  const refresher = new Refresher(source, ctx.clock, options);
  // Its readers are looked for before the first line goes out: `head -1` leaves right after it.
  const readerLeft = readerCheck(ctx);
  const alerts =
    options.alerts &&
    new WatchAlerts(ctx, options.alerts, {
      warn: (message, alert) => line(ctx, out, `warning: ${message}${alert ? ` (alert: ${alert})` : ''}`),
      // A command's output is the user's own: on stderr, never in the stream of bodies.
      output: (text) => out.io.stderr.write(text),
    });
  try {
    for (;;) {
      const report = await refresher.refresh();
      write(ctx, out, source, options, refresher, report);
      const told = alerts?.refreshed(report) ?? [];
      tellAlerts(ctx, out, options, told);
      await source.shown?.(report.answers, told);
      if (report.permanent) throw withoutBody(report.permanent.error);
      if (told.length > 0 && options.alerts?.exitOnAlert) {
        await alerts?.drain();
        return 0;
      }
      if (refresher.last) {
        await alerts?.drain();
        return report.code;
      }
      await sleepUntil(ctx, refresher.nextAt, readerLeft);
    }
  } catch (err) {
    alerts?.stop();
    if (err instanceof ReaderGone || isClosedPipe(err)) return 0;
    throw err;
  }
};

/**
 * A refresh's alerts, after its output: with --json an `{"alert": {...}}` line each in the
 * stream; otherwise a stamped line each on stderr. At most MAX_TOLD_PER_REFRESH one by one.
 */
function tellAlerts(ctx: Ctx, out: Output, options: WatchOptions, told: Told[]): void {
  const shown = told.slice(0, MAX_TOLD_PER_REFRESH);
  const more = told.length - shown.length;
  for (const t of shown) {
    if (options.json) out.io.stdout.write(`${alertJson(t)}\n`);
    else line(ctx, out, `alert: ${t.text}`);
  }
  if (more > 0) line(ctx, out, `alert: and ${more} more at this refresh`);
}

function write(
  ctx: Ctx,
  out: Output,
  source: ForecastSource,
  options: WatchOptions,
  refresher: Refresher,
  report: RefreshReport,
): void {
  const failed = new Map(report.failures.map((f) => [f.symbol, f]));
  if (options.json) {
    // In the symbols' order: a body, or the server's error body; nothing when no answer came.
    for (const symbol of source.symbols) {
      const answer = report.answers.find((a) => a.symbol === symbol);
      const raw = answer ? answer.fetched.raw : errorBody(failed.get(symbol));
      const line = raw === undefined ? undefined : compactOrNothing(raw);
      if (line !== undefined) out.io.stdout.write(`${line}\n`);
    }
  } else if (report.answers.length > 0) {
    const now = Math.floor(ctx.clock.now() / 1000);
    const view = source.render(out, report.answers, now);
    out.io.stdout.write(`${view.text.replace(/\n?$/, '\n')}\n`);
    for (const problem of view.problems) line(ctx, out, problem);
  }
  const next = formatDuration((refresher.nextAt - ctx.clock.now()) / 1000);
  // After the last refresh (a permanent failure, --count reached) none comes: no countdown.
  const last = report.permanent !== undefined || refresher.last;
  for (const f of report.failures) {
    // The permanent failure is main's to tell, with its hint.
    if (f === report.permanent) continue;
    const stale = staleness(ctx, refresher, f);
    const parts = [clean(f.error.message), ...(stale ? [stale] : []), ...(last ? [] : [`next refresh in ${next}`])];
    line(ctx, out, parts.join('; '));
  }
}

/**
 * How old the symbol's last good data is, the stream's "stale" mark: the lines above it are
 * what a reader still has. Nothing before the first good answer.
 */
function staleness(ctx: Ctx, refresher: Refresher, failure: Failure): string {
  const last = refresher.latest.find((a) => a?.symbol === failure.symbol);
  return last ? `last good data ${formatDuration((ctx.clock.now() - last.arrivedAt) / 1000)} old` : '';
}

/** One line on stderr, stamped with the time (UTC, to the second): a log of a long watch reads by it. */
function line(ctx: Ctx, out: Output, message: string): void {
  const stamp = `${new Date(ctx.clock.now()).toISOString().slice(0, 19)}Z`;
  out.io.stderr.write(`${stamp} fcast: ${clean(message)}\n`);
}

function errorBody(failure: Failure | undefined): string | undefined {
  return failure?.error instanceof ApiError ? failure.error.details.raw : undefined;
}

function compactOrNothing(raw: string): string | undefined {
  try {
    return compactJson(raw);
  } catch {
    return undefined;
  }
}

/**
 * The error as main reports it, less the body: its compact line is already in the stream, and
 * main would print it again, indented, under --json.
 */
function withoutBody(error: FcastError): FcastError {
  return error instanceof ApiError ? new FcastError(error.message, error.exitCode, { hint: error.hint }) : error;
}

function readerCheck(ctx: Ctx): (() => boolean) | undefined {
  const fd = (ctx.io.stdout as { fd?: unknown }).fd;
  return fd === 1 ? pipeReaderCheck(1, ctx.platform) : undefined;
}

/** Sleeps until `at`, in steps of a second while there is a reader to look for; Ctrl-C ends it with 130. */
async function sleepUntil(ctx: Ctx, at: number, readerLeft: (() => boolean) | undefined): Promise<void> {
  for (;;) {
    const left = at - ctx.clock.now();
    if (left <= 0) return;
    try {
      await ctx.clock.sleep(readerLeft ? Math.min(left, READER_CHECK_MS) : left, ctx.signal);
    } catch {
      throw new InterruptedError();
    }
    if (readerLeft?.()) throw new ReaderGone();
  }
}

/** A write to a pipe whose reader has gone (in-process; the real stdout says so in an 'error' event, see src/launch/stdio.ts). */
function isClosedPipe(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | undefined)?.code === 'EPIPE';
}
