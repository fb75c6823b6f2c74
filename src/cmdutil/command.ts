// What every command's action gets: the context, the global flags, an Output, and lazy
// access to settings and the API, so a command that needs neither pays for neither.
import type { Command } from 'commander';
import type { OpenConnection } from '../api/connect.js';
import type { RequestSpec } from '../api/client.js';
import type { Connection } from '../api/endpoints.js';
import type { Transport } from '../api/transport.js';
import type { ConfigStore } from '../config/config-store.js';
import type { Ctx, IO, Writer } from '../core/context.js';
import type { OutputFormat } from '../core/domain.js';
import { amend, ExitCode, InterruptedError, UsageError } from '../core/errors.js';
import { colorWanted, Output } from '../output/io.js';
import { Redactor } from '../core/redact.js';
import { guardOf, WORKFLOW_GUARD } from '../output/workflow-commands.js';
import { closest, shown } from './input.js';
import { reportError } from './error-report.js';
import { withSettingOrigin } from './setting-origin.js';
import { configDir } from '../config/directories.js';
import { type GlobalFlags, resolveSettings, type Settings } from '../config/settings.js';
import { untilAborted } from '../api/until-aborted.js';

export interface Run {
  ctx: Ctx;
  flags: GlobalFlags;
  out: Output;
  /** flag > env > config file > default; throws exit 3 for an unreadable file or a bad value. */
  settings(): Settings;
  /** The API connection (HTTP client + shape checks); created on first use. */
  connect(): Promise<Connection>;
  /** --dry-run: prepares the requests (settings and key checked), prints them, sends nothing. */
  dryRun(...requests: RequestSpec[]): Promise<number>;
  /** The clock in epoch seconds, the unit of every time in the API. */
  nowSeconds(): number;
  /** The output format asked for (--format, or json for --json), already checked against the command's own. */
  readonly format: OutputFormat;
  /** The config file for writing, under its lock (config-store.ts, imported only by the commands that write). */
  configStore(): Promise<ConfigStore>;
  /**
   * Until the returned release is called, Ctrl-C does not end the command at once (register,
   * while a key may be on its way): the command sees ctx.signal and ends with exit 130 itself.
   */
  holdInterrupts(): () => void;
  /** The redactor of every write: `add` a key just typed; `reveal` register's new key once. */
  secrets: Redactor;
  /** The command being run, as commander built it: `completion` reads the whole tree from its root. */
  readonly command: Command;
  /** The wire a test swapped in (App.transport), for a command that opens connections of its own (mcp). */
  readonly transport?: (ctx: Ctx) => Transport;
}

export interface App {
  ctx: Ctx;
  /** Lets tests swap the wire; production leaves it undefined (see api/transport.ts). */
  transport?: (ctx: Ctx) => Transport;
  /** How an action hands its exit code back to main: commander drops what actions return. */
  setExitCode(code: number): void;
  /** What every write passes (main wraps the streams with it); commands add keys they learn. */
  redactor?: Redactor;
}

/** A writer that drops whatever comes once `ended()` says so. */
function gated(writer: Writer, ended: () => boolean): Writer {
  const kept: Writer & { [WORKFLOW_GUARD]?: unknown } = {
    write: (chunk) => ended() || writer.write(chunk),
    // Under GitHub Actions, the way for fcast's own annotations past the workflow-command filter.
    [WORKFLOW_GUARD]: guardOf(writer),
    get isTTY() {
      return writer.isTTY;
    },
    get columns() {
      return writer.columns;
    },
  };
  return kept;
}

