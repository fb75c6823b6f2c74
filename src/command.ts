// What every command's action gets: the context, the global flags, an Output, and lazy
// access to settings and the API, so a command that needs neither pays for neither.
import type { Command } from 'commander';
import type { Connection } from './api/endpoints.js';
import type { OpenConnection } from './api/connect.js';
import type { Transport } from './api/transport.js';
import type { Ctx } from './context.js';
import { colorWanted, Output } from './output/io.js';
import type { ConfigStore } from './config-store.js';
import { Redactor } from './output/redact.js';
import { configDir, resolveSettings, type GlobalFlags, type Settings } from './settings.js';

export interface Run {
  ctx: Ctx;
  flags: GlobalFlags;
  out: Output;
  /** flag > env > config file > default; throws exit 3 for an unreadable file or a bad value. */
  settings(): Settings;
  /** The API connection (HTTP client + shape checks); created on first use. */
  connect(): Promise<Connection>;
  /** The clock in epoch seconds, the unit of every time in the API. */
  nowSeconds(): number;
  /** The config file for writing (conf, imported only by the commands that write). */
  configStore(): Promise<ConfigStore>;
  /** Releases the HTTP connections so the process can end at once. */
  close(): Promise<void>;
  /** The redactor of every write: `add` a key just typed; `reveal` register's new key once. */
  secrets: Redactor;
}

export interface App {
  ctx: Ctx;
  exitCode: number;
  /** The run of the command being executed, for main's error report (--json, --verbose). */
  run?: Run;
  /** Set by a command (the emulator) that stops cleanly on Ctrl-C by itself. */
  handlesInterrupt?: boolean;
  /** Lets tests swap the wire; production leaves it undefined and gets undici. */
  transport?: (ctx: Ctx) => Transport;
  /** What every write passes (main wraps the streams with it); commands add keys they learn. */
  redactor?: Redactor;
}

function createRun(app: App, flags: GlobalFlags): Run {
  const { ctx } = app;
  const out = new Output(ctx.io, colorWanted(flags.color, ctx.env, ctx.io.stdout.isTTY), flags.verbose === true, {
    wide: flags.wide,
    env: ctx.env,
  });
  let settings: Settings | undefined;
  let connection: Promise<OpenConnection> | undefined;
  const run: Run = {
    ctx,
    flags,
    out,
    secrets: app.redactor ?? new Redactor(),
    settings: () => (settings ??= resolveSettings(ctx, flags)),
    connect: async () => {
      connection ??= (async () => {
        const current = run.settings();
        const { openConnection } = await import('./api/connect.js');
        return openConnection(ctx, current, out, {
          dryRun: flags.dryRun,
          strict: flags.strict,
          transport: app.transport,
        });
      })();
      return (await connection).conn;
    },
    nowSeconds: () => Math.floor(ctx.clock.now() / 1000),
    configStore: async () => {
      const { openConfigStore } = await import('./config-store.js');
      return openConfigStore(configDir(ctx));
    },
    close: async () => {
      if (connection) await (await connection.catch(() => undefined))?.close();
    },
  };
  return run;
}

/**
 * Wraps a command's handler as a commander action. Commander passes the declared arguments,
 * then the command's own options, then the command; handlers get `(run, opts, ...args)`.
 */
export function action<O, A extends unknown[]>(
  app: App,
  // biome-ignore lint/suspicious/noConfusingVoidType: handlers that return nothing mean success
  handler: (run: Run, opts: O, ...args: A) => Promise<number | void>,
) {
  return async (...given: unknown[]): Promise<void> => {
    const command = given[given.length - 1] as Command;
    const opts = given[given.length - 2] as O;
    const args = given.slice(0, -2) as A;
    const run = createRun(app, command.optsWithGlobals() as GlobalFlags);
    app.run = run;
    app.exitCode = (await handler(run, opts, ...args)) ?? 0;
  };
}

/** Examples for a command's --help, one per line, each with a short comment. */
export function examples(...lines: Array<[command: string, comment: string]>): string {
  const width = Math.max(...lines.map(([c]) => c.length));
  return `\nExamples:\n${lines.map(([c, why]) => `  $ ${c.padEnd(width)}  # ${why}`).join('\n')}\n`;
}
