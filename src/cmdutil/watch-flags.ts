// --watch, --interval and --count, shared by `demo` and `predict`: the flags, their checks
// (before any request), and what a watch changes in a run. The watch itself (src/watch/) is
// imported by the action only when --watch is given.
import { UsageError } from '../core/errors.js';
import type { Run } from './command.js';
import { parseWholeNumber, shown } from './input.js';
import type { ForecastSource } from '../watch/index.js';
import { parseDecimal } from '../core/values.js';
import type { AlertRule } from '../core/alert-rules.js';
import { parseAlertFlag } from './alert-flags.js';
import { flag, type FlagValues, valueFlag } from './define.js';

export const DEFAULT_INTERVAL_S = 60;
/** The service's data moves by the minute at best: a faster watch would only load it. */
export const MIN_INTERVAL_S = 5;
const MAX_INTERVAL_S = 86_400;

/** --watch and the flags that go with it, for `run` to get typed (define.ts); `name` for the hints. */
export function watchFlags(name: string) {
  const hint = `see 'fcast ${name} --help'`;
  return {
    watch: flag(
      '--watch',
      'refresh until q or Ctrl-C: a live board on a terminal, a stream piped (--json: one line per response)',
    ),
    interval: valueFlag(
      '--interval <seconds>',
      `seconds between refreshes, at least ${MIN_INTERVAL_S} (default ${DEFAULT_INTERVAL_S})`,
      (raw) => parseInterval(raw, hint),
    ),
    count: valueFlag('--count <n>', "stop after n refreshes, exiting with the last one's code", (raw) => {
      try {
        return parseWholeNumber(raw, '--count', 1);
      } catch (err) {
        throw new UsageError((err as Error).message, { hint });
      }
    }),
    alert: valueFlag<AlertRule[]>(
      '--alert <expr>',
      "tell once when it turns true ('fcast help alerts')",
      parseAlertFlag,
    ),
    onAlert: valueFlag('--on-alert <cmd>', 'with --alert: run cmd by the shell at each alert', (raw) => raw),
    exitOnAlert: flag('--exit-on-alert', 'with --alert: end the watch, exit 0, at the first alert'),
  } as const;
}

export type WatchFlags = FlagValues<ReturnType<typeof watchFlags>>;

function parseInterval(raw: string, hint: string): number {
  const n = parseDecimal(raw, { min: MIN_INTERVAL_S, max: MAX_INTERVAL_S });
  if (n === undefined)
    throw new UsageError(
      `--interval must be a number of seconds from ${MIN_INTERVAL_S} to ${MAX_INTERVAL_S}, got ${shown(raw)}`,
      { hint },
    );
  return n;
}

export interface WatchPlan {
  intervalS: number;
  count?: number;
  alerts?: { rules: AlertRule[]; onAlert?: string; exitOnAlert: boolean };
}

/**
 * What --watch asks for, checked; undefined without it (then --interval and --count are exit 2:
 * they mean nothing alone). A watch sends each request once per refresh: its own backoff, never
 * faster than the interval, replaces the client's quick retries (--retries), which would ask
 * the server again within seconds. Called before anything reads the settings.
 */
export function watchPlan(run: Run, flags: WatchFlags, name: string): WatchPlan | undefined {
  if (!flags.watch) {
    const alone = flags.interval !== undefined ? '--interval' : flags.count !== undefined ? '--count' : undefined;
    if (alone)
      throw new UsageError(`${alone} works with --watch`, { hint: `add --watch, or see 'fcast ${name} --help'` });
    if (flags.alert || flags.onAlert !== undefined || flags.exitOnAlert) {
      const which = flags.alert ? '--alert' : flags.onAlert !== undefined ? '--on-alert' : '--exit-on-alert';
      throw new UsageError(`${which} works with --watch`, {
        hint: `add --watch, or see 'fcast help alerts'`,
      });
    }
    return undefined;
  }
  if (!flags.alert && (flags.onAlert !== undefined || flags.exitOnAlert)) {
    throw new UsageError(`${flags.onAlert !== undefined ? '--on-alert' : '--exit-on-alert'} works with --alert`, {
      hint: `add --alert EXPR, or see 'fcast help alerts'`,
    });
  }
  if (flags.onAlert !== undefined && flags.onAlert.trim() === '')
    throw new UsageError('--on-alert needs a command', { hint: `see 'fcast help alerts'` });
  // A refresh is a table on a screen or a line of JSON in a stream; a CSV header once per
  // refresh would break every reader, so those formats stay one-shot.
  if (run.format !== 'table' && run.format !== 'json')
    throw new UsageError(`--watch gives --format table or json, not '${run.format}'`, {
      hint: `drop --watch for one ${run.format} document, or see 'fcast ${name} --help'`,
    });
  if (run.flags.dryRun) return undefined;
  run.flags.retries = 0;
  return {
    intervalS: flags.interval ?? DEFAULT_INTERVAL_S,
    count: flags.count,
    ...(flags.alert && {
      alerts: { rules: flags.alert, onAlert: flags.onAlert, exitOnAlert: flags.exitOnAlert === true },
    }),
  };
}

/** Runs the watch (loaded only now: a command that does not watch never parses it). */
export async function runWatch(run: Run, plan: WatchPlan, source: ForecastSource): Promise<number> {
  // An alert scoped to a symbol not watched could never fire: said now, before any request.
  for (const rule of plan.alerts?.rules ?? []) {
    if (rule.symbol !== undefined && !source.symbols.includes(rule.symbol))
      throw new UsageError(
        `--alert '${rule.text}' names ${rule.symbol}, which is not watched (${source.symbols.join(', ')})`,
        {
          hint: `see 'fcast help alerts'`,
        },
      );
  }
  const { watchForecasts } = await import('../watch/index.js');
  // A board re-fits at every refresh and resize: no note about columns after it.
  run.out.leftOutUntold = true;
  return watchForecasts(run.ctx, run.out, source, {
    intervalS: plan.intervalS,
    count: plan.count,
    json: run.flags.json === true,
    strict: run.flags.strict === true,
    ...(plan.alerts && { alerts: { ...plan.alerts, timeframes: source.timeframes } }),
  });
}
