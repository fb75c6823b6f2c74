// What the journal's subcommands share once they run: the filter their flags and the base URL
// make, the refusal to pool two services, and the warnings about what a read skipped. Loaded
// with a subcommand's body, never when the command tree is built.
import type { Run } from '../../cmdutil/command.js';
import { checkTimeRange, type JournalFilterFlags } from '../../cmdutil/journal-flags.js';
import { inspectSettings } from '../../config/settings.js';
import { InterruptedError, UsageError } from '../../core/errors.js';
import { originLabel, originOf } from '../../journal/record.js';

/** Requests at once to the service (settle's candles, the report's track records). */
export const PARALLEL_REQUESTS = 20;

/**
 * The filter of a reading command. Its origins: --origin's, else the base URL's (the service
 * fcast talks to now), else, with no base URL set, whichever one the journal holds (`auto`:
 * the command refuses to pool two; checkOneOrigin).
 */
export function filterOf(run: Run, f: JournalFilterFlags) {
  checkTimeRange(f);
  const base = { symbols: f.symbol, tfs: f.tf, since: f.since, until: f.until };
  if (f.origin === 'all') return { ...base, auto: false };
  if (f.origin === 'unknown') return { ...base, origins: [null], auto: false };
  if (f.origin !== undefined) return { ...base, origins: [f.origin], auto: false };
  const origin = baseUrlOrigin(run);
  return origin === undefined ? { ...base, auto: true } : { ...base, origins: [origin], auto: false };
}

/**
 * The base URL's origin when one is set (flag, environment or config file), without checking
 * the other settings: `report --offline` and `list` read the journal alone, and a wrong
 * FCAST_TIMEOUT is no reason to refuse them.
 */
export function baseUrlOrigin(run: Run): string | undefined {
  const found = inspectSettings(run.ctx, run.flags).baseUrl;
  return found.problem || found.found === undefined ? undefined : originOf(found.found.value);
}

/**
 * With no origin chosen and no base URL: one service's records, or exit 2 naming them. The
 * origins are those of the forecasts the command selected and, for an export with --prices,
 * of its price observations (the message then says which service holds what).
 */
export function checkOneOrigin(
  filter: { auto: boolean },
  forecasts: ReadonlySet<string | null>,
  prices?: ReadonlySet<string | null>,
): void {
  const origins = new Set([...forecasts, ...(prices ?? [])]);
  if (!filter.auto || origins.size < 2) return;
  const held =
    prices === undefined
      ? `the forecasts of ${origins.size} services (${[...origins].map(originLabel).sort().join(', ')})`
      : `the records of ${origins.size} services (${[...origins]
          .map((o) => {
            const kinds = [forecasts.has(o) && 'forecasts', prices.has(o) && 'prices'].filter(Boolean).join(' and ');
            return `${originLabel(o)}: ${kinds}`;
          })
          .sort()
          .join('; ')})`;
  throw new UsageError(`the journal holds ${held}; fcast does not pool them`, {
    hint: 'choose one with --origin URL (or unknown), set the base URL, or pool them with --origin all',
  });
}

/** Says how many forecasts of other services the origin filter left out. */
export function noteLeftOut(run: Run, leftOut: number): void {
  if (leftOut > 0)
    run.out.note(
      `journal: ${leftOut} forecast(s) of other services (or of an unknown one) left out; --origin URL|unknown|all shows them`,
    );
}

export function warnProblems(run: Run, problems: { damaged: number; newer: number; torn: number }): void {
  if (problems.torn > 0)
    run.out.warn(
      `journal: the last line of ${problems.torn === 1 ? 'a month file' : `${problems.torn} month files`} is incomplete, skipped (a write cut short by a crash, or one in progress); the next recording ends it`,
    );
  if (problems.damaged > 0)
    run.out.warn(
      `journal: ${problems.damaged} damaged line(s) skipped (a write cut short by a crash, or an edit by hand)`,
    );
  if (problems.newer > 0)
    run.out.warn(`journal: ${problems.newer} line(s) written by a newer fcast skipped; upgrade to read them`);
}

/**
 * Lets a Ctrl-C that came during a long synchronous step (a large journal's read, a comparison's
 * statistics) be heard, and ends the command there (exit 130) rather than after it has printed:
 * a signal's handler runs only when the event loop turns, which such a step never lets it do.
 */
export async function heardInterrupts(run: Run): Promise<void> {
  // Two turns: resumed from the poll phase (after an fs/promises read), one turn runs the
  // check phase before libuv has read the signal's pipe.
  await new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
  if (run.ctx.signal.aborted) throw new InterruptedError();
}