function createRun(
  app: App,
  flags: GlobalFlags,
  format: OutputFormat,
  command: Command,
): { run: Run; close(): void; interruptsHeld(): boolean; settingsUsed(): Settings | undefined } {
  const { ctx } = app;
  let holds = 0;
  // Once the action has ended (Ctrl-C cuts a command short and leaves it running behind),
  // nothing the command still does reaches the streams: "interrupted" is the last word.
  let ended = false;
  // stdin stays a getter (a spread would read it): process.stdin costs ~10 ms of CPU to build,
  // and only a few commands read it.
  const io: IO = {
    stdout: gated(ctx.io.stdout, () => ended),
    stderr: gated(ctx.io.stderr, () => ended),
    get stdin() {
      return ctx.io.stdin;
    },
  };
  if (ctx.io.releaseStdout) io.releaseStdout = ctx.io.releaseStdout;
  // Under GitHub Actions, JSON on stdout is kept the same value (\u escapes), other text changed visibly.
  guardOf(ctx.io.stdout)?.setMode(format === 'json' || format === 'jsonl' ? 'json' : 'text');
  const out = new Output(io, colorWanted(flags.color, ctx.env, ctx.io.stdout.isTTY), flags.verbose === true, {
    wide: flags.wide,
    env: ctx.env,
    markdown: format === 'markdown',
  });
  let settings: Settings | undefined;
  let opened: OpenConnection | undefined;
  let connection: Promise<OpenConnection> | undefined;
  const run: Run = {
    ctx,
    flags,
    out,
    format,
    command,
    secrets: app.redactor ?? new Redactor(),
    transport: app.transport,
    settings: () => (settings ??= resolveSettings(ctx, flags)),
    connect: async () => {
      connection ??= (async () => {
        const current = run.settings();
        const { openConnection } = await import('../api/connect.js');
        opened = openConnection(ctx, current, out, { strict: flags.strict, transport: app.transport });
        return opened;
      })();
      return (await connection).conn;
    },
    dryRun: async (...requests) => {
      const { client } = await run.connect();
      const [{ shownRequest }, { renderDryRun }] = await Promise.all([
        import('../api/dry-run.js'),
        import('../output/dry-run.js'),
      ]);
      const shown = requests.map((spec) => shownRequest(client.prepare(spec)));
      out.data(renderDryRun(shown, flags.json === true));
      return ExitCode.Ok;
    },
    nowSeconds: () => Math.floor(ctx.clock.now() / 1000),
    configStore: async () => {
      const { openConfigStore } = await import('../config/config-store.js');
      return openConfigStore(configDir(ctx));
    },
    holdInterrupts: () => {
      holds++;
      let released = false;
      return () => {
        if (!released) holds--;
        released = true;
      };
    },
  };
  const close = () => {
    out.progress(undefined);
    ended = true;
    // Destroys the connections at once: nothing the command left behind may delay the exit.
    opened?.close();
  };
  return { run, close, interruptsHeld: () => holds > 0, settingsUsed: () => settings };
}

export interface ActionOptions {
  /** The --format values the command gives; the first is its default. Default: table and json. */
  formats?: readonly OutputFormat[];
}

const TABLE_AND_JSON: readonly OutputFormat[] = ['table', 'json'];

/** What commands whose result is a table of records give: the table, the body, its records as CSV or TSV, the table as Markdown. */
export const RECORD_FORMATS = ['table', 'json', 'csv', 'tsv', 'markdown'] as const satisfies readonly OutputFormat[];

/** CSV or TSV: the records of output/formats/, not the table. */
export const isDelimited = (format: OutputFormat): format is 'csv' | 'tsv' => format === 'csv' || format === 'tsv';

/** What action() returns: commander's action, carrying the formats it gives for the command's help. */
export interface ActionHandler {
  (...given: unknown[]): Promise<void>;
  readonly formats: readonly OutputFormat[];
}

/** The help section naming a command's formats, the first being its default. */
export function formatsHelp(formats: readonly OutputFormat[]): string {
  const names = formats.map((f, i) => (i === 0 ? `${f} (default)` : f));
  return `\nFormats:\n  --format ${names.slice(0, -1).join(', ')}${names.length > 1 ? ' or ' : ''}${names.at(-1)}`;
}

