// What real infrastructure in front of the API answers, and what fcast makes of it: a sloppy PHP
// deployment (a byte order mark, a warning before the JSON, a fatal error page), nginx's own
// pages (maintenance 503, 502, 429), a TLS front with a private CA, a path prefix, redirects
// to another origin, a body drip-fed past --timeout. Each answer gets its exit class and a
// hint that leads to the right fix; the cases that already worked stay here so they keep working.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectExit, runCli, spawnFcast } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { startTlsFront, TEST_CA, type TlsFront } from '../helpers/proxy.js';

const emu = useEmulator();
const BOM = '\ufeff';
let demoBody = '';
let server: Server;
let base = '';
let tls: TlsFront;
let redirectTo = '';

const NGINX_PAGE = (status: number, what: string) =>
  `<html>\r\n<head><title>${status} ${what}</title></head>\r\n<body>\r\n<center><h1>${status} ${what}</h1></center>\r\n<hr><center>nginx/1.22.1</center>\r\n</body>\r\n</html>\r\n`;
const PHP_FATAL =
  '<br />\n<b>Fatal error</b>:  Uncaught PDOException: SQLSTATE[HY000] [2002] Connection refused in /var/www/api/db.php:12\nStack trace:\n#0 {main}\n  thrown in <b>/var/www/api/db.php</b> on line <b>12</b><br />\n';
const PHP_WARNING =
  '<br />\n<b>Warning</b>:  Undefined array key "tf" in <b>/var/www/api/demo.php</b> on line <b>41</b><br />\n';

/** Routes by the first path segment, which the base URL carries as its prefix. */
const ROUTES: Record<string, (req: IncomingMessage, res: ServerResponse, rest: string) => void> = {
  bom: (_q, s) => send(s, 200, 'application/json; charset=utf-8', BOM + demoBody),
  'double-bom': (_q, s) => send(s, 200, 'application/json', BOM + BOM + demoBody),
  warning: (_q, s) => send(s, 200, 'text/html; charset=UTF-8', PHP_WARNING + demoBody),
  // The same warning with html_errors off, as PHP's CLI server and many php.ini files print it.
  'warning-text': (_q, s) =>
    send(
      s,
      200,
      'application/json',
      `\nWarning: Undefined variable $tf in /var/www/api/demo.php on line 41\n${demoBody}`,
    ),
  fatal: (_q, s) => send(s, 500, 'text/html; charset=UTF-8', PHP_FATAL),
  // display_errors on: PHP answers a fatal error 200, the error as the page.
  'fatal-200': (_q, s) => send(s, 200, 'text/html; charset=UTF-8', PHP_FATAL),
  // The API behind a PHP layer that prints a BOM before every answer, errors and gateway alike.
  'bom-api': (q, s, rest) => relay(q, s, rest, (text) => BOM + text),
  maintenance: (_q, s) => send(s, 503, 'text/html', NGINX_PAGE(503, 'Service Temporarily Unavailable')),
  'bad-gateway': (_q, s) => send(s, 502, 'text/html', NGINX_PAGE(502, 'Bad Gateway')),
  limited: (_q, s) => send(s, 429, 'text/html', NGINX_PAGE(429, 'Too Many Requests')),
  // What nginx answers plain http sent to its https port.
  'tls-port': (_q, s) =>
    send(
      s,
      400,
      'text/html',
      NGINX_PAGE(400, 'The plain HTTP request was sent to HTTPS port').replace(
        '<h1>400 The plain HTTP request was sent to HTTPS port</h1></center>',
        '<h1>400 Bad Request</h1></center>\r\n<center>The plain HTTP request was sent to HTTPS port</center>',
      ),
    ),
  // gzip whatever the request asked for (nginx's gzip_static always, a CDN that always compresses).
  'gzip-anyway': (_q, s) => {
    const body = gzipSync(demoBody);
    s.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': body.length });
    s.end(body);
  },
  moved: (_q, s, rest) => {
    s.writeHead(301, { location: `${redirectTo}${rest}`, 'content-type': 'text/html' });
    s.end(NGINX_PAGE(301, 'Moved Permanently'));
  },
  drip: (_q, s) => {
    s.writeHead(200, { 'content-type': 'application/json' });
    const timer = setInterval(() => s.write(' '), 100);
    s.on('close', () => clearInterval(timer));
  },
  // A path prefix, as an nginx `location /forecasts/ { proxy_pass ...; }` gives.
  forecasts: (q, s, rest) => relay(q, s, rest, (text) => text),
};

