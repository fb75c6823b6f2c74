// HTTPS_PROXY / HTTP_PROXY / NO_PROXY from the context's environment, against a proxy that
// wants Basic credentials (test/helpers/proxy.ts): an https URL goes through a CONNECT tunnel,
// an http one is forwarded, as curl does. A proxy's refusal is classed by its cause: wanting or
// refusing credentials, or refusing the destination, is the proxy settings (exit 3), never
// "unavailable"; a proxy that is down or cannot reach the service is exit 6. No output ever
// shows the proxy's user name or password.
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectExit, spawnFcast } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { startProxy, startTlsFront, TEST_CA, type TestProxy, type TlsFront } from '../helpers/proxy.js';

const emu = useEmulator();
const USER = 'analyst';
const PASSWORD = 's3cret-p4ss';
let open: TestProxy;
let guarded: TestProxy;
let tls: TlsFront;

beforeAll(async () => {
  open = await startProxy();
  // As squid is commonly set up: credentials, and CONNECT only to port 443 and the TLS front.
  tls = await startTlsFront(emu.server.url);
  guarded = await startProxy({ user: USER, password: PASSWORD, connectPorts: [443, Number(new URL(tls.url).port)] });
});

afterAll(async () => {
  await Promise.all([open.close(), guarded.close(), tls.close()]);
});

beforeEach(() => {
  open.reset();
  guarded.reset();
});

/** Nothing any output shows may contain the proxy's credentials. */
function keepsTheSecret(r: { stdout: string; stderr: string }) {
  for (const text of [r.stdout, r.stderr]) {
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(USER);
    expect(text).not.toContain(Buffer.from(`${USER}:${PASSWORD}`).toString('base64'));
  }
}

describe('proxies', () => {
  it('forwards an http URL through HTTP_PROXY (no tunnel: a proxy allows CONNECT to 443 only, commonly)', async () => {
    const r = await emu.run(['demo', '--json'], { env: { HTTP_PROXY: open.url() } });
    expectExit(r, 0);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true });
    expect(open.seen.map((s) => s.line)).toEqual([`GET ${emu.server.url}/api/agent/v1/demo.php?symbol=BTC%2FUSD`]);
  });

  it('goes direct for hosts in NO_PROXY', async () => {
    const r = await emu.run(['demo', '--json'], { env: { HTTP_PROXY: open.url(), NO_PROXY: '127.0.0.1' } });
    expectExit(r, 0);
    expect(open.seen).toEqual([]);
    expect(emu.server.requests).toHaveLength(1);
  });

  it('goes direct when no proxy is set', async () => {
    const r = await emu.run(['demo', '--json']);
    expectExit(r, 0);
    expect(open.seen).toEqual([]);
  });
});

