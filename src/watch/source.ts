// What a command hands its watch: the fetch, the render and the after-show step its one-shot
// run uses, so that a refresh is that run again (and --record, after each refresh is on show,
// sees each one).
import type { Fetched } from '../api/endpoints.js';
import type { ForecastEnvelope } from '../schema/bodies.js';
import type { ForecastMarks } from '../output/forecast-table.js';
import type { Output } from '../output/io.js';
import type { Ctx } from '../core/context.js';
import type { AlertRule } from '../core/alert-rules.js';

export type Forecast = Fetched<ForecastEnvelope>;

/** A symbol's answer and when it arrived (the watch's clock, milliseconds). */
export interface Answer {
  symbol: string;
  fetched: Forecast;
  arrivedAt: number;
}

export interface ForecastSource {
  /** The symbols, in the order given: each refresh has one result per symbol, in this order. */
  symbols: readonly string[];
  /**
   * One refresh: every symbol fetched once, through the command's own fetch path. A symbol's
   * failure is its result; what concerns every symbol (settings, a bug) rejects.
   */
  fetch(): Promise<Array<PromiseSettledResult<Forecast>>>;
  /**
   * The command's table of these answers at `nowSeconds`, as its one-shot run prints it; with
   * `marks` (by symbol), what changed since the previous refresh. `problems`: notes for stderr.
   */
  render(
    out: Output,
    answers: ReadonlyArray<{ symbol: string; fetched: Forecast }>,
    nowSeconds: number,
    marks?: ReadonlyMap<string, ForecastMarks>,
  ): { text: string; problems: string[] };
  /**
   * After a refresh's answers are on show (written to the stream, drawn on the board): what the
   * command does with what it showed (--record). The output never waits for it: a journal
   * waiting for its lock must not hold the forecasts back.
   */
  shown?(answers: ReadonlyArray<{ symbol: string; fetched: Forecast }>, alerts?: readonly FiredAlert[]): Promise<void>;
  /** The timeframes shown (--tf's, as the last refresh checked them); undefined: every one. Unscoped alerts watch these. */
  timeframes?(): readonly string[] | undefined;
}

/** An alert that fired at a refresh, as told (alert-actions.ts): for --record to note beside its forecast. */
export interface FiredAlert {
  /** When it fired (the watch's clock, milliseconds). */
  at: number;
  symbol: string;
  /** The server's name of the timeframe, cleaned; '' for the price. */
  tf: string;
  field: string;
  op: string;
  value: string;
  threshold: string;
  rule: string;
  already: boolean;
  previous?: string;
  text: string;
}

export interface WatchOptions {
  /** Seconds from the start of one refresh to the start of the next, at the least. */
  intervalS: number;
  /** Stop after this many refreshes; unset, until q, Ctrl-C or a permanent failure. */
  count?: number;
  /** NDJSON instead of tables. */
  json: boolean;
  /** --strict: a bad response (7) ends the watch. */
  strict: boolean;
  /** --alert (with --on-alert, --exit-on-alert): what to tell once per crossing (alerts.ts). */
  alerts?: AlertOptions;
}

export interface AlertOptions {
  rules: AlertRule[];
  /** Run by the shell at each alert, the alert's data in FCAST_ALERT_* variables only. */
  onAlert?: string;
  /** End the watch, exit 0, at the first alert. */
  exitOnAlert: boolean;
  /** The timeframes shown (ForecastSource.timeframes): an alert of no timeframe watches only these. */
  timeframes?: () => readonly string[] | undefined;
}

/** A watch loop (the board, the stream): refreshes `source` until it ends; gives the exit code. */
export type WatchLoop = (ctx: Ctx, out: Output, source: ForecastSource, options: WatchOptions) => Promise<number>;