/** The request on to the emulator, method, key and body as they came; its answer back through `change`. */
function relay(req: IncomingMessage, res: ServerResponse, rest: string, change: (text: string) => string) {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = req.method === 'POST' ? Buffer.concat(chunks).toString() : undefined;
    const headers = { authorization: req.headers.authorization ?? '', 'content-type': 'application/json' };
    fetch(`${emu.server.url}${rest}`, { method: req.method, headers, body }).then(
      async (answer) => send(res, answer.status, answer.headers.get('content-type') ?? '', change(await answer.text())),
      () => send(res, 502, 'text/html', NGINX_PAGE(502, 'Bad Gateway')),
    );
  });
}

function send(res: ServerResponse, status: number, type: string, body: string) {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

beforeAll(async () => {
  demoBody = await (await fetch(`${emu.server.url}/api/agent/v1/demo.php?symbol=BTC%2FUSD`)).text();
  server = createServer((req, res) => {
    const [, route = '', rest = ''] = /^\/([\w-]+)(\/.*)?$/.exec(req.url ?? '') ?? [];
    const handler = ROUTES[route];
    // A route that does not read the request still lets it arrive whole.
    if (handler !== ROUTES['bom-api'] && handler !== ROUTES.forecasts) req.resume();
    (handler ?? ((_q, s) => send(s, 404, 'text/html', NGINX_PAGE(404, 'Not Found'))))(req, res, rest);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  tls = await startTlsFront(base);
});

afterAll(async () => {
  server.closeAllConnections();
  await Promise.all([new Promise<void>((r) => server.close(() => r())), tls.close()]);
});

const at = (route: string) => `${base}/${route}/`;

describe('a sloppy PHP deployment', () => {
  it('a byte order mark before the JSON is dropped: the table renders, and --json prints the body without it', async () => {
    const table = await runCli(['demo', '--no-color'], { env: { FCAST_BASE_URL: at('bom') } });
    expectExit(table, 0);
    expect(table.stderr).toBe('');
    expect(table.stdout).toMatch(/BTC\/USD/);
    const json = await runCli(['demo', '--json'], { env: { FCAST_BASE_URL: at('bom') } });
    expectExit(json, 0);
    expect(json.stdout.startsWith('{')).toBe(true);
    expect(json.stdout).not.toContain(BOM);
    expect(JSON.parse(json.stdout)).toEqual(JSON.parse(demoBody));
  });

  it('a body that still fails (a second BOM) shows its first bytes with the invisible ones written out (exit 7)', async () => {
    const r = await runCli(['demo'], { env: { FCAST_BASE_URL: at('double-bom') } });
    expectExit(r, 7);
    expect(r.stderr).toMatch(/^fcast: demo\.php: the response is not JSON \(it starts '\\ufeff\{"ok":true,/m);
    expect(r.stderr).toMatch(
      /hint: invisible characters \(shown escaped\) come before the JSON: the service needs fixing/,
    );
  });

  it.each([
    ['as HTML', 'warning', /^fcast: demo\.php: the response is not JSON \(it starts '<br \/>\\n<b>Warning<\/b>:/m],
    // html_errors off: the newline before it is written out.
    [
      'as plain text',
      'warning-text',
      /^fcast: demo\.php: the response is not JSON \(it starts '\\nWarning: Undefined variable/m,
    ],
  ])(
    'a warning printed before the JSON %s: exit 7, its first bytes shown, the service (not the base URL) blamed',
    async (_as, front, starts) => {
      const r = await runCli(['demo'], { env: { FCAST_BASE_URL: at(front) } });
      expectExit(r, 7);
      expect(r.stderr).toMatch(starts);
      expect(r.stderr).toMatch(/hint: the JSON comes after other output .*: the service needs fixing/);
      expect(r.stderr).not.toMatch(/base URL/);
    },
  );

  it('a fatal error answered 200 (display_errors on): exit 7, the service failed; never "check the base URL"', async () => {
    const r = await runCli(['demo'], { env: { FCAST_BASE_URL: at('fatal-200') } });
    expectExit(r, 7);
    expect(r.stderr).toMatch(
      /^fcast: demo\.php: the response is not JSON \(it starts '<br \/>\\n<b>Fatal error<\/b>:/m,
    );
    expect(r.stderr).toMatch(/hint: the service failed \(an error of its own code, not an answer\): try again later/);
    expect(r.stderr).not.toMatch(/base URL|does not look like/);
  });

  it('a BOM before every answer: a problem keeps its class and words, the gateway and CSV read through it', async () => {
    const env = { FCAST_BASE_URL: at('bom-api'), FCAST_API_KEY: emu.server.testKey };
    const problem = await runCli(['predict', 'NOPE/USD', '--json'], { env });
    expectExit(problem, 4);
    expect(problem.stderr).toMatch(/^fcast: NOPE\/USD: HTTP 404 Unknown symbol: /m);
    expect(problem.stdout.startsWith('{')).toBe(true);
    expect(JSON.parse(problem.stdout)).toMatchObject({ status: 404 });
    const gateway = await runCli(['cmd', 'macro', '--json'], { env });
    expectExit(gateway, 0);
    expect(JSON.parse(gateway.stdout)).toMatchObject({ ok: true });
    const csv = await runCli(['predict', 'BTC/USD', '--format', 'csv'], { env });
    expectExit(csv, 0);
    expect(csv.stdout.startsWith('symbol,tf,ts,ts_iso,')).toBe(true);
    expect(csv.stdout).not.toContain(BOM);
    expect(emu.server.requests.map((q) => q.path)).toEqual([
      '/api/agent/v1/predictions.php',
      '/api/v1/agent/command',
      '/api/agent/v1/predictions.php',
    ]);
  });

  it('a fatal error page (HTTP 500): the service failed, try again later; never "check the base URL"', async () => {
    for (const argv of [['demo'], ['cmd', 'macro']]) {
      const r = await runCli([...argv, '--retries', '0'], {
        env: { FCAST_BASE_URL: at('fatal'), FCAST_API_KEY: emu.server.testKey },
      });
      expectExit(r, 6);
      expect(r.stderr).toBe(
        'fcast: HTTP 500 Internal Server Error: the service failed\n  hint: the service is having trouble; try again later\n',
      );
    }
  });
});

describe("nginx's own pages", () => {
  it('a maintenance 503 and a 502 are retried, then exit 6 saying the service is in trouble', async () => {
    for (const route of ['maintenance', 'bad-gateway']) {
      const r = await runCli(['demo', '--retries', '2'], { env: { FCAST_BASE_URL: at(route) } });
      expectExit(r, 6);
      expect(r.sleeps).toHaveLength(2);
      expect(r.stderr).toMatch(
        /^fcast: HTTP 50[23] [\w ]+\n {2}hint: the service is having trouble; try again later\n$/m,
      );
    }
  });

  it('a 429 page from limit_req is retried, then exit 5', async () => {
    const r = await runCli(['demo', '--retries', '1'], { env: { FCAST_BASE_URL: at('limited') } });
    expectExit(r, 5);
    expect(r.sleeps).toHaveLength(1);
    expect(r.stderr).toMatch(/^fcast: HTTP 429 Too Many Requests\n {2}hint: wait and try again/m);
  });

  it("plain http to nginx's https port: exit 2, and the hint says to use https", async () => {
    const r = await runCli(['demo'], { env: { FCAST_BASE_URL: at('tls-port') } });
    expectExit(r, 2);
    expect(r.stderr).toMatch(
      /^fcast: HTTP 400 Bad Request: the server at 127\.0\.0\.1:\d+ speaks https, and was sent plain http/m,
    );
    // The base URL's path prefix stays: only the scheme was wrong.
    expect(r.stderr).toMatch(/hint: use https:\/\/127\.0\.0\.1:\d+\/tls-port as the base URL$/m);
  });

  it('a 404 page on an API path: the base URL is what is wrong (exit 4)', async () => {
    const r = await runCli(['demo'], { env: { FCAST_BASE_URL: at('nothing-here') } });
    expectExit(r, 4);
    expect(r.stderr).toMatch(
      /^fcast: HTTP 404 Not Found: this does not look like the Market Forecast Agent API; check the base URL; the base URL http:\/\/127\.0\.0\.1:\d+\/nothing-here\/ comes from FCAST_BASE_URL in the environment$/m,
    );
  });

  it('a body gzipped though fcast asked for no compression is read all the same', async () => {
    const r = await runCli(['demo', '--json'], { env: { FCAST_BASE_URL: at('gzip-anyway') } });
    expectExit(r, 0);
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(demoBody));
  });

  it('a path prefix in the base URL reaches the API behind it, key and all', async () => {
    const r = await runCli(['symbols', '--json'], {
      env: { FCAST_BASE_URL: at('forecasts'), FCAST_API_KEY: emu.server.testKey },
    });
    expectExit(r, 0);
    expect(emu.server.requests.map((q) => q.path)).toEqual(['/api/agent/v1/symbols.php']);
  });

  it('a body drip-fed for ever ends at --timeout (exit 6)', async () => {
    const started = Date.now();
    const r = await runCli(['demo', '--timeout', '1', '--retries', '0'], { env: { FCAST_BASE_URL: at('drip') } });
    expectExit(r, 6);
    expect(r.stderr).toMatch(/timed out: no complete answer within 1s/);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('a redirect within the origin', () => {
  it("nginx's 301 to a POST (rewrite ... permanent): the gateway command and register go on as POSTs", async () => {
    redirectTo = `${base}/forecasts`;
    const env = { FCAST_BASE_URL: at('moved'), FCAST_API_KEY: emu.server.testKey };
    const gateway = await runCli(['cmd', 'macro', '--json'], { env });
    expectExit(gateway, 0);
    expect(JSON.parse(gateway.stdout)).toMatchObject({ ok: true });
    const register = await runCli(['register', '--email', 'moved@example.com', '--no-save'], {
      env: { FCAST_BASE_URL: at('moved') },
    });
    expectExit(register, 0);
    expect(emu.server.requests.map((q) => [q.method, q.path])).toEqual([
      ['POST', '/api/v1/agent/command'],
      ['POST', '/api/agent/v1/register.php'],
    ]);
  });
});

describe('a redirect to another origin, with a key', () => {
  it('over plain http to a host that is not loopback: not followed, and the hint never suggests it', async () => {
    redirectTo = 'http://forecasts.example';
    const r = await runCli(['symbols'], { env: { FCAST_BASE_URL: at('moved'), FCAST_API_KEY: emu.server.testKey } });
    expectExit(r, 7);
    expect(r.stderr).toMatch(
      /^fcast: the server redirected to another origin \(http:\/\/forecasts\.example\); not followed, so that the key is not sent to it$/m,
    );
    expect(r.stderr).toMatch(/hint: it leads to plain http, where the key would travel unencrypted: keep the base URL/);
    expect(r.stderr).not.toMatch(/set the base URL to/);
  });

  it('from https to http (spawned: the private CA): never suggests the http origin', async () => {
    redirectTo = 'http://forecasts.example';
    const r = await spawnFcast(['symbols'], {
      FCAST_BASE_URL: `${tls.url}/moved/`,
      FCAST_API_KEY: emu.server.testKey,
      NODE_EXTRA_CA_CERTS: TEST_CA,
    });
    expectExit(r, 7);
    expect(r.stderr).toMatch(/not followed, so that the key is not sent to it/);
    expect(r.stderr).toMatch(/hint: it leads to plain http from https, where the key would travel unencrypted/);
    expect(r.stderr).not.toMatch(/set the base URL to http:/);
  });

  it('to another https origin: not followed; the hint suggests that origin', async () => {
    redirectTo = 'https://api.forecasts.example';
    const r = await runCli(['symbols'], { env: { FCAST_BASE_URL: at('moved'), FCAST_API_KEY: emu.server.testKey } });
    expectExit(r, 7);
    expect(r.stderr).toMatch(/hint: if the service has moved, set the base URL to https:\/\/api\.forecasts\.example/);
  });
});

describe('TLS with a private CA', () => {
  it('without the CA: exit 6, and the hint names NODE_EXTRA_CA_CERTS', async () => {
    const r = await runCli(['demo', '--retries', '0'], { env: { FCAST_BASE_URL: `${tls.url}/bom/` } });
    expectExit(r, 6);
    expect(r.stderr).toMatch(/presented a certificate .*\n {2}hint: .*NODE_EXTRA_CA_CERTS/);
  });

  it('with it (spawned, as Node reads it at start): the answer, BOM dropped', async () => {
    const r = await spawnFcast(['demo', '--json'], { FCAST_BASE_URL: `${tls.url}/bom/`, NODE_EXTRA_CA_CERTS: TEST_CA });
    expectExit(r, 0);
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(demoBody));
  });
});
