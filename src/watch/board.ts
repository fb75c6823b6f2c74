// A watch on a terminal: the board. The command's own table, redrawn in place on the alternate
// screen, with a status line at the bottom (last update, next refresh, errors, keys). Between
// refreshes it ticks once a second without asking the server anything: countdowns and ages
// move on from each body's own clock. What changed since the previous refresh is marked for
// one refresh; a failed refresh keeps the last good board, marked stale with its age.
import type { Ctx, Writer } from '../core/context.js';
import { InterruptedError } from '../core/errors.js';
import { redactText } from '../core/sinks.js';
import { MARK } from '../output/forecast-table.js';
import { formatDuration } from '../output/format.js';
import { leftOutText, type Output } from '../output/io.js';
import { clean } from '../output/sanitize.js';
import { displayWidth, truncate, withoutColour } from '../output/table.js';
import { type Told, WatchAlerts } from './alert-actions.js';
import { bodyAt, shownTimes } from './changes.js';
import { Refresher, type RefreshReport } from './refresher.js';
import { type Key, Screen, type Terminal } from './screen.js';
import type { Answer, ForecastSource, WatchOptions } from './source.js';

/** The alerts listed under a board, at most. */
const MAX_ALERT_LINES = 5;
/** The attribution footer's lines (disclaimer, source, tier): never cut from a board too tall for its window. */
const FOOTER_LINES = 3;
/** A footer whose disclaimer wrapped on a narrow window: kept whole up to this many lines. */
const MAX_FOOTER_LINES = 6;

export async function boardForecasts(
  ctx: Ctx,
  out: Output,
  source: ForecastSource,
  options: WatchOptions,
): Promise<number> {
  const refresher = new Refresher(source, ctx.clock, options);
  const keys: Key[] = [];
  let woken: AbortController | undefined;
  let wakePending = false;
  const wake = () => {
    wakePending = true;
    woken?.abort();
  };
  const stdin = ctx.io.stdin.isTTY ? ctx.io.stdin : undefined;
  const screen = new Screen(ctx.io.stdout as Terminal, stdin, {
    key: (key) => {
      keys.push(key);
      wake();
    },
    resize: wake,
  });
  // Ctrl-C as a signal, SIGTERM, SIGHUP (src/launch/run.ts turns each into this abort): the terminal
  // comes back at once, synchronously, before main reports the interruption on the shell's screen.
  const onAbort = () => {
    screen.close();
    wake();
  };
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  // What the API layer says on stderr (a shape warning) would scribble over the board: it goes
  // to the status line instead, until the next refresh.
  let notice: string | undefined;
  const stderr = divertStderr(out, (text) => {
    notice = text;
  });
  // Alerts: a command's output never reaches the board; its failure is a notice on the status line.
  const alerts =
    options.alerts &&
    new WatchAlerts(ctx, options.alerts, {
      warn: (message) => {
        notice = `warning: ${message}`;
        // Drawn now, not at the next tick: a command's failure arrives between them.
        wake();
      },
    });
  const view = new BoardView(ctx, out, source, refresher, options, alerts);
  // Once the board is gone (whatever ended it), the alerts it showed stay said on the shell's
  // screen, as a watch without a terminal tells them.
  let alertsTold = false;
  const tellAlerts = () => {
    if (alertsTold) return;
    alertsTold = true;
    for (const t of alerts?.history ?? []) out.note(`fcast: alert: ${clock(t.at)} ${t.text}`);
  };
  let done: RefreshReport | undefined;
  let failed: { error: unknown } | undefined;
  let inflight = false;
  let full = false;
  // A refresh's answers go on to the command (--record) once the board has drawn them.
  let toShow: { answers: Answer[]; told: Told[] } | undefined;
  try {
    if (ctx.signal.aborted) throw new InterruptedError();
    screen.open();
    for (;;) {
      if (ctx.signal.aborted) throw new InterruptedError();
      for (const key of keys.splice(0)) {
        if (key === 'quit') return 0;
        if (key === 'interrupt') throw new InterruptedError();
        full = true;
        if (key === 'refresh') view.refreshAsked(inflight);
      }
      if (failed) throw failed.error;
      if (done) {
        const report = done;
        done = undefined;
        inflight = false;
        notice = undefined;
        view.refreshed(report);
        const told = alerts?.refreshed(report) ?? [];
        // The bell once for the refresh, however many fired.
        if (told.length > 0) screen.bell();
        if (report.permanent) {
          // The board goes, the shell's screen comes back, then the errors: the others here, the
          // one that ends the watch by main, with its hint and code.
          screen.close();
          stderr.restore();
          for (const f of report.failures) if (f !== report.permanent) out.error(f.error);
          throw report.permanent.error;
        }
        const alerted = told.length > 0 && options.alerts?.exitOnAlert === true;
        if (refresher.last || alerted) {
          // The last board stays on the shell's screen, as the command alone would print it.
          screen.close();
          stderr.restore();
          const final = view.text(ctx.clock.now(), false);
          if (final !== '') out.data(final);
          tellAlerts();
          // A last refresh that failed is told as the command alone would tell it, with how old
          // the table is: exit 6 after a table that looks fresh would say nothing of why.
          for (const f of report.failures) out.error(f.error);
          const stale = view.staleAge(report, ctx.clock.now());
          if (stale !== undefined) out.note(`fcast: the table above is the last good data, from ${stale} ago`);
          await source.shown?.(report.answers, told);
          await alerts?.drain();
          return alerted ? 0 : report.code;
        }
        toShow = { answers: report.answers, told };
      }
      const now = ctx.clock.now();
      if (!inflight && now >= refresher.nextAt) {
        inflight = true;
        view.refreshing();
        refresher.refresh().then(
          (report) => {
            done = report;
            wake();
          },
          (error: unknown) => {
            failed = { error };
            wake();
          },
        );
      }
      screen.draw(view.frame(now, screen.columns, screen.rows, notice), full);
      full = false;
      if (toShow) {
        // After the draw: a journal waiting for its lock holds back no one's view of the board.
        const { answers, told } = toShow;
        toShow = undefined;
        await source.shown?.(answers, told);
      }
      // Until the next second's tick (countdowns move each second), or the refresh, or a wake.
      const next = view.nextTick(now);
      const until = inflight ? next : Math.min(next, refresher.nextAt);
      if (wakePending) {
        wakePending = false;
        continue;
      }
      woken = new AbortController();
      try {
        await ctx.clock.sleep(Math.max(0, until - ctx.clock.now()), woken.signal);
      } catch {
        // Woken early: a key, a resize, a finished refresh, or Ctrl-C (checked at the top).
      }
      woken = undefined;
      wakePending = false;
    }
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
    alerts?.stop();
    screen.close();
    stderr.restore();
    tellAlerts();
  }
}

