// Setup mistakes a new user makes, each told in one line with the contract's exit code and a
// hint naming the real mistake, never library text: a port in use, a host that is not this
// machine's, https on an http port, a base URL at some other web server, the API path pasted
// into the base URL.
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';

const emu = useEmulator();
let taken: Server;
let otherSite: HttpServer;
let otherUrl = '';

beforeAll(async () => {
  taken = createServer();
  await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
  // Some other web server: HTML pages, 404 for unknown paths, 501 for POST.
  otherSite = createHttpServer((req, res) => {
    req.resume();
    const status = req.method === 'POST' ? 501 : 404;
    res.writeHead(status, { 'content-type': 'text/html' });
    res.end(`<!DOCTYPE html><html><body><h1>${status}</h1></body></html>`);
  });
  await new Promise<void>((r) => otherSite.listen(0, '127.0.0.1', r));
  otherUrl = `http://127.0.0.1:${(otherSite.address() as { port: number }).port}`;
});

afterAll(async () => {
  await new Promise<void>((r) => taken.close(() => r()));
  otherSite.closeAllConnections();
  await new Promise<void>((r) => otherSite.close(() => r()));
});

const noStack = (text: string) => expect(text).not.toMatch(/^\s+at |internal error|EADDR|SSL routines|0A00010B/m);

describe('fcast mock cannot listen', () => {
  it('a port in use: exit 2, "try --port 0"', async () => {
    const port = (taken.address() as { port: number }).port;
    const r = await runCli(['mock', '--port', String(port)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^fcast: port ${port} on 127\\.0\\.0\\.1 is already in use$`, 'm'));
    expect(r.stderr).toMatch(/hint: try --port 0/);
    expect(r.stdout).toBe('');
    noStack(r.stderr);
  });

  it('a host that is not an address of this machine: exit 2', async () => {
    const r = await runCli(['mock', '--host', '192.0.2.1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^fcast: cannot listen on 192\.0\.2\.1: it is not an address of this machine$/m);
    expect(r.stderr).toMatch(/hint: use --host 127\.0\.0\.1/);
    noStack(r.stderr);
  });
});

describe('a base URL that is not quite right', () => {
  it('https on a plain http port: says so and gives the http URL (exit 6)', async () => {
    const https = emu.server.url.replace('http:', 'https:');
    const r = await emu.run(['demo', '--retries', '0'], { env: { FCAST_BASE_URL: https } });
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/answered plain http, not https/);
    expect(r.stderr).toContain(`hint: use ${emu.server.url} as the base URL`);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(2);
    noStack(r.stderr);
  });

  it('some other web server (HTML 404): not the API, check the base URL; the exit code is still the status', async () => {
    const r = await runCli(['predict', 'BTC/USD'], {
      env: { FCAST_BASE_URL: otherUrl, FCAST_API_KEY: emu.server.testKey },
    });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/this does not look like the Market Forecast Agent API; check the base URL/);
    expect(r.stderr).toMatch(/fcast doctor/);
    expect(r.stderr).not.toMatch(/fcast symbols/);
    noStack(r.stderr);
  });

  it('some other web server (HTML 501) for a gateway command: the request is not implemented there; the base URL, or a failing service', async () => {
    const r = await runCli(['cmd', 'macro', '--retries', '0'], {
      env: { FCAST_BASE_URL: otherUrl, FCAST_API_KEY: emu.server.testKey },
    });
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/^fcast: HTTP 501 Not Implemented: the server does not implement this request$/m);
    expect(r.stderr).toMatch(
      /hint: if the base URL is right, the service is failing: try again later \('fcast doctor' checks/,
    );
  });

  it('some other web server answering 200 with a page: exit 7, and the hint says it is not the API', async () => {
    const page = createHttpServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!DOCTYPE html><html><body>Welcome</body></html>');
    });
    await new Promise<void>((r) => page.listen(0, '127.0.0.1', r));
    try {
      const r = await runCli(['demo'], {
        env: { FCAST_BASE_URL: `http://127.0.0.1:${(page.address() as { port: number }).port}` },
      });
      expect(r.code).toBe(7);
      expect(r.stderr).toMatch(/hint: this does not look like the Market Forecast Agent API; check the base URL/);
    } finally {
      page.closeAllConnections();
      await new Promise<void>((r) => page.close(() => r()));
    }
  });

  it.each(['/api/agent/v1', '/api/agent/v1/'])('a base URL ending in %s is taken as the root', async (suffix) => {
    const r = await emu.run(['demo', '--json'], { env: { FCAST_BASE_URL: `${emu.server.url}${suffix}` } });
    expect(r.code).toBe(0);
    expect(emu.server.requests.map((q) => q.path)).toEqual(['/api/agent/v1/demo.php']);
  });
});

describe('something at the base URL that does not speak HTTP', () => {
  const cases: Array<[what: string, speak: (socket: import('node:net').Socket) => void]> = [
    ['an SSH server (a banner, no HTTP)', (socket) => socket.write('SSH-2.0-OpenSSH_9.2p1\r\n')],
    [
      "headers that never end (past the parser's limit)",
      (socket) => {
        socket.write('HTTP/1.1 200 OK\r\n');
        for (let i = 0; i < 2000; i++) socket.write(`x-filler-${i}: ${'x'.repeat(64)}\r\n`);
      },
    ],
  ];
  it.each(cases)(
    '%s: exit 7, one line naming the parser code, the hint says it is not the API',
    async (_what, speak) => {
      const server = createServer((socket) => {
        socket.on('error', () => undefined);
        socket.once('data', () => speak(socket));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
        const r = await runCli(['demo', '--retries', '0'], { env: { FCAST_BASE_URL: url } });
        expect(r.code, r.stderr).toBe(7);
        expect(r.stdout).toBe('');
        expect(r.stderr).toMatch(
          /^fcast: 127\.0\.0\.1:\d+ did not answer in HTTP \(HPE_[A-Z_]+\); the base URL http:\S+ comes from FCAST_BASE_URL in the environment\n {2}hint: this does not look like the Market Forecast Agent API/,
        );
        expect(r.stderr.trimEnd().split('\n')).toHaveLength(2);
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    },
  );
});

describe('--dry-run is a value, not an exception', () => {
  it('prints the prepared request and sends nothing, for the API path pasted into the base URL too', async () => {
    const r = await emu.run(['demo', '--dry-run'], { env: { FCAST_BASE_URL: `${emu.server.url}/api/agent/v1` } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^GET ${emu.server.url}/api/agent/v1/demo\\.php\\?symbol=BTC%2FUSD$`, 'm'));
    expect(emu.server.requests).toHaveLength(0);
  });
});
