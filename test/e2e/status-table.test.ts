// The status table, walked: every status 100-599, with the bodies a real front end sends (an
// HTML page, a JSON problem, nothing), for a REST call and a gateway call alike. The expected
// class is written out here from the contract, apart from the code's own table, and no answer
// may exit 1. The server is raw TCP so that it can send what node:http would refuse to (a
// final 1xx, a body on a 204).
import { STATUS_CODES } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectExit, runCli, tempDir } from '../helpers/cli.js';

const KEY = `mfa_ag_${'0123456789abcdef'.repeat(2)}01234567`;
const BODIES = {
  html: (status: number) => ({
    type: 'text/html',
    text: `<!DOCTYPE html>\n<html><head><title>${status}</title></head><body><center><h1>${status} ${STATUS_CODES[status] ?? ''}</h1></center><hr><center>nginx</center></body></html>\n`,
  }),
  json: (status: number) => ({
    type: 'application/problem+json',
    text: JSON.stringify({ type: 'about:blank', title: 'Problem', status, detail: `a problem of status ${status}` }),
  }),
  empty: () => ({ type: 'text/plain', text: '' }),
};
type Body = keyof typeof BODIES;

/** The contract's table, written out: what each status exits with, whatever the body. */
const NAMED: Record<number, number> = { 401: 3, 403: 3, 407: 3, 404: 4, 410: 4, 408: 6, 409: 9, 429: 5 };
/** Statuses whose body HTTP itself drops (node's parser ignores what follows). */
const BODILESS = new Set([204, 304]);

function expected(status: number, body: Body): number {
  if (status < 200) return 7;
  // A 2xx with a JSON body is an answer (off-shape: a warning, exit 0); without one, exit 7.
  if (status < 300) return body === 'json' && !BODILESS.has(status) ? 0 : 7;
  if (status < 400) return 7; // a redirect with nowhere to go
  return NAMED[status] ?? (status < 500 ? 2 : 6);
}

const pathUnknown = (status: number) =>
  status === 404 || status === 410 || (status >= 200 && status < 300 && !BODILESS.has(status));

let server: Server;
let port = 0;
const sockets = new Set<Socket>();

/** Answers `/<status>/<body>/...` with that status and body, after reading the whole request. */
function answer(socket: Socket): void {
  let got = Buffer.alloc(0);
  socket.on('data', (chunk) => {
    got = Buffer.concat([got, chunk]);
    const end = got.indexOf('\r\n\r\n');
    if (end < 0) return;
    const head = got.subarray(0, end).toString('latin1');
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    if (got.length < end + 4 + length) return;
    socket.removeAllListeners('data');
    const [, status, kind] = /^\w+ \/(\d{3})\/(\w+)\//.exec(head) ?? [];
    const { type, text } = BODIES[kind as Body](Number(status));
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[Number(status)] ?? 'Whatever'}\r\ncontent-type: ${type}\r\n` +
        `content-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
    );
  });
}

beforeAll(async () => {
  server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    answer(socket);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as { port: number }).port;
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((r) => server.close(() => r()));
});

const STATUSES = Array.from({ length: 500 }, (_, i) => 100 + i);
const CALLS = {
  REST: ['demo'],
  gateway: ['cmd', 'macro'],
};

describe.each(Object.keys(CALLS) as Array<keyof typeof CALLS>)('every status 100-599 to a %s call', (call) => {
  it.each(Object.keys(BODIES) as Body[])('with a body that is %s: the contract class, never exit 1', async (body) => {
    const configDir = tempDir();
    const wrong: string[] = [];
    for (const status of STATUSES) {
      const r = await runCli([...CALLS[call], '--retries', '0'], {
        configDir,
        env: { FCAST_BASE_URL: `http://127.0.0.1:${port}/${status}/${body}/`, FCAST_API_KEY: KEY },
      });
      const want = expected(status, body);
      const said = r.stderr.split('\n')[0] ?? '';
      if (r.code !== want) wrong.push(`${status}: exit ${r.code}, not ${want}: ${said}`);
      else if (/internal error/.test(r.stderr)) wrong.push(`${status}: ${said}`);
      // An error status is named in the one line, with the API's words when it sent them.
      else if (status >= 400 && !said.startsWith(`fcast: HTTP ${status}`)) wrong.push(`${status}: ${said}`);
      else if (status >= 400 && body === 'json' && !said.includes(`a problem of status ${status}`))
        wrong.push(`${status}: ${said}`);
      // The base URL is suspect only where the path is unknown (404, 410) or a 2xx is a page;
      // a 5xx page is the service failing, to be tried again later.
      else if (body === 'html' && /does not look like/.test(r.stderr) !== pathUnknown(status))
        wrong.push(`${status}: ${r.stderr}`);
      else if (body === 'html' && status >= 500 && !/try again later/.test(r.stderr))
        wrong.push(`${status}: ${r.stderr}`);
    }
    expect(wrong).toEqual([]);
  });
});

it('the expectation is not vacuous: it names every class of the contract', () => {
  const classes = new Set(STATUSES.flatMap((s) => (Object.keys(BODIES) as Body[]).map((b) => expected(s, b))));
  expect([...classes].sort()).toEqual([0, 2, 3, 4, 5, 6, 7, 9]);
});

it('a single run shows what the walk checks: an nginx 413 to register is exit 2, not "not the API"', async () => {
  const r = await runCli(['register', '--email', 'a@example.com', '--no-save'], {
    env: { FCAST_BASE_URL: `http://127.0.0.1:${port}/413/html/` },
  });
  expectExit(r, 2);
  expect(r.stderr).toMatch(
    /^fcast: HTTP 413 Payload Too Large: the service, or a server in front of it, refused the request as too large$/m,
  );
  expect(r.stderr).toMatch(/hint: .*client_max_body_size/);
  expect(r.stderr).not.toMatch(/does not look like/);
});