/** Replaces the Output's stderr with `sink` (the last line written) until restore(). */
function divertStderr(out: Output, sink: (line: string) => void): { restore(): void } {
  const io = out.io as { stderr: Writer };
  const saved = io.stderr;
  io.stderr = {
    write: (chunk) => {
      const lines = String(chunk)
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l !== '');
      if (lines.length > 0) sink(lines[0]!.replace(/^fcast: /, ''));
      return true;
    },
    isTTY: false,
  };
  return {
    restore: () => {
      io.stderr = saved;
    },
  };
}

/** What the board shows, composed from the refresher's state at a given moment. */
class BoardView {
  /** Set when `r` asked for a refresh the interval does not allow yet: when it will come. */
  private deferred: number | undefined;
  private busy = false;
  private lastArrival: number | undefined;
  /** Refreshes finished: what the board shows changes with each. */
  private finished = 0;

  constructor(
    private readonly ctx: Ctx,
    private readonly out: Output,
    private readonly source: ForecastSource,
    private readonly refresher: Refresher,
    private readonly options: WatchOptions,
    private readonly alerts?: WatchAlerts,
  ) {}

  refreshing(): void {
    this.busy = true;
    this.deferred = undefined;
  }

  refreshed(report: RefreshReport): void {
    this.busy = false;
    this.finished++;
    if (report.answers.length > 0) this.lastArrival = report.answers[0]!.arrivedAt;
  }

  /**
   * `r`: a refresh now, unless the last one started less than an interval ago: never more
   * often than the interval, `r` included. Then the refresh comes at the first moment the
   * interval allows (after a failure, that cuts the backoff short), and the status line says when.
   */
  refreshAsked(inflight: boolean): void {
    if (inflight) return;
    const now = this.ctx.clock.now();
    const earliest = this.refresher.earliest();
    if (earliest < this.refresher.nextAt) this.refresher.nextAt = Math.max(earliest, now);
    if (this.refresher.nextAt > now) this.deferred = this.refresher.nextAt;
  }

  /** How old the oldest answer on show of a symbol that `report` failed is; undefined when none is. */
  staleAge(report: RefreshReport, now: number): string | undefined {
    const failed = new Set(report.failures.map((f) => f.symbol));
    const times = this.refresher.latest.flatMap((a) => (a && failed.has(a.symbol) ? [a.arrivedAt] : []));
    return times.length === 0 ? undefined : formatDuration((now - Math.min(...times)) / 1000);
  }

