// The terminal of a board: the alternate screen, a hidden cursor, raw keys, and frames drawn
// by rewriting only the lines that changed. Whatever ends the watch (q, Ctrl-C as a key or a
// signal, SIGTERM, SIGHUP, an error, an exception nobody caught), close() gives the terminal
// back as it was: cursor, screen, line wrap, colours, cooked mode.
import type { Reader, Writer } from '../core/context.js';
import { charWidth } from '../output/table.js';
import { ansi, fitLine } from './ansi.js';

export type Key = 'quit' | 'refresh' | 'interrupt' | 'redraw' | 'suspend';

/** The terminal side of stdout: what a TTY write stream has beyond write(). */
export interface Terminal extends Writer {
  rows?: number;
  on?(event: 'resize', listener: () => void): unknown;
  off?(event: 'resize', listener: () => void): unknown;
}

export interface ScreenEvents {
  key(key: Key): void;
  resize(): void;
}

const DEFAULT_ROWS = 24;

export class Screen {
  private drawn: string[] = [];
  private drawnSize = '';
  private opened = false;
  private closed = false;
  private suspended = false;
  private fallback: ReturnType<typeof setTimeout> | undefined;
  private readonly onData = (chunk: Buffer | string) => {
    for (const key of keysIn(String(chunk))) {
      // Ctrl-Z in raw mode is a byte, not SIGTSTP: the board stops itself, as the terminal would.
      if (key === 'suspend') this.suspend();
      else this.events.key(key);
    }
  };
  private readonly onStop = () => this.suspend();
  private readonly onContinue = () => this.resume();
  private readonly onResize = () => this.events.resize();
  // A crash must not leave the terminal raw on the alternate screen: restored before Node
  // prints the exception (the monitor runs first), so that the trace shows on the shell's screen.
  private readonly onCrash = () => this.close();

  constructor(
    private readonly tty: Terminal,
    private readonly stdin: Reader | undefined,
    private readonly events: ScreenEvents,
  ) {}

  get columns(): number {
    return Math.max(1, this.tty.columns ?? 80);
  }

  get rows(): number {
    return Math.max(1, this.tty.rows ?? DEFAULT_ROWS);
  }

  open(): void {
    if (this.opened) return;
    this.opened = true;
    process.on('exit', this.onCrash);
    process.on('uncaughtExceptionMonitor', this.onCrash);
    // Ctrl-Z from `kill -TSTP` (or a terminal in cooked mode): the shell's screen back first.
    process.on('SIGTSTP', this.onStop);
    this.tty.write(ansi.enterAltScreen + ansi.hideCursor + ansi.noWrap + ansi.clearScreen);
    this.tty.on?.('resize', this.onResize);
    if (this.stdin?.isTTY) {
      // Raw: each key arrives as typed, and Ctrl-C as a byte, not SIGINT (handled as a key).
      this.stdin.setRawMode?.(true);
      this.stdin.on('data', this.onData);
      this.stdin.resume();
    }
  }

  /**
   * Shows `lines` (one per row, already composed): the lines that differ from the last frame
   * are rewritten and cleared to their end; after a resize (or `full`), the screen is cleared
   * once and drawn whole. Each frame is one write, inside synchronised-output marks. Nothing
   * while suspended: the screen is the shell's then, and where no job control stops the process
   * (the SIGTSTP discarded), the ticks and refreshes of the next 200 ms would draw on it, left
   * there under the shell's prompt after q (resume draws the board whole).
   */
  draw(lines: readonly string[], full = false): void {
    if (this.closed || this.suspended) return;
    const size = `${this.columns}x${this.rows}`;
    const whole = full || size !== this.drawnSize;
    let frame = whole ? ansi.clearScreen : '';
    const rows = Math.min(lines.length, this.rows);
    for (let i = 0; i < rows; i++) {
      const { text, cells } = fitLine(lines[i]!, this.columns, charWidth);
      if (!whole && this.drawn[i] === text) continue;
      // A line that fills the row leaves the cursor on its last cell: clearing from there would erase it.
      const clear = cells < this.columns ? ansi.clearLineEnd : '';
      frame += `${ansi.moveTo(i + 1)}${text}${ansi.resetColours}${clear}`;
      this.drawn[i] = text;
    }
    if (rows < this.drawn.length || whole) {
      // Fewer lines than before: the rest of the screen goes.
      if (!whole) frame += ansi.moveTo(rows + 1) + ansi.clearScreenEnd;
      this.drawn.length = rows;
    }
    this.drawnSize = size;
    if (frame !== '') this.tty.write(ansi.beginFrame + frame + ansi.endFrame);
  }

