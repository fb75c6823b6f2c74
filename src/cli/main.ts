// main(argv, ctx) parses and runs one command and returns its exit code. It never exits:
// bin/fcast.js does (through the launcher), so tests can call main() in-process as often as they like.
import type { App } from '../cmdutil/command.js';
import type { Ctx } from '../core/context.js';
import { ExitCode } from '../core/errors.js';
import { Redactor } from '../core/redact.js';
import { openBoundary, redactedIO } from '../core/sinks.js';
import { inGitHubActions, neutralisedIO } from '../output/workflow-commands.js';
import { runProgram } from './program.js';
import { reportError } from '../cmdutil/error-report.js';
import { isStandalone } from '../core/package-files.js';
import { isVersionJson, versionJson } from './version.js';
import { knownSecrets } from '../config/known-secrets.js';

export interface MainOptions {
  /** Tests may swap the wire; see App.transport. */
  transport?: App['transport'];
}

export async function main(argv: string[], given: Ctx, options: MainOptions = {}): Promise<number> {
  // Every byte written, by a command, commander or the error report, to a stream or a file,
  // passes the redactor (core/sinks.ts, the one output boundary); under GitHub Actions, then
  // the filter that keeps any text from reading as a workflow command (after the redactor: a
  // space it puts in must not hide a key from it).
  const redactor = new Redactor(() => knownSecrets(given));
  const closeBoundary = openBoundary(redactor);
  const io = inGitHubActions(given.env) ? neutralisedIO(given.io) : given.io;
  const ctx: Ctx = { ...given, io: redactedIO(io, redactor) };
  // Commander drops what an action returns: the action hands its exit code back here.
  let exitCode: number | undefined;
  const app: App = { ctx, transport: options.transport, redactor, setExitCode: (code) => (exitCode ??= code) };
  if (isVersionJson(argv)) {
    ctx.io.stdout.write(versionJson(ctx.version, ctx.nodeVersion, ctx.platform, process.arch, isStandalone()));
    return ExitCode.Ok;
  }
  try {
    await runProgram(app, argv);
    return exitCode ?? ExitCode.Ok;
  } catch (err) {
    // Errors of the command line itself (commander's, before any action ran).
    return exitCode ?? reportError(err, ctx.io);
  } finally {
    closeBoundary();
  }
}
