// `fcast mcp` as an assistant starts it: bin/fcast.js in a child process, spoken to by the
// official SDK's clients over stdio (1.x: the 2025-11-25 handshake; 2.x: either era), or by
// raw JSON-RPC lines for what a client would never send. Every byte of the child's stdout and
// stderr is kept, for the tests that read all of it (no key, JSON-RPC only).
import { spawn } from 'node:child_process';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BIN, tempDir } from './cli.js';

export type Era = 'legacy' | 'modern';

/** What a tools/call result looks like, whichever client read it. */
export interface ToolResult {
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, any>;
  isError?: boolean;
}

export interface McpSession {
  callTool(name: string, args?: Record<string, unknown>): Promise<ToolResult>;
  listTools(): Promise<Array<Record<string, any>>>;
  /** Every byte the server wrote to stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

/** The environment of a spawned fcast: a fresh config and data directory, PATH, and `env`. */
export function mcpEnv(env: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '', FCAST_CONFIG_DIR: tempDir(), FCAST_DATA_DIR: tempDir(), ...env };
}

/**
 * An SDK client connected to `fcast mcp ARGS`: the 1.x SDK for 'legacy' (what most assistants
 * run today), the 2.x client pinned to 2026-07-28 for 'modern' (server/discover, then
 * per-request _meta); `v2legacy` uses the 2.x client's default, the initialize handshake.
 */
export async function connectMcp(
  era: Era | 'v2legacy',
  env: Record<string, string>,
  args: string[] = [],
): Promise<McpSession> {
  let stderr = '';
  const params = { command: process.execPath, args: [BIN, 'mcp', ...args], env, stderr: 'pipe' as const };
  if (era === 'legacy') {
    const transport = new StdioV1(params);
    transport.stderr?.on('data', (d) => (stderr += String(d)));
    const client = new ClientV1({ name: 'fcast-test', version: '1.0.0' });
    await client.connect(transport);
    return {
      callTool: async (name, a = {}) => (await client.callTool({ name, arguments: a })) as ToolResult,
      listTools: async () => (await client.listTools()).tools as Array<Record<string, any>>,
      stderr: () => stderr,
      close: () => client.close(),
    };
  }
  const transport = new StdioV2(params);
  transport.stderr?.on('data', (d) => (stderr += String(d)));
  const client = new ClientV2(
    { name: 'fcast-test', version: '1.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(transport);
  return {
    callTool: async (name, a = {}) => (await client.callTool({ name, arguments: a })) as unknown as ToolResult,
    listTools: async () => (await client.listTools()).tools as unknown as Array<Record<string, any>>,
    stderr: () => stderr,
    close: () => client.close(),
  };
}

export interface RawRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout's lines, each parsed. */
  messages: Array<Record<string, any>>;
  /** Milliseconds from stdin's end to the process's exit. */
  exitMs: number;
}

/**
 * `fcast mcp ARGS` fed `lines` (JSON values are written as JSON, strings as they are), then
 * stdin closed once `waitFor` answers have arrived (default: one per request with an id).
 */
export function rawMcp(
  lines: Array<unknown>,
  env: Record<string, string>,
  args: string[] = [],
  opts: { waitFor?: number } = {},
): Promise<RawRun> {
  const child = spawn(process.execPath, [BIN, 'mcp', ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const expected =
    opts.waitFor ?? lines.filter((l) => typeof l === 'object' && l !== null && 'id' in (l as object)).length;
  let ended = 0;
  const endIfDone = () => {
    if (ended === 0 && stdout.split('\n').filter((l) => /"id":/.test(l) && !/"method":/.test(l)).length >= expected) {
      ended = Date.now();
      child.stdin.end();
    }
  };
  child.stdout.setEncoding('utf8').on('data', (d) => {
    stdout += d;
    endIfDone();
  });
  child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
  for (const line of lines) child.stdin.write(`${typeof line === 'string' ? line : JSON.stringify(line)}\n`);
  endIfDone();
  return new Promise((resolve) =>
    child.on('close', (code) => {
      const messages = stdout
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Record<string, any>);
      resolve({ code, stdout, stderr, messages, exitMs: Date.now() - ended });
    }),
  );
}

export const initialize = (id = 0, protocolVersion = '2025-11-25') => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

export const call = (id: number, name: string, args: Record<string, unknown> = {}, meta?: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args, ...(meta && { _meta: meta }) },
});
