// The protocol's fixed parts: the revisions served, the JSON-RPC error codes, and the reading
// of stdin as one JSON message a line.
import type { Readable } from 'node:stream';

/** The stateless revision: no handshake, every request names its version in `_meta`. */
export const MODERN_VERSION = '2026-07-28';
/** The handshake revisions, newest first: `initialize` gets the one it asks for, else the newest. */
export const LEGACY_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
export const SUPPORTED_VERSIONS = [MODERN_VERSION, ...LEGACY_VERSIONS];

export const META_PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
export const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

export const RpcCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  UnsupportedProtocolVersion: -32022,
} as const;

/** A request the server answers with a JSON-RPC error rather than a result. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export type RequestId = string | number;

export interface Incoming {
  id?: RequestId;
  method: string;
  params: Record<string, unknown>;
}

/** The longest line read as a message; a longer one is a parse error, skipped to its end. */
export const MAX_LINE_CHARS = 4 * 1024 * 1024;

/**
 * Calls `onLine` with each line of `input` (LF or CRLF), `onOversize` for each line over
 * MAX_LINE_CHARS (dropped, not kept in memory), and resolves when `input` ends.
 */
export function readLines(input: Readable, onLine: (line: string) => void, onOversize: () => void): Promise<void> {
  return new Promise((resolve) => {
    let buffered = '';
    let dropping = false;
    input.setEncoding('utf8');
    input.on('data', (chunk: string) => {
      let start = 0;
      for (;;) {
        const nl = chunk.indexOf('\n', start);
        if (nl < 0) break;
        const piece = chunk.slice(start, nl);
        start = nl + 1;
        if (dropping) {
          dropping = false;
          buffered = '';
          continue;
        }
        const line = (buffered + piece).replace(/\r$/, '');
        buffered = '';
        if (line.length > MAX_LINE_CHARS) onOversize();
        else if (line.trim() !== '') onLine(line);
      }
      if (dropping) return;
      buffered += chunk.slice(start);
      if (buffered.length > MAX_LINE_CHARS) {
        buffered = '';
        dropping = true;
        onOversize();
      }
    });
    const done = () => {
      if (!dropping && buffered.trim() !== '') onLine(buffered.replace(/\r$/, ''));
      buffered = '';
      resolve();
    };
    input.on('end', done);
    input.on('close', done);
    input.on('error', done);
    input.resume();
  });
}

/** A parsed line, or the error to answer it with (id null when none could be read). */
export function parseMessage(line: string): Incoming | { error: RpcError; id: RequestId | null } | 'response' {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { error: new RpcError(RpcCode.ParseError, 'Parse error: the line is not JSON'), id: null };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { error: new RpcError(RpcCode.InvalidRequest, 'Invalid Request: expected one JSON-RPC object'), id: null };
  }
  const m = value as Record<string, unknown>;
  const id = typeof m.id === 'string' || typeof m.id === 'number' ? m.id : undefined;
  // A client's answer (to a request this server never sends) is ignored.
  if (m.method === undefined && ('result' in m || 'error' in m)) return 'response';
  if (m.jsonrpc !== '2.0' || typeof m.method !== 'string') {
    return {
      error: new RpcError(RpcCode.InvalidRequest, 'Invalid Request: jsonrpc must be "2.0" and method a string'),
      id: id ?? null,
    };
  }
  if (m.params !== undefined && (m.params === null || typeof m.params !== 'object' || Array.isArray(m.params))) {
    return { error: new RpcError(RpcCode.InvalidParams, 'Invalid params: params must be an object'), id: id ?? null };
  }
  return { id, method: m.method, params: (m.params as Record<string, unknown> | undefined) ?? {} };
}
