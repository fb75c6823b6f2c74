// The emulator's HTTP plumbing: reading a request's body (capped), writing JSON and problem
// answers, and the memo of REST GET answers within one second.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { meta } from './meta.js';
import type { HttpProblem } from './problems.js';
import { tierOf } from './rest.js';
import { serverT, type MockState } from './state.js';

export const MAX_REQUEST_BODY = 1024 * 1024;
const JSON_TYPE = 'application/json';

export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, or the raw text when it is not JSON, or undefined when there was no body. */
  body: unknown;
}

export interface ReadBody {
  text: string | undefined;
  tooLarge: boolean;
  size: number;
}

export async function readBody(req: IncomingMessage): Promise<ReadBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    // Keep reading past the cap so the client gets an answer rather than a reset.
    if (size <= MAX_REQUEST_BODY) chunks.push(chunk);
  }
  if (size === 0) return { text: undefined, tooLarge: false, size };
  return { text: Buffer.concat(chunks).toString('utf8'), tooLarge: size > MAX_REQUEST_BODY, size };
}

export function parsedForRecord(body: ReadBody): unknown {
  if (body.tooLarge) return `<${body.size} bytes, over the ${MAX_REQUEST_BODY}-byte limit>`;
  if (body.text === undefined) return undefined;
  try {
    return JSON.parse(body.text);
  } catch {
    return body.text;
  }
}

type Headers = Record<string, string>;

export function sendJson(res: ServerResponse, status: number, body: unknown, headers?: Headers, type?: string): void {
  sendText(res, status, `${JSON.stringify(body)}\n`, headers, type);
}

export function sendText(res: ServerResponse, status: number, text: string, headers: Headers = {}, type = JSON_TYPE) {
  res.writeHead(status, {
    'content-type': type,
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(text);
}

export function sendProblem(state: MockState, res: ServerResponse, req: IncomingMessage, problem: HttpProblem): void {
  const tier = tierOf(state, { headers: req.headers });
  sendJson(res, problem.status, problem.body(meta(tier, serverT(state))), problem.headers, 'application/problem+json');
}

/**
 * The text of REST GET answers within the current second. A GET answer is a pure function of
 * the URL, the key, the origin, the server's second and the keys registered so far (the set
 * only grows, so its size stands for it): under load the same demo body is built once a second,
 * not once a request. Forgotten when the second changes, and bounded within one.
 */
export class ReplyMemo {
  private second = Number.NaN;
  private keys = -1;
  private readonly texts = new Map<string, string>();
  constructor(private readonly state: MockState) {}

  keyFor(url: string, authorization: string | undefined, origin: string): string {
    const second = serverT(this.state);
    const keys = this.state.restKeyHashes.size;
    if (second !== this.second || keys !== this.keys) {
      this.texts.clear();
      this.second = second;
      this.keys = keys;
    }
    return `${url}\n${authorization ?? ''}\n${origin}`;
  }

  get(key: string): string | undefined {
    return this.texts.get(key);
  }

  set(key: string, text: string): void {
    if (this.texts.size >= 256) this.texts.clear();
    this.texts.set(key, text);
  }
}

export function firstValues(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of params) if (!(k in out)) out[k] = v;
  return out;
}
