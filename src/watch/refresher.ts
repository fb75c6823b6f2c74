// The state both views of a watch share: each symbol's last good answer, what the last refresh
// changed, the failures in a row, and when the next refresh may start.
import type { Clock } from '../core/context.js';
import { ApiError, ExitCode, FcastError } from '../core/errors.js';
import type { ForecastMarks } from '../output/forecast-table.js';
import { changesBetween } from './changes.js';
import { isTransient, secondsToNextRefresh } from './schedule.js';
import type { Answer, ForecastSource, WatchOptions } from './source.js';

export interface Failure {
  symbol: string;
  error: FcastError;
}

/** One refresh, told. */
export interface RefreshReport {
  /** This refresh's answers, in the symbols' order. */
  answers: Answer[];
  /** This refresh's failures, in the symbols' order. */
  failures: Failure[];
  /** The first failure the watch does not outlive, if any. */
  permanent?: Failure;
  /** The refresh's exit code: its first failure's, else 0 (the one-shot command's rule). */
  code: number;
}

export class Refresher {
  /** Each symbol's last good answer, by its index in the source's symbols. */
  readonly latest: Array<Answer | undefined>;
  /** What the last refresh changed, by symbol (empty after a first answer or a failure). */
  marks = new Map<string, ForecastMarks>();
  /** Refreshes started. */
  count = 0;
  /** Failed refreshes in a row (any symbol failing counts). */
  failures = 0;
  startedAt: number | undefined;
  /** When the next refresh may start (the clock's milliseconds): now, before the first. */
  nextAt: number;
  /** The last refresh's failures, for the status line. */
  lastFailures: Failure[] = [];

  constructor(
    private readonly source: ForecastSource,
    private readonly clock: Clock,
    private readonly options: WatchOptions,
  ) {
    this.latest = source.symbols.map(() => undefined);
    this.nextAt = clock.now();
  }

  /** The earliest a refresh may start: the interval after the last start, whatever happens. */
  earliest(): number {
    return this.startedAt === undefined ? this.clock.now() : this.startedAt + this.options.intervalS * 1000;
  }

  async refresh(): Promise<RefreshReport> {
    const startedAt = this.clock.now();
    this.startedAt = startedAt;
    this.count++;
    const results = await this.source.fetch();
    const arrivedAt = this.clock.now();
    const answers: Answer[] = [];
    const failures: Failure[] = [];
    const marks = new Map<string, ForecastMarks>();
    results.forEach((result, i) => {
      const symbol = this.source.symbols[i]!;
      if (result.status === 'rejected') {
        // Not an FcastError: a bug, reported as one by main.
        if (!(result.reason instanceof FcastError)) throw result.reason;
        failures.push({ symbol, error: result.reason });
        return;
      }
      const answer = { symbol, fetched: result.value, arrivedAt };
      const before = this.latest[i];
      const change =
        before?.fetched.wellFormed && result.value.wellFormed
          ? changesBetween(before.fetched.body, result.value.body)
          : undefined;
      if (change) marks.set(symbol, change);
      this.latest[i] = answer;
      answers.push(answer);
    });
    this.marks = marks;
    this.lastFailures = failures;
    const permanent = failures.find((f) => !isTransient(f.error.exitCode, this.options.strict));
    this.failures = failures.length > 0 ? this.failures + 1 : 0;
    const retryAfter = Math.max(
      ...failures.map((f) => (f.error instanceof ApiError ? (f.error.details.retryAfter ?? -1) : -1)),
    );
    const seconds = secondsToNextRefresh(
      this.options.intervalS,
      this.failures,
      retryAfter >= 0 ? retryAfter : undefined,
      this.clock.random(),
    );
    this.nextAt = startedAt + seconds * 1000;
    return { answers, failures, permanent, code: failures[0]?.error.exitCode ?? ExitCode.Ok };
  }

  /** Whether the refresh just made was the watch's last: --count of them are done. */
  get last(): boolean {
    return this.options.count !== undefined && this.count >= this.options.count;
  }

  /** Whether the board shows data older than the last refresh: some symbol's last refresh failed. */
  get stale(): boolean {
    return this.lastFailures.length > 0;
  }

  /** When the oldest answer on show arrived. */
  oldestAnswer(): number | undefined {
    const times = this.latest.flatMap((a) => (a ? [a.arrivedAt] : []));
    return times.length > 0 ? Math.min(...times) : undefined;
  }
}