  /** When the next tick is due: a second after the last answer's arrival, and every second since. */
  nextTick(now: number): number {
    const phase = this.lastArrival ?? 0;
    const into = (((now - phase) % 1000) + 1000) % 1000;
    return now + (1000 - into);
  }

  /** The last table rendered, what it depended on, and how many columns it left out to fit. */
  private rendered: { key: string; text: string; leftOut: number } | undefined;

  /**
   * The command's table at `now`: each body moved on by the seconds since it arrived; marks
   * when asked. Rendered again only when something it shows has changed (the answers, their
   * marks, the width, a duration as worded): most ticks change the status line alone, and a
   * render of a 22-row table each second would be most of an idle board's CPU.
   */
  text(now: number, marked: boolean): string {
    const { refresher } = this;
    const nowS = Math.floor(now / 1000);
    const times = refresher.latest.map((a) =>
      a?.fetched.wellFormed ? shownTimes(a.fetched.body, Math.floor((now - a.arrivedAt) / 1000), nowS) : nowS,
    );
    const key = `${this.finished}/${marked}/${this.out.columns}/${times.join('\n')}`;
    if (this.rendered?.key === key) return this.rendered.text;
    const shown = refresher.latest.flatMap((a) => (a ? [at(a, now)] : []));
    const marks = marked ? refresher.marks : undefined;
    this.out.takeColumnsLeftOut();
    const text = shown.length === 0 ? '' : this.source.render(this.out, shown, nowS, marks).text;
    this.rendered = { key, text, leftOut: this.out.takeColumnsLeftOut() };
    return text;
  }

  /** The whole screen: the stale banner, the board, the legend of the marks, and the status line, `rows` lines. */
  frame(now: number, columns: number, rows: number, notice: string | undefined): string[] {
    const { out, refresher } = this;
    const c = out.c;
    const top: string[] = [];
    const oldest = refresher.oldestAnswer();
    if (refresher.stale) {
      // The mark and the age here; why, on the status line (the contract's place for errors).
      const age = oldest === undefined ? 'no data yet' : `data from ${formatDuration((now - oldest) / 1000)} ago`;
      top.push(`${c.inverse(c.yellow(' STALE '))} ${c.yellow(`${age}: the last refresh failed`)}`);
    }
    const latest = this.alerts?.latest ?? [];
    if (latest.length > 0) {
      // The last refresh's alerts, highlighted at the top until the next refresh.
      const more = latest.length > 1 ? ` (and ${latest.length - 1} more)` : '';
      top.push(
        `${c.inverse(c.red(' ALERT '))} ${c.bold(truncate(`${latest[0]!.text}${more}`, Math.max(1, columns - 8)))}`,
      );
    }
    const bottom: string[] = [];
    // Under the board: the alerts fired, newest first, with their times; the last refresh's bold.
    const history = this.alerts?.history ?? [];
    if (history.length > 0) {
      const shown = history.slice(-MAX_ALERT_LINES).reverse();
      bottom.push(c.bold(`Alerts${history.length > shown.length ? ` (the last ${shown.length})` : ''}:`));
      for (const t of shown) {
        const text = truncate(`${clock(t.at)} ${t.text}`, columns);
        bottom.push(latest.includes(t) ? c.yellow(c.bold(text)) : text);
      }
    }
    // The board's own marks (a watch marks with a column of its own), explained while any shows.
    if ([...refresher.marks.values()].some((m) => m.tfs.size > 0 || m.price !== undefined)) {
      const legend = `${MARK.new} new forecast  ${MARK.flipped} direction flipped  ${MARK.up}${MARK.down} price moved: since the previous refresh`;
      const short = `${MARK.new} new  ${MARK.flipped} flipped  ${MARK.up}${MARK.down} price: since the last refresh`;
      bottom.push(c.dim(displayWidth(legend) <= columns ? legend : short));
    }
    const body = this.text(now, true);
    // As a table says so on stderr: the board says which columns a narrow window cost it.
    const leftOut = this.rendered?.leftOut ?? 0;
    if (leftOut > 0) bottom.push(c.dim(truncate(leftOutText(leftOut), columns)));
    bottom.push(...this.status(now, columns, notice));
    const lines = body === '' ? [] : body.split('\n');
    const room = Math.max(0, rows - top.length - bottom.length);
    const middle = clip(lines, room, (hidden) => c.dim(hiddenLines(hidden, columns)));
    const blank = Array.from({ length: Math.max(0, room - middle.length) }, () => '');
    return [...top, ...middle, ...blank, ...bottom].slice(0, rows);
  }