describe('a proxy with Basic credentials', () => {
  it('forwards an http request when its URL carries them', async () => {
    const r = await emu.run(['demo', '--json'], { env: { HTTP_PROXY: guarded.url(`${USER}:${PASSWORD}`) } });
    expectExit(r, 0);
    expect(guarded.seen).toEqual([expect.objectContaining({ proxyAuth: true })]);
    keepsTheSecret(r);
  });

  it.each([
    ['none', '', /no credentials were sent \(HTTP_PROXY carries none\)/],
    ['a user name alone', `${USER}@`, /HTTP_PROXY names a user but no password, so no credentials were sent/],
    [
      'wrong ones',
      `${USER}:not-${PASSWORD}@`,
      /the proxy refused the user name and password in HTTP_PROXY \(not shown here\)/,
    ],
  ])(
    'a 407 to a forwarded request, given %s: exit 3, the hint says what was sent',
    async (_given, credentials, hint) => {
      const url = guarded.url().replace('//', `//${credentials}`);
      // --verbose too: the request log and the stack trace must keep the secret as well.
      const r = await emu.run(['demo', '--retries', '0', '--verbose'], { env: { HTTP_PROXY: url } });
      expectExit(r, 3);
      expect(r.stderr).toMatch(
        /^fcast: the proxy http:\/\/127\.0\.0\.1:\d+ \(HTTP_PROXY\) wants credentials \(HTTP 407\)$/m,
      );
      expect(r.stderr).toMatch(hint);
      expect(guarded.seen).toHaveLength(1);
      expect(r.stderr).toMatch(/^> GET https?:\/\//m);
      keepsTheSecret(r);
    },
  );

  it.each([
    ['none', '', /no credentials were sent \(HTTPS_PROXY carries none\)/, false],
    ['wrong ones', `${USER}:not-${PASSWORD}@`, /refused the user name and password in HTTPS_PROXY/, true],
  ])('a 407 to CONNECT, given %s: exit 3 (not "unavailable"), not retried', async (_given, credentials, hint, sent) => {
    const url = guarded.url().replace('//', `//${credentials}`);
    const r = await emu.run(['demo', '--verbose'], {
      env: { FCAST_BASE_URL: 'https://forecasts.example', HTTPS_PROXY: url },
    });
    expectExit(r, 3);
    expect(r.stderr).toMatch(
      /^fcast: the proxy http:\/\/127\.0\.0\.1:\d+ \(HTTPS_PROXY\) wants credentials to open a tunnel to forecasts\.example:443 \(HTTP 407 to CONNECT\)$/m,
    );
    expect(r.stderr).toMatch(hint);
    expect(r.sleeps).toEqual([]);
    expect(guarded.seen).toEqual([{ line: 'CONNECT forecasts.example:443', proxyAuth: sent }]);
    expect(r.stderr).toMatch(/^> GET https?:\/\//m);
    keepsTheSecret(r);
  });

  it('a 403 to CONNECT (a port it does not allow): exit 3, naming the destination and the refusal', async () => {
    const r = await emu.run(['demo', '--verbose'], {
      env: { FCAST_BASE_URL: 'https://forecasts.example:8443', HTTPS_PROXY: guarded.url(`${USER}:${PASSWORD}`) },
    });
    expectExit(r, 3);
    expect(r.stderr).toMatch(
      /^fcast: the proxy http:\/\/127\.0\.0\.1:\d+ \(HTTPS_PROXY\) refused to open a tunnel to forecasts\.example:8443 \(HTTP 403 to CONNECT\)$/m,
    );
    expect(r.stderr).toMatch(
      /hint: its rules do not allow forecasts\.example:8443 .* list forecasts\.example in NO_PROXY/,
    );
    expect(r.sleeps).toEqual([]);
    expect(r.stderr).toMatch(/^> GET https?:\/\//m);
    keepsTheSecret(r);
  });

  it('a destination the proxy cannot reach (its 503 to CONNECT): exit 6, retried like a refused connection', async () => {
    const r = await emu.run(['demo', '--retries', '1'], {
      env: { FCAST_BASE_URL: 'https://127.0.0.1:443', HTTPS_PROXY: guarded.url(`${USER}:${PASSWORD}`) },
    });
    expectExit(r, 6);
    expect(r.stderr).toMatch(
      /the proxy http:\/\/127\.0\.0\.1:\d+ \(HTTPS_PROXY\) could not reach 127\.0\.0\.1:443 \(HTTP 503 to CONNECT\)/,
    );
    expect(r.sleeps).toHaveLength(1);
    expect(guarded.seen).toHaveLength(2);
    keepsTheSecret(r);
  });

  it('carries a key to an https URL inside the tunnel, which the proxy never reads (spawned: the private CA)', async () => {
    const r = await spawnFcast(['symbols', '--json'], {
      FCAST_BASE_URL: tls.url,
      FCAST_API_KEY: emu.server.testKey,
      HTTPS_PROXY: guarded.url(`${USER}:${PASSWORD}`),
      NODE_EXTRA_CA_CERTS: TEST_CA,
    });
    expectExit(r, 0);
    expect(JSON.parse(r.stdout)).toMatchObject({ symbols: expect.any(Array) });
    expect(guarded.seen).toEqual([{ line: `CONNECT ${new URL(tls.url).host}`, proxyAuth: true }]);
    expect(emu.server.requests.map((q) => q.path)).toEqual(['/api/agent/v1/symbols.php']);
    keepsTheSecret(r);
  });
});

describe('a key and a proxy', () => {
  it('a key never goes over plain http through a proxy, even to a loopback host', async () => {
    const r = await emu.runWithKey(['symbols'], { env: { HTTP_PROXY: open.url() } });
    expectExit(r, 3);
    expect(r.stderr).toMatch(/refusing to send a key over plain http to .* through the proxy/);
    expect(r.stderr).toMatch(/NO_PROXY/);
    expect(open.seen).toEqual([]);
    const direct = await emu.runWithKey(['symbols', '--json'], {
      env: { HTTP_PROXY: open.url(), NO_PROXY: '127.0.0.1' },
    });
    expectExit(direct, 0);
  });
});

describe('a proxy variable that is not an http(s) URL', () => {
  it('is a config error (exit 3) that does not echo the value, and a bare host:port is taken as http', async () => {
    const bad = await emu.run(['demo'], { env: { HTTP_PROXY: 'socks5://user:secret@127.0.0.1:1080' } });
    expectExit(bad, 3);
    expect(bad.stderr).toMatch(/^fcast: HTTP_PROXY must be an http:\/\/ or https:\/\/ proxy/m);
    expect(bad.stderr).not.toContain('secret');
    const bare = await emu.run(['demo', '--json'], { env: { HTTP_PROXY: new URL(open.url()).host } });
    expectExit(bare, 0);
    expect(open.seen).toHaveLength(1);
  });
  it('a password with a bare % (not percent-encoded): exit 3 before anything is sent, saying how to write it', async () => {
    // As typed from a password manager: the % in it must be written %25 in a URL.
    for (const variable of ['HTTP_PROXY', 'HTTPS_PROXY']) {
      const url = guarded.url().replace('//', `//${USER}:${PASSWORD}%zz@`);
      const r = await emu.run(['demo', '--verbose'], {
        env: {
          [variable]: url,
          FCAST_BASE_URL: variable === 'HTTPS_PROXY' ? 'https://forecasts.example' : emu.server.url,
        },
      });
      expectExit(r, 3);
      expect(r.stderr).toMatch(
        new RegExp(`^fcast: ${variable} has a user name or password that is not percent-encoded$`, 'm'),
      );
      expect(r.stderr).toMatch(/hint: write % as %25 in them \(and @ : \/ as %40 %3A %2F\)/);
      keepsTheSecret(r);
    }
    expect(guarded.seen).toEqual([]);
    expect(emu.server.requests).toEqual([]);
  });
});

describe('a proxy that is down or breaks', () => {
  it('one that cannot be reached is named in the error, not the service (exit 6)', async () => {
    const r = await emu.run(['demo', '--retries', '0'], {
      env: { HTTPS_PROXY: '', HTTP_PROXY: 'http://user:secret@127.0.0.1:9' },
    });
    expectExit(r, 6);
    expect(r.stderr).toMatch(/through the proxy http:\/\/127\.0\.0\.1:9 failed/);
    expect(r.stderr).toMatch(/NO_PROXY/);
    expect(r.stderr).not.toContain('secret');
  });

  it('one that resets the connection to CONNECT: exit 6 at once, without opening tunnel after tunnel', async () => {
    let connects = 0;
    const resetting: Server = createServer();
    resetting.on('connect', (_req, client: Socket) => {
      connects++;
      client.destroy();
    });
    await new Promise<void>((r) => resetting.listen(0, '127.0.0.1', r));
    const port = (resetting.address() as { port: number }).port;
    try {
      // undici, left alone, takes the reset as recoverable and CONNECTs again until the deadline.
      const r = await emu.run(['demo', '--retries', '0', '--timeout', '2'], {
        env: { FCAST_BASE_URL: 'https://forecasts.example', HTTPS_PROXY: `http://user:secret@127.0.0.1:${port}` },
      });
      expectExit(r, 6);
      expect(r.stderr).toMatch(/through the proxy http:\/\/127\.0\.0\.1:\d+ failed/);
      expect(r.stderr).not.toMatch(/timed out/);
      expect(connects).toBe(1);
      expect(r.stderr).not.toContain('secret');
    } finally {
      resetting.closeAllConnections();
      await new Promise<void>((r) => resetting.close(() => r()));
    }
  });
});
