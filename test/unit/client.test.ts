// The HTTP layer against a scripted loopback server: retries and their waits, Retry-After
// forms, --max-wait, redirects, the size cap, timeouts and where a key may go.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient, backoffSeconds, isLoopbackHost, parseRetryAfter, type RequestSpec } from '../../src/api/client.js';
import { defaultTransport, type Transport } from '../../src/api/transport.js';
import {
  ApiError,
  BadResponseError,
  ConfigError,
  ExitCode,
  type FcastError,
  NetworkError,
} from '../../src/core/errors.js';
import { Output } from '../../src/output/io.js';
import { completeSettings, type Settings } from '../../src/config/settings.js';
import { fakeClock } from '../helpers/cli.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
let script: Handler[] = [];
let seen: Array<{ url: string; auth?: string; method: string; body: string }> = [];
let base = '';
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    seen.push({
      url: req.url ?? '',
      auth: req.headers.authorization,
      method: req.method ?? '',
      body: Buffer.concat(chunks).toString(),
    });
    const next = script.shift() ?? ((_q, s) => json(s, 200, { ok: true }));
    next(req, res);
  });
});

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
);
beforeEach(() => {
  script = [];
  seen = [];
});

const KEY = `mfa_ag_${'0123456789abcdef'.repeat(2)}01234567`;

function client(
  overrides: Partial<Settings> = {},
  extra: { maxBodyBytes?: number; signal?: AbortSignal; transport?: Transport } = {},
) {
  let stderr = '';
  const io = {
    stdout: { write: () => true },
    stderr: {
      write: (s: string) => {
        stderr += s;
        return true;
      },
    },
    stdin: process.stdin,
  };
  const clock = fakeClock(0);
  const settings: Settings = completeSettings({
    configDir: '/tmp',
    configPath: '/tmp/config.json',
    baseUrl: { value: base, source: 'test' },
    apiKey: { value: KEY, source: 'FCAST_API_KEY' },
    gatewayKey: undefined,
    timeout: { value: 5, source: 'default' },
    retries: { value: 2, source: 'default' },
    maxWait: { value: 60, source: 'default' },
    watchlist: undefined,
    record: { value: false, source: 'default' },
    ...overrides,
  });
  const c = new ApiClient({
    settings,
    log: new Output(io, false, false),
    clock,
    transport: extra.transport ?? defaultTransport({}),
    userAgent: 'test',
    ...extra,
    signal: extra.signal ?? new AbortController().signal,
  });
  return { c, clock, stderr: () => stderr };
}

const GET: RequestSpec = { method: 'GET', path: 'api/agent/v1/demo.php', auth: 'none', retry: 'idempotent' };

async function failure(p: Promise<unknown>): Promise<FcastError> {
  try {
    await p;
  } catch (err) {
    return err as FcastError;
  }
  throw new Error('expected a failure');
}

