// HTTPS_PROXY / HTTP_PROXY / NO_PROXY from the context's environment: a CONNECT proxy on
// loopback that counts the tunnels it opens to the emulator.
import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';

const emu = useEmulator();
let proxy: Server;
let proxyUrl = '';
let tunnels: string[] = [];
const sockets = new Set<Socket>();

beforeAll(async () => {
  proxy = createServer((_req, res) => {
    res.writeHead(405);
    res.end();
  });
  proxy.on('connect', (req, client: Socket, head) => {
    tunnels.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => s.destroy());
      s.on('close', () => sockets.delete(s));
    }
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((r) => proxy.close(() => r()));
});

beforeEach(() => {
  tunnels = [];
});

describe('proxies', () => {
  it('goes through HTTP_PROXY when one is set', async () => {
    const r = await emu.run(['demo', '--json'], { env: { HTTP_PROXY: proxyUrl } });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true });
    expect(tunnels).toEqual([new URL(emu.server.url).host]);
  });

  it('goes direct for hosts in NO_PROXY', async () => {
    const r = await emu.run(['demo', '--json'], { env: { HTTP_PROXY: proxyUrl, NO_PROXY: '127.0.0.1' } });
    expect(r.code).toBe(0);
    expect(tunnels).toEqual([]);
    expect(emu.server.requests).toHaveLength(1);
  });

  it('goes direct when no proxy is set', async () => {
    const r = await emu.run(['demo', '--json']);
    expect(r.code).toBe(0);
    expect(tunnels).toEqual([]);
  });
});

describe('a key and a proxy', () => {
  it('a key never goes over plain http through a proxy, even to a loopback host', async () => {
    const r = await emu.runWithKey(['symbols'], { env: { HTTP_PROXY: proxyUrl } });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/refusing to send a key over plain http to .* through the proxy/);
    expect(r.stderr).toMatch(/NO_PROXY/);
    expect(tunnels).toEqual([]);
    const direct = await emu.runWithKey(['symbols', '--json'], {
      env: { HTTP_PROXY: proxyUrl, NO_PROXY: '127.0.0.1' },
    });
    expect(direct.code).toBe(0);
  });
});

describe('a proxy variable that is not an http(s) URL', () => {
  it('is a config error (exit 3) that does not echo the value, and a bare host:port is taken as http', async () => {
    const bad = await emu.run(['demo'], { env: { HTTP_PROXY: 'socks5://user:secret@127.0.0.1:1080' } });
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/^fcast: HTTP_PROXY must be an http:\/\/ or https:\/\/ proxy/m);
    expect(bad.stderr).not.toContain('secret');
    const bare = await emu.run(['demo', '--json'], { env: { HTTP_PROXY: new URL(proxyUrl).host } });
    expect(bare.code).toBe(0);
    expect(tunnels).toHaveLength(1);
  });
});

describe('a proxy that cannot be reached', () => {
  it('is named in the error, not the service', async () => {
    const r = await emu.run(['demo', '--retries', '0'], {
      env: { HTTPS_PROXY: '', HTTP_PROXY: 'http://user:secret@127.0.0.1:9' },
    });
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/through the proxy http:\/\/127\.0\.0\.1:9 failed/);
    expect(r.stderr).toMatch(/NO_PROXY/);
    expect(r.stderr).not.toContain('secret');
  });
});

describe('a proxy that refuses the tunnel', () => {
  it('a 407 to CONNECT says the proxy wants credentials (exit 6), without echoing them', async () => {
    const strict = createServer();
    strict.on('connect', (_req, client: Socket) => {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\ncontent-length: 0\r\n\r\n');
    });
    await new Promise<void>((r) => strict.listen(0, '127.0.0.1', r));
    const port = (strict.address() as { port: number }).port;
    try {
      const r = await emu.run(['demo', '--retries', '0'], {
        env: { FCAST_BASE_URL: 'https://forecasts.example', HTTPS_PROXY: `http://user:secret@127.0.0.1:${port}` },
      });
      expect(r.code).toBe(6);
      expect(r.stderr).toMatch(/through the proxy http:\/\/127\.0\.0\.1:\d+ failed: it answered HTTP 407 to CONNECT/);
      expect(r.stderr).toMatch(/hint: the proxy wants credentials/);
      expect(r.stderr).not.toContain('secret');
    } finally {
      strict.closeAllConnections();
      await new Promise<void>((r) => strict.close(() => r()));
    }
  });
});