  /** The terminal's bell (an alert): nothing while suspended or closed. */
  bell(): void {
    if (this.closed || this.suspended || !this.opened) return;
    this.tty.write(ansi.bell);
  }

  /**
   * Ctrl-Z or SIGTSTP: the terminal as the shell expects it (main screen, cursor, cooked keys),
   * then the process stops as the terminal would stop it: SIGTSTP with its default action, not
   * SIGSTOP. Where no shell has job control (an orphaned process group: `tmux new 'fcast …'`,
   * `sh -c`, `ssh -t`), the kernel discards that SIGTSTP, as it discards the terminal's own, and
   * the board comes back at once; SIGSTOP would leave the process stopped with nothing to `fg` it.
   * With job control, `fg` (SIGCONT) brings the board back (resume).
   */
  suspend(): void {
    if (this.closed || !this.opened || this.suspended) return;
    this.suspended = true;
    if (this.stdin?.isTTY) this.stdin.setRawMode?.(false);
    this.tty.write(ansi.resetColours + ansi.wrap + ansi.showCursor + ansi.leaveAltScreen);
    // No listener: the default action (stop) applies. Put back in resume(), once the signal is
    // surely delivered or discarded, so that it never comes back to this handler.
    process.off('SIGTSTP', this.onStop);
    process.once('SIGCONT', this.onContinue);
    process.kill(process.pid, 'SIGTSTP');
    // Stopped: timers wait for the SIGCONT that continues the process, and either brings the
    // board back (once: resume() is guarded). Discarded: nothing continues it, so this does.
    this.fallback = setTimeout(this.onContinue, 200);
    this.fallback.unref();
  }

  /** Back from a stop (or a stop the kernel discarded): raw keys, the alternate screen, and the board drawn whole. */
  private resume(): void {
    if (!this.suspended) return;
    this.suspended = false;
    clearTimeout(this.fallback);
    process.off('SIGCONT', this.onContinue);
    if (this.closed) return;
    process.on('SIGTSTP', this.onStop);
    if (this.stdin?.isTTY) this.stdin.setRawMode?.(true);
    this.tty.write(ansi.enterAltScreen + ansi.hideCursor + ansi.noWrap + ansi.clearScreen);
    this.drawn = [];
    this.drawnSize = '';
    this.events.resize();
  }

  /** Gives the terminal back. Synchronous and idempotent: it runs in signal and exit handlers too. */
  close(): void {
    if (this.closed || !this.opened) return;
    this.closed = true;
    process.off('exit', this.onCrash);
    process.off('uncaughtExceptionMonitor', this.onCrash);
    process.off('SIGTSTP', this.onStop);
    process.off('SIGCONT', this.onContinue);
    clearTimeout(this.fallback);
    this.tty.off?.('resize', this.onResize);
    if (this.stdin?.isTTY) {
      this.stdin.off('data', this.onData);
      this.stdin.setRawMode?.(false);
      this.stdin.pause();
    }
    this.tty.write(ansi.resetColours + ansi.wrap + ansi.showCursor + ansi.leaveAltScreen);
  }
}

/** The keys the board knows in what the terminal sent: escape sequences (arrows, function keys) skipped whole. */
export function keysIn(text: string): Key[] {
  const keys: Key[] = [];
  for (const ch of text.replace(/\x1b(\[[0-?]*[ -/]*[@-~]|O.|.)?/g, '')) {
    if (ch === 'q' || ch === 'Q') keys.push('quit');
    else if (ch === 'r' || ch === 'R') keys.push('refresh');
    else if (ch === '\x03') keys.push('interrupt');
    else if (ch === '\x0c') keys.push('redraw');
    else if (ch === '\x1a') keys.push('suspend');
  }
  return keys;
}