describe('ApiClient', () => {
  it('retries 429 and 503, waiting what the server asks, and announces each wait', async () => {
    script = [
      (_q, s) =>
        json(
          s,
          429,
          { title: 'Too Many Requests', detail: 'slow down', status: 429, type: 'x' },
          { 'retry-after': '3' },
        ),
      (_q, s) => json(s, 503, { title: 'Unavailable', detail: 'busy', status: 503, type: 'x' }, { 'retry-after': '1' }),
    ];
    const { c, clock, stderr } = client();
    const res = await c.request(GET);
    expect(res.status).toBe(200);
    expect(clock.sleeps).toEqual([3000, 1000]);
    expect(stderr()).toMatch(/HTTP 429 Too Many Requests; retrying in 3s \(retry 1 of 2\)/);
    expect(stderr()).toMatch(/retry 2 of 2/);
    expect(seen).toHaveLength(3);
  });

  it('gives up after --retries with the status exit code', async () => {
    script = [0, 1, 2].map(
      () => (_q: IncomingMessage, s: ServerResponse) =>
        json(s, 503, { title: 'x', detail: 'y', status: 503, type: 'x' }),
    );
    const { c, clock } = client({ retries: { value: 2, source: 'flag' } });
    const err = await failure(c.request(GET));
    expect(err).toBeInstanceOf(ApiError);
    expect(err.exitCode).toBe(ExitCode.Unavailable);
    expect(seen).toHaveLength(3);
    expect(clock.sleeps).toEqual([backoffSeconds(0, clock) * 1000, backoffSeconds(1, clock) * 1000]);
  });

  it('does not wait longer than --max-wait: 429 exits 5 and 503 exits 6, naming the wait', async () => {
    script = [
      (_q, s) =>
        json(s, 429, { title: 'Too Many Requests', detail: 'd', status: 429, type: 'x' }, { 'retry-after': '120' }),
    ];
    const { c, clock } = client({ maxWait: { value: 10, source: 'flag' } });
    const err = await failure(c.request(GET));
    expect(err.exitCode).toBe(ExitCode.RateLimited);
    expect(err.message).toMatch(/wait 120s, longer than --max-wait 10s/);
    expect(clock.sleeps).toEqual([]);

    script = [
      (_q, s) => json(s, 503, { title: 'Unavailable', detail: 'd', status: 503, type: 'x' }, { 'retry-after': '120' }),
    ];
    const second = client({ maxWait: { value: 10, source: 'flag' } });
    expect((await failure(second.c.request(GET))).exitCode).toBe(ExitCode.Unavailable);
  });

  it("reads the gateway's retry_after when there is no header", async () => {
    script = [
      (_q, s) =>
        json(s, 429, {
          ok: false,
          data: null,
          error: { code: 'rate_limited', message: 'm', retry_after: 4 },
          meta: { request_id: 'r1' },
        }),
    ];
    const { c, clock } = client();
    await c.request({ ...GET, method: 'POST', path: 'api/v1/agent/command', body: {}, auth: 'gateway' });
    expect(clock.sleeps).toEqual([4000]);
  });

  it('retries a register POST only on 429, never on 503', async () => {
    script = [(_q, s) => json(s, 503, { title: 'x', detail: 'y', status: 503, type: 'x' })];
    const { c } = client();
    const err = await failure(
      c.request({ ...GET, method: 'POST', body: { email: 'a@b.c' }, retry: 'rate-limit-only' }),
    );
    expect(err.exitCode).toBe(ExitCode.Unavailable);
    expect(seen).toHaveLength(1);
  });

  it('retries 502 and 504 too, but not 500 (exit 6) nor 400 (exit 2)', async () => {
    const problem = (status: number) => (_q: IncomingMessage, s: ServerResponse) =>
      json(s, status, { title: 't', detail: 'd', status, type: 'x' });
    script = [problem(502), problem(504)];
    const { c, clock } = client();
    expect((await c.request(GET)).status).toBe(200);
    expect(clock.sleeps).toHaveLength(2);

    for (const [status, code] of [
      [500, ExitCode.Unavailable],
      [400, ExitCode.Usage],
    ] as const) {
      script = [problem(status)];
      seen = [];
      expect((await failure(client().c.request(GET))).exitCode).toBe(code);
      expect(seen).toHaveLength(1);
    }
  });

  it('does not retry 4xx other than 429', async () => {
    script = [(_q, s) => json(s, 404, { title: 'Not Found', detail: 'no such symbol', status: 404, type: 'x' })];
    const err = await failure(client().c.request(GET));
    expect(err.exitCode).toBe(ExitCode.NotFound);
    expect(err.message).toBe('HTTP 404 Not Found: no such symbol');
    expect(seen).toHaveLength(1);
  });

  it('decides by status whatever the body: an HTML 503 exits 6, an HTML 404 exits 4 and is not the API', async () => {
    const html = (status: number) => (_q: IncomingMessage, s: ServerResponse) => {
      s.writeHead(status, { 'content-type': 'text/html' });
      s.end('<html>down</html>');
    };
    script = [0, 1, 2].map(() => html(503));
    const down = await failure(client().c.request(GET));
    expect(down.exitCode).toBe(ExitCode.Unavailable);
    // A 503 page is what a proxy in front of the real API says: the service is in trouble.
    expect(down.hint).toMatch(/having trouble/);

    script = [html(404)];
    const elsewhere = await failure(client().c.request(GET));
    expect(elsewhere.exitCode).toBe(ExitCode.NotFound);
    expect(elsewhere.message).toMatch(/does not look like the Market Forecast Agent API; check the base URL/);
  });

  it('an HTML 200 is returned as a response with no JSON body; the endpoint layer turns it into exit 7', async () => {
    script = [
      (_q, s) => {
        s.writeHead(200, { 'content-type': 'text/html' });
        s.end('<html>hello</html>');
      },
    ];
    const res = await client().c.request(GET);
    expect(res.body).toBeUndefined();
    expect(res.raw).toBe('<html>hello</html>');
  });

  it('parses Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfter('5', 0)).toBe(5);
    expect(parseRetryAfter(new Date(30_000).toUTCString(), 0)).toBe(30);
    expect(parseRetryAfter('soon', 0)).toBeUndefined();
  });

  it('follows same-origin redirects with the key, and refuses other origins', async () => {
    script = [
      (_q, s) => {
        s.writeHead(302, { location: '/moved/demo.php' });
        s.end();
      },
    ];
    const { c } = client();
    await c.request({ ...GET, auth: 'rest' });
    expect(seen.map((r) => r.url)).toEqual(['/api/agent/v1/demo.php', '/moved/demo.php']);
    expect(seen[1]!.auth).toBe(`Bearer ${KEY}`);

    // Without a key, another origin is followed like any redirect.
    script = [
      (_q, s) => {
        s.writeHead(301, { location: `${base.replace('127.0.0.1', 'localhost')}/elsewhere` });
        s.end();
      },
    ];
    seen = [];
    expect((await client().c.request(GET)).status).toBe(200);
    expect(seen.map((r) => [r.url, r.auth])).toEqual([
      ['/api/agent/v1/demo.php', undefined],
      ['/elsewhere', undefined],
    ]);

    script = [
      (_q, s) => {
        s.writeHead(301, { location: 'http://127.0.0.2:9/steal' });
        s.end();
      },
    ];
    seen = [];
    const err = await failure(client().c.request({ ...GET, auth: 'rest' }));
    expect(err).toBeInstanceOf(BadResponseError);
    expect(err.message).toMatch(/another origin/);
    expect(seen).toHaveLength(1);
  });

  it('a POST redirected by 301 or 302 is sent again as a POST, body and all; 303 asks for a GET', async () => {
    // nginx's `rewrite ... permanent` answers a POST with 301: turned into a GET, a gateway
    // command would be refused by the API itself ("use POST ..., not GET") or a register lost.
    const post = { ...GET, method: 'POST' as const, path: 'api/v1/agent/command', body: { command: 'macro' } };
    for (const status of [301, 302, 307, 308]) {
      script = [
        (_q, s) => {
          s.writeHead(status, { location: '/fc/api/v1/agent/command' });
          s.end();
        },
      ];
      seen = [];
      expect((await client().c.request({ ...post, auth: 'gateway' })).status).toBe(200);
      expect(
        seen.map((r) => [r.method, r.url, r.body]),
        String(status),
      ).toEqual([
        ['POST', '/api/v1/agent/command', '{"command":"macro"}'],
        ['POST', '/fc/api/v1/agent/command', '{"command":"macro"}'],
      ]);
      expect(seen[1]!.auth).toBe(`Bearer ${KEY}`);
    }
    script = [
      (_q, s) => {
        s.writeHead(303, { location: '/done' });
        s.end();
      },
    ];
    seen = [];
    await client().c.request(post);
    expect(seen.map((r) => [r.method, r.url, r.body])).toEqual([
      ['POST', '/api/v1/agent/command', '{"command":"macro"}'],
      ['GET', '/done', ''],
    ]);

    // Kept a POST, it still keeps its key at home: another origin is not followed.
    script = [
      (_q, s) => {
        s.writeHead(301, { location: `${base.replace('127.0.0.1', 'localhost')}/api/v1/agent/command` });
        s.end();
      },
    ];
    seen = [];
    const err = await failure(client().c.request({ ...post, auth: 'gateway' }));
    expect(err.exitCode).toBe(ExitCode.BadResponse);
    expect(err.message).toMatch(/another origin/);
    expect(seen).toHaveLength(1);
  });

  it('a redirect it cannot follow is a bad response (exit 7), never an internal error', async () => {
    const redirect = (status: number, location?: string) => (_q: IncomingMessage, s: ServerResponse) => {
      s.writeHead(status, location === undefined ? {} : { location });
      s.end();
    };
    for (const [status, location, said] of [
      [302, 'http://[bad', /Location that is not an http\(s\) URL/],
      [301, 'ftp://files.example/demo.php', /Location that is not an http\(s\) URL/],
      [300, undefined, /^HTTP 300 Multiple Choices: a redirect with no Location to follow$/],
      [304, undefined, /^HTTP 304 Not Modified/],
    ] as const) {
      script = [redirect(status, location)];
      const err = await failure(client().c.request(GET));
      expect(err.exitCode, `${status} ${location}`).toBe(ExitCode.BadResponse);
      expect(err.message).toMatch(said);
    }
  });

  it('a leading byte order mark is dropped from the body before parsing, and from the raw text', async () => {
    script = [
      (_q, s) => {
        s.writeHead(200, { 'content-type': 'application/json' });
        s.end('\ufeff{"ok":true}');
      },
    ];
    const res = await client().c.request(GET);
    expect(res.raw).toBe('{"ok":true}');
    expect(res.body).toEqual({ ok: true });
  });

  it('a body compressed though no compression was asked for (gzip, deflate, br) is read as the JSON it holds', async () => {
    const text = JSON.stringify({ ok: true, note: 'compressed' });
    for (const [coding, encode] of [
      ['gzip', gzipSync],
      ['x-gzip', gzipSync],
      ['deflate', deflateSync],
      ['br', brotliCompressSync],
      ['GZIP', gzipSync],
      // A list names the codings in the order applied: br over gzip is undone br first.
      ['gzip, br', (t: string) => brotliCompressSync(gzipSync(t))],
      ['deflate,gzip', (t: string) => gzipSync(deflateSync(t))],
      ['identity, gzip', gzipSync],
    ] as const) {
      let asked: string | undefined;
      script = [
        (q, s) => {
          asked = q.headers['accept-encoding'];
          s.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding });
          s.end(encode(text));
        },
      ];
      const res = await client().c.request(GET);
      expect(res.body, coding).toEqual({ ok: true, note: 'compressed' });
      expect(res.raw).toBe(text);
      // fcast asks for none: a front end that compresses regardless is what this is for.
      expect(asked).toBeUndefined();
    }
  });

  it('a compressed body that does not decode, an unknown coding, or one past the cap once decoded: exit 7', async () => {
    const answer = (coding: string, body: Buffer | string) => (_q: IncomingMessage, s: ServerResponse) => {
      s.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding });
      s.end(body);
    };
    for (const [coding, body, said, cap] of [
      [
        'gzip',
        '{"ok":true}',
        /says it is compressed \(Content-Encoding: gzip\), but it does not decompress/,
        undefined,
      ],
      ['zstd', 'whatever', /compressed as zstd \(Content-Encoding\), which fcast cannot read/, undefined],
      ['gzip, zstd', 'whatever', /compressed as zstd \(Content-Encoding\), which fcast cannot read/, undefined],
      ['gzip, br', gzipSync('{"ok":true}'), /\(Content-Encoding: gzip, br\), but it does not decompress/, undefined],
      [
        'gzip, gzip, gzip, gzip, gzip, gzip',
        'whatever',
        /compressed 6 times over \(Content-Encoding\), more than fcast reads/,
        undefined,
      ],
      // A small body that decompresses to more than the cap (a "zip bomb") is cut at the cap.
      ['gzip', gzipSync(Buffer.alloc(5_000_000)), /larger than the .* cap/, 100_000],
    ] as const) {
      script = [answer(coding, body)];
      const err = await failure(client({}, { maxBodyBytes: cap }).c.request(GET));
      expect(err.exitCode, coding).toBe(ExitCode.BadResponse);
      expect(err.message).toMatch(said);
      expect(err.message).not.toMatch(/Z_|zlib|incorrect header/i);
    }
  });

  it('a gzip body that stalls is a timeout (exit 6), one cut by the connection exit 6, one ended short exit 7', async () => {
    const gz = gzipSync(JSON.stringify({ ok: true, pad: 'x'.repeat(100_000) }));
    const part = (end: (s: ServerResponse) => void) => (_q: IncomingMessage, s: ServerResponse) => {
      s.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': gz.length });
      s.write(gz.subarray(0, 60), () => end(s));
    };
    const chunked = (_q: IncomingMessage, s: ServerResponse) => {
      s.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      s.end(gz.subarray(0, 60));
    };
    for (const [name, answer, exitCode, said] of [
      ['stalls', part(() => undefined), ExitCode.Unavailable, /timed out/],
      ['cut', part((s) => s.socket?.destroy()), ExitCode.Unavailable, /broke while the answer was being read/],
      ['ended short', chunked, ExitCode.BadResponse, /\(Content-Encoding: gzip\), but it does not decompress/],
    ] as const) {
      script = [answer];
      const err = await failure(client({ timeout: { value: 0.3, source: 'flag' } }).c.request(GET));
      expect(err.exitCode, name).toBe(exitCode);
      expect(err.message, name).toMatch(said);
    }
  });

  it('refuses a body over the size cap with exit 7', async () => {
    script = [(_q, s) => json(s, 200, { big: 'x'.repeat(5000) })];
    const err = await failure(client({}, { maxBodyBytes: 1000 }).c.request(GET));
    expect(err.exitCode).toBe(ExitCode.BadResponse);
  });

  it('times out as a whole, even while headers never come, and does not retry', async () => {
    script = [() => undefined];
    const { c } = client({ timeout: { value: 0.2, source: 'flag' } });
    const err = await failure(c.request(GET));
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toMatch(/timed out/);
    expect(seen).toHaveLength(1);
  });

  it('Ctrl-C cuts a request at once, except one marked finishOnInterrupt (register), which is read to its end', async () => {
    // The server answers only after the interrupt has happened.
    const answerAfter = (ctl: AbortController, status: number) => (_q: IncomingMessage, s: ServerResponse) => {
      ctl.abort();
      setImmediate(() => json(s, status, { ok: true }));
    };
    const cut = new AbortController();
    script = [answerAfter(cut, 200)];
    const err = await failure(client({}, { signal: cut.signal }).c.request(GET));
    expect(err.exitCode).toBe(ExitCode.Interrupted);

    const kept = new AbortController();
    script = [answerAfter(kept, 201)];
    const res = await client({}, { signal: kept.signal }).c.request({
      method: 'POST',
      path: 'api/agent/v1/register.php',
      body: { email: 'a@example.com' },
      auth: 'none',
      retry: 'rate-limit-only',
      finishOnInterrupt: true,
    });
    expect(res.status).toBe(201);
  });

  it('refuses to send a key over plain http to a non-loopback host, before connecting', async () => {
    const { c } = client({ baseUrl: { value: 'http://forecasts.example', source: 'test' } });
    const err = await failure(c.request({ ...GET, auth: 'rest' }));
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toMatch(/plain http/);
  });

  it('retries a refused connection for GETs to a host other than loopback', async () => {
    let sent = 0;
    const refusing = {
      send: () => {
        sent++;
        return Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
      },
    } as unknown as Transport;
    const { c, clock } = client(
      { baseUrl: { value: 'https://forecasts.example', source: 'test' }, retries: { value: 1, source: 'flag' } },
      { transport: refusing },
    );
    const err = await failure(c.request(GET));
    expect(err.exitCode).toBe(ExitCode.Unavailable);
    expect(err.message).toBe('connection to forecasts.example refused');
    expect(clock.sleeps).toHaveLength(1);
    expect(sent).toBe(2);
  });

  it('does not retry a refused connection to a loopback host, and says how to start the emulator', async () => {
    const { c, clock, stderr } = client({
      baseUrl: { value: 'http://127.0.0.1:9', source: 'test' },
      retries: { value: 2, source: 'flag' },
    });
    const err = await failure(c.request(GET));
    expect(err.exitCode).toBe(ExitCode.Unavailable);
    expect(err.message).toBe('connection to 127.0.0.1:9 refused');
    expect(err.hint).toBe(
      'nothing listens there: start the emulator with \'fcast mock\' (in the background: eval "$(fcast mock --print-env &)")',
    );
    expect(clock.sleeps).toHaveLength(0);
    expect(stderr()).toBe('');
  });

  it('works the same with or without a trailing slash on the base URL', () => {
    const a = client({ baseUrl: { value: 'https://h.example/prefix', source: 't' } }).c.buildUrl(GET).href;
    const b = client({ baseUrl: { value: 'https://h.example/prefix/', source: 't' } }).c.buildUrl(GET).href;
    expect(a).toBe('https://h.example/prefix/api/agent/v1/demo.php');
    expect(b).toBe(a);
  });

  it('knows loopback hosts', () => {
    expect(['localhost', '127.0.0.1', '127.1.2.3', '[::1]'].every(isLoopbackHost)).toBe(true);
    expect(['127.0.0.1.example', '10.0.0.1', 'example.com', 'foo.localhost'].some(isLoopbackHost)).toBe(false);
  });
});
