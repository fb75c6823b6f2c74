// What a command hands its watch: the fetch and the render its one-shot run uses, so that a
// refresh is that run again (and whatever hooks into the fetch, like --record, sees each one).
import type { Fetched } from '../api/endpoints.js';
import type { ForecastEnvelope } from '../api/schemas.js';
import type { ForecastMarks } from '../output/forecast-table.js';
import type { Output } from '../output/io.js';

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
}