/**
 * The format a run asks for: --json is --format json (and wins over another --format, which
 * the command may note); one the command cannot give is exit 2 naming those it gives.
 */
function chosenFormat(command: Command, flags: GlobalFlags, formats: readonly OutputFormat[]): OutputFormat {
  // --json asks for json as --format json does: a command that cannot give it says so too,
  // whatever --format says beside it.
  for (const asked of [flags.format, flags.json ? 'json' : undefined]) {
    if (asked === undefined || formats.includes(asked as OutputFormat)) continue;
    const path = commandPath(command);
    const list = `${formats.slice(0, -1).join(', ')}${formats.length > 1 ? ' or ' : ''}${formats.at(-1)}`;
    const near = closest(asked, formats);
    throw new UsageError(
      `${path} gives --format ${list}, not ${shown(asked)}${near ? `; did you mean ${near}?` : ''}`,
      {
        hint: `see 'fcast ${path} --help'`,
      },
    );
  }
  if (flags.format === 'json') flags.json = true;
  return flags.json ? 'json' : ((flags.format as OutputFormat | undefined) ?? formats[0] ?? 'table');
}

/**
 * `work()`, with a usage error it throws pointed at the command's help when it carries no
 * hint of its own: the next step after a refused value is the list of allowed ones.
 */
export function withHelpHint<T>(work: () => T, command: Command): T {
  try {
    return work();
  } catch (err) {
    throw helpHinted(err, command);
  }
}

function helpHinted(err: unknown, command: Command): unknown {
  if (!(err instanceof UsageError) || err.hint !== undefined) return err;
  const path = commandPath(command);
  return amend(err, { hint: `see 'fcast ${path ? `${path} ` : ''}--help'` });
}

/** `track-record`, `auth login`: the command's path below the root, as typed. */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/**
 * Wraps a command's handler as a commander action. Commander passes the declared arguments,
 * then the command's own options, then the command; handlers get `(run, opts, ...args)` and
 * return their exit code (nothing means success). Errors become the code here, reported once.
 */
export function action<O, A extends unknown[]>(
  app: App,
  // biome-ignore lint/suspicious/noConfusingVoidType: handlers that return nothing mean success
  handler: (run: Run, opts: O, ...args: A) => Promise<number | void>,
  options: ActionOptions = {},
): ActionHandler {
  const formats = options.formats ?? TABLE_AND_JSON;
  const run = async (...given: unknown[]): Promise<void> => {
    const command = given[given.length - 1] as Command;
    const opts = given[given.length - 2] as O;
    const args = given.slice(0, -2) as A;
    const flags = command.optsWithGlobals() as GlobalFlags;
    let format: OutputFormat;
    try {
      format = chosenFormat(command, flags, formats);
    } catch (err) {
      app.setExitCode(reportError(helpHinted(err, command), app.ctx.io, flags));
      return;
    }
    const { run, close, interruptsHeld, settingsUsed } = createRun(app, flags, format, command);
    let code: number;
    try {
      // Ctrl-C (or SIGTERM) ends the command at once, in whatever phase it is, unless it holds them.
      const work = handler(run, opts, ...args);
      code = (await untilAborted(work, app.ctx.signal, () => new InterruptedError(), interruptsHeld)) ?? ExitCode.Ok;
      // A table that fitted the terminal by leaving columns out says so, once, after everything.
      run.out.leftOutNote();
    } catch (err) {
      // The spinner's line goes first: a report written after it would leave it on the screen
      // (with the ^C the terminal echoed onto it).
      const told = withSettingOrigin(helpHinted(err, command), settingsUsed());
      code = reportError(told, app.ctx.io, { ...flags, lineCleared: run.out.endProgress() });
    } finally {
      close();
    }
    app.setExitCode(code);
  };
  return Object.assign(run, { formats });
}

export { examples } from './help.js';
