// `fcast mcp`: the MCP server (src/mcp/), on stdio or, with --http, Streamable HTTP on loopback.
import { Option } from 'commander';
import { defineCommand, flag, optionFlag, valueFlag } from '../cmdutil/define.js';
import { parseWholeNumber } from '../cmdutil/input.js';
import { guardOf } from '../output/workflow-commands.js';

/** The text budget of one result, in characters: what an assistant's context can take at once. */
const DEFAULT_MAX_OUTPUT = 24_000;
/** Below this a page could not hold one record with its attribution. */
const MIN_MAX_OUTPUT = 2_000;

export default defineCommand({
  name: 'mcp',
  summary: 'an MCP server over stdio, for AI assistants',
  description:
    'A Model Context Protocol server on stdin/stdout for assistants such as Claude Desktop, Claude Code, VS Code and Cursor: ' +
    'the forecasts, the evidence and the journal as tools, with the key kept in fcast (never a tool argument, never in any output). ' +
    'Speaks both protocol eras: the 2025-11-25 initialize handshake and the 2026-07-28 server/discover with per-request _meta. ' +
    'stdout carries JSON-RPC only, one message a line; every log goes to stderr; it ends when stdin closes. ' +
    'Setup for each assistant: docs/mcp.md.',
  flags: {
    toolsets: valueFlag(
      '--toolsets <names>',
      'only these toolsets, comma-separated: forecasts, evidence, gateway, journal, service',
      (raw) => raw,
    ),
    tools: valueFlag(
      '--tools <names>',
      'only these tools, comma-separated (see docs/mcp.md for the list)',
      (raw) => raw,
    ),
    readOnly: flag('--read-only', 'only tools that change nothing (every tool of this version is read-only)'),
    http: optionFlag<string | true>(
      () =>
        new Option(
          '--http [port]',
          'serve Streamable HTTP on 127.0.0.1 (a free port unless given) instead of stdio, until Ctrl-C',
        ),
    ),
    maxOutput: valueFlag(
      '--max-output <chars>',
      `the text budget of one result; longer results page by cursor (default ${DEFAULT_MAX_OUTPUT})`,
      (raw) => raw,
    ),
  },
  // JSON-RPC is all it prints on stdout; --format has nothing to choose.
  formats: ['table'],
  examples: [
    ['fcast mcp', 'serve every tool on stdio (an assistant starts it)'],
    ['fcast mcp --toolsets forecasts,evidence', 'only the forecast and track-record tools'],
    ['fcast mcp --tools get_demo_forecasts,service_info --max-output 8000', 'two tools, smaller pages'],
  ],
  run: async (run, opts) => {
    const maxOutput =
      opts.maxOutput === undefined
        ? DEFAULT_MAX_OUTPUT
        : parseWholeNumber(opts.maxOutput, '--max-output', MIN_MAX_OUTPUT, 10_000_000);
    const { selectTools } = await import('../mcp/tools.js');
    // Checked before anything is read from stdin: a name that does not exist is exit 2 at start.
    const tools = selectTools({
      toolsets: splitList(opts.toolsets),
      tools: splitList(opts.tools),
      readOnly: opts.readOnly === true,
    });
    // Under GitHub Actions stdout is JSON: the filter of workflow commands escapes within
    // strings (the same value) instead of changing the text visibly.
    guardOf(run.ctx.io.stdout)?.setMode('json');
    // Typed at a terminal by hand: say what this is, since it will wait silently for JSON-RPC.
    if (opts.http === undefined && run.ctx.io.stdin.isTTY)
      run.out.note(
        'fcast mcp: an MCP server on stdin/stdout; an assistant starts it (docs/mcp.md). Ctrl-D or Ctrl-C ends it.',
      );
    const host = {
      ctx: run.ctx,
      flags: run.flags,
      log: run.out,
      settings: run.settings,
      transport: run.transport,
    };
    if (opts.http !== undefined) {
      const port = opts.http === true ? 0 : parseWholeNumber(opts.http, '--http', 0, 65535);
      const { serveHttp } = await import('../mcp/http.js');
      // Ctrl-C or SIGTERM stop it cleanly (the listener closed), as `fcast mock`.
      run.holdInterrupts();
      await serveHttp(
        host,
        { tools, maxOutput },
        {
          port,
          listening: (url) =>
            run.out.note(`fcast mcp: serving MCP over Streamable HTTP at ${url} (loopback only); Ctrl-C to stop`),
        },
      );
      return;
    }
    const { serveStdio } = await import('../mcp/server.js');
    // The server ends when stdin does; Ctrl-C or SIGTERM end it as well, at once.
    await serveStdio(host, { tools, maxOutput });
  },
});

function splitList(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}