  /**
   * The status line: when the board was updated, when it next will be, what went wrong, the keys.
   * Two lines when the board is stale and the reason does not fit beside the retry and the keys.
   */
  private status(now: number, columns: number, notice: string | undefined): string[] {
    const { out, refresher, options } = this;
    const c = out.c;
    const updated = this.lastArrival;
    const ago = updated === undefined ? '' : formatDuration((now - updated) / 1000);
    const next = formatDuration(Math.max(0, refresher.nextAt - now) / 1000);
    const when = this.busy
      ? 'refreshing…'
      : this.deferred !== undefined && this.deferred > now
        ? `refresh at ${clock(this.deferred)} (at most one each ${options.intervalS}s)`
        : refresher.stale
          ? `retry in ${next}`
          : `next in ${next}`;
    const keys = [`${c.bold('q')} quit`, `${c.bold('r')} refresh`];
    const said = notice === undefined ? [] : [c.yellow(clean(notice))];
    const long = updated === undefined ? [] : [`updated ${clock(updated)} UTC (${ago} ago)`];
    const short = updated === undefined ? [] : [`updated ${ago} ago`];
    const width = (parts: string[]) => displayWidth(withoutColour(parts.join(' · ')));
    const fits = (parts: string[]) => width(parts) <= columns;
    const dot = c.dim(' · ');
    // The longest wording that fits, parts given up by priority (the times, the wait's reason,
    // then `r`, then `q`): a part goes whole, never cut mid-word.
    const pick = (variants: string[][]) => {
      const found = variants.find(fits);
      return found ? found.join(dot) : truncate(withoutColour(variants.at(-1)!.join(' · ')), columns);
    };
    const [quit] = keys;
    const deferredAt = this.deferred !== undefined && this.deferred > now ? `refresh at ${clock(this.deferred)}` : when;
    if (refresher.stale) {
      // Why the board is stale comes first, then the retry and the keys; on a narrow window the
      // times go, then the reason takes a line of its own (cut to the width), never left out.
      const failures = refresher.lastFailures;
      const why = clean(
        `${failures[0]!.error.message}${failures.length > 1 ? ` (and ${failures.length - 1} more)` : ''}`,
      );
      const oneLine = [
        [...said, c.yellow(why), ...long, when, ...keys],
        [c.yellow(why), ...short, when, ...keys],
        [c.yellow(why), when, ...keys],
      ].find(fits);
      if (oneLine) return [oneLine.join(dot)];
      return [
        // Masked before it is cut, as a table's cells are.
        c.yellow(truncate(redactText(why), columns)),
        pick([[...short, when, ...keys], [when, ...keys], [deferredAt, ...keys], [deferredAt, quit!], [deferredAt]]),
      ];
    }
    return [
      pick([
        [...said, ...long, when, ...keys],
        [...said, ...short, when, ...keys],
        [...said, when, ...keys],
        [when, ...keys],
        [...short, deferredAt, ...keys],
        [deferredAt, ...keys],
        [deferredAt, quit!],
        [deferredAt],
      ]),
    ];
  }
}

/** An answer as it stands at `now`: its body moved on by the whole seconds since it arrived. */
function at(answer: Answer, now: number): Answer {
  const { fetched } = answer;
  if (!fetched.wellFormed) return answer;
  const elapsed = Math.floor((now - answer.arrivedAt) / 1000);
  return { ...answer, fetched: { ...fetched, body: bodyAt(fetched.body, elapsed) } };
}

/** The line in place of a board's hidden lines: the longest wording that fits the width. */
function hiddenLines(hidden: number, columns: number): string {
  const lines = `… ${hidden} more line${hidden === 1 ? '' : 's'}`;
  const worded = [
    `${lines}: a taller window shows them (or --tf fewer timeframes)`,
    `${lines}: a taller window shows them`,
  ];
  return worded.find((w) => displayWidth(w) <= columns) ?? lines;
}

/** HH:MM:SS of a time in milliseconds, UTC. */
const clock = (ms: number) => new Date(ms).toISOString().slice(11, 19);

/**
 * At most `room` lines: a board too tall for its window loses lines from the middle, with a
 * line saying so, and keeps its footer: the lines after the last blank one (the attribution
 * the licence requires, with the disclaimer however it wrapped), or at least the last three.
 */
export function clip(lines: string[], room: number, hiddenLine: (hidden: number) => string): string[] {
  if (lines.length <= room) return lines;
  const blank = lines.lastIndexOf('');
  const after = blank < 0 ? 0 : lines.length - blank - 1;
  const footer = after >= FOOTER_LINES && after <= MAX_FOOTER_LINES ? after : FOOTER_LINES;
  if (room < footer + 2) return lines.slice(0, room);
  const head = room - footer - 1;
  return [...lines.slice(0, head), hiddenLine(lines.length - head - footer), ...lines.slice(-footer)];
}
