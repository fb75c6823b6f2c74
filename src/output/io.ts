// One place for where output goes: data to stdout, people's messages to stderr, colour
// only when it is wanted.
import { createColors } from 'picocolors';
import type { Env, IO } from '../core/context.js';
import { reindentJson, stringifyJson } from './json.js';
import { markdownDocument } from './markdown-document.js';
import { clean, cleanBlock } from './sanitize.js';
import type { FcastError } from '../core/errors.js';

export type Colors = ReturnType<typeof createColors>;

/** --no-color beats everything; then NO_COLOR, then FORCE_COLOR; else only on a terminal. */
export function colorWanted(flag: boolean | undefined, env: Env, stdoutIsTTY: boolean | undefined): boolean {
  if (flag === false) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return !['0', 'false', 'no', 'off'].includes(force.toLowerCase());
  return stdoutIsTTY === true && env.TERM !== 'dumb';
}

export class Output {
  readonly c: Colors;
  constructor(
    readonly io: IO,
    readonly color: boolean,
    readonly verbose: boolean,
    view: { wide?: boolean; env?: Env; markdown?: boolean } = {},
  ) {
    this.markdown = view.markdown === true;
    // Markdown is read in a browser, never on this terminal: no colour, every column.
    this.c = createColors(color && !this.markdown);
    this.tty = io.stdout.isTTY === true;
    this.wide = view.wide === true || this.markdown;
    const fromEnv = Number(view.env?.COLUMNS);
    this.envColumns = Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : undefined;
  }

  /**
   * --format markdown: tables are Markdown tables (renderTable), and what `data` writes becomes a
   * Markdown document: the text around them escaped, its lines kept as lines (markdown-document.ts).
   */
  readonly markdown: boolean;
  /** Lines already Markdown (a table's rows), and whole texts a Markdown renderer wrote: written as they are. */
  readonly markdownKept = { lines: new Set<string>(), texts: new Set<string>() };

  /** `text`, Markdown already (a renderer of its own made it): `data` writes it as it is. */
  markdownAsIs(text: string): string {
    this.markdownKept.texts.add(text);
    return text;
  }

  /** Whether stdout is a terminal: tables fit its width there, and keep every column when piped. */
  readonly tty: boolean;
  /** --wide: every column on a terminal too, whatever its width. */
  readonly wide: boolean;
  private readonly envColumns: number | undefined;

  /** The terminal's width: stdout's own, else COLUMNS, else 80. */
  get columns(): number {
    const own = this.io.stdout.columns;
    return own !== undefined && own > 0 ? own : (this.envColumns ?? 80);
  }

  /** Data: a table or text block, newline-terminated; under --format markdown, as Markdown. */
  data(text: string): void {
    const shown =
      this.markdown && !this.markdownKept.texts.delete(text) ? markdownDocument(text, this.markdownKept.lines) : text;
    this.io.stdout.write(shown.endsWith('\n') ? shown : `${shown}\n`);
  }

  /** A body as the server sent it. */
  rawJson(raw: string): void {
    this.data(reindentJson(raw));
  }

  /** A value of our own making. */
  json(value: unknown): void {
    this.data(stringifyJson(value));
  }

  private readonly hintsShown = new Set<string>();
  /** The most columns one table of this run left out to fit the terminal. */
  private leftOut = 0;

  /** A table left `n` columns out to fit the terminal: said once, after the output (leftOutNote). */
  columnsLeftOut(n: number): void {
    this.leftOut = Math.max(this.leftOut, n);
  }

  /** Set by a watch: its board re-fits at every refresh, and the note would follow it out. */
  leftOutUntold = false;

  /** How many columns the tables rendered since the last call left out, at most (a board says so itself). */
  takeColumnsLeftOut(): number {
    const n = this.leftOut;
    this.leftOut = 0;
    return n;
  }

  /** One line on stderr saying how many columns a table left out, and how to see them; once. */
  leftOutNote(): void {
    if (this.leftOut === 0 || this.leftOutUntold) return;
    this.note(`fcast: ${leftOutText(this.takeColumnsLeftOut())}`);
  }

  /**
   * An error as one line on stderr, then its hint: each hint once a run, so that three symbols
   * failing for one cause (a slow service) say what to do about it once.
   */
  error(err: FcastError): void {
    this.progress(undefined);
    const repeated = err.hint !== undefined && this.hintsShown.has(err.hint);
    if (err.hint !== undefined) this.hintsShown.add(err.hint);
    this.io.stderr.write(errorLines(err, this.verbose, { hint: !repeated }));
  }

  /** A notice for people: stderr, never stdout. */
  note(message: string): void {
    this.progress(undefined);
    this.io.stderr.write(`${cleanBlock(message)}\n`);
  }

  warn(message: string): void {
    this.progress(undefined);
    this.io.stderr.write(`${this.c.yellow('warning:')} ${cleanBlock(message)}\n`);
  }

  /** Only with --verbose. */
  debug(message: string): void {
    if (!this.verbose) return;
    this.progress(undefined);
    this.io.stderr.write(`${this.c.dim(cleanBlock(message))}\n`);
  }

  private progressShown = false;

  /**
   * A line on a terminal's stderr that the next one replaces (a spinner), or undefined to
   * clear it; every other message on stderr clears it first, so none is written over it.
   */
  progress(text: string | undefined): void {
    if (this.io.stderr.isTTY !== true) return;
    if (text === undefined) {
      this.endProgress();
      return;
    }
    const width = Math.max(1, (this.io.stderr.columns ?? 80) - 1);
    this.io.stderr.write(`\r\x1b[2K${clean(text).slice(0, width)}`);
    this.progressShown = true;
  }

  /** Clears the progress line, if one is shown; true when it was (the cursor is then at the start of an empty line). */
  endProgress(): boolean {
    if (!this.progressShown) return false;
    this.io.stderr.write('\r\x1b[2K');
    this.progressShown = false;
    return true;
  }
}

/**
 * `fcast: <message>` and, where one helps, an indented hint: each error's whole report. A
 * server's long text is cut in the message; with `verbose`, the message holds all of it.
 */
export function errorLines(err: FcastError, verbose = false, opts: { hint?: boolean } = {}): string {
  const message = verbose ? (err.wholeMessage ?? err.message) : err.message;
  const hint = opts.hint !== false && err.hint ? `  hint: ${clean(err.hint)}\n` : '';
  return `fcast: ${clean(message)}\n${hint}`;
}

/** What a view that left `n` columns out to fit says, on stderr or on the board. */
export const leftOutText = (n: number): string => `${n} column${n === 1 ? '' : 's'} left out to fit; --wide shows them`;
