// `fcast api PATH`: against the emulator (keys by path, methods, fields, --input, -i, exit codes
// by status, retries for GETs only, --dry-run, --verbose), against a hostile raw-TCP server that
// echoes the key and sends terminal controls, and against a foreign URL, which is refused with
// no connection made.
import { writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectExit, type RunResult, tempDir } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';

const emu = useEmulator();
const GATEWAY = '/api/v1/agent/command';
const SYMBOLS = '/api/agent/v1/symbols.php';

/** What the emulator answers to one request made directly, as text. */
async function served(path: string, init: RequestInit = {}): Promise<string> {
  const res = await fetch(emu.server.url + path, init);
  return res.text();
}

function expectNoKey(r: RunResult, key: string): void {
  const secret = key.slice(key.indexOf('_ag_') + 4);
  for (let i = 0; i + 12 <= secret.length; i++) expect(r.stdout + r.stderr).not.toContain(secret.slice(i, i + 12));
}

describe('fcast api: against the emulator', () => {
  it('GET a REST path with the REST key: the body byte for byte when piped, with or without a leading slash', async () => {
    const expected = await served(SYMBOLS, { headers: { authorization: `Bearer ${emu.server.testKey}` } });
    for (const path of [SYMBOLS, SYMBOLS.slice(1), `${emu.server.url}${SYMBOLS}`]) {
      emu.server.requests.splice(0);
      const r = await emu.runWithKey(['api', path]);
      expectExit(r, 0);
      expect(r.stdout).toBe(expected);
      expect(r.stderr).toBe('');
      expect(emu.server.requests).toHaveLength(1);
      expect(emu.server.requests[0]!.method).toBe('GET');
      expect(emu.server.requests[0]!.headers.authorization).toBe(`Bearer ${emu.server.testKey}`);
    }
  });

  it('re-indents the JSON on a terminal, and with --json', async () => {
    const expected = `${JSON.stringify(JSON.parse(await served('/api/agent/v1/track-record.php')), null, 2)}\n`;
    const tty = await emu.run(['api', 'api/agent/v1/track-record.php'], { tty: true, env: { NO_COLOR: '1' } });
    expectExit(tty, 0);
    expect(tty.stdout).toBe(expected);
    const json = await emu.run(['api', 'api/agent/v1/track-record.php', '--json']);
    expect(json.stdout).toBe(expected);
  });

  it('-f fields are the query of a GET; a keyless REST path works without a key', async () => {
    const r = await emu.run(['api', 'api/agent/v1/demo.php', '-f', 'symbol=ETH/USD']);
    expectExit(r, 0);
    expect(JSON.parse(r.stdout).symbol ?? JSON.parse(r.stdout).data?.symbol ?? r.stdout).toMatch(/ETH/);
    const [request] = emu.server.requests;
    expect(request!.query).toEqual({ symbol: 'ETH/USD' });
    expect(request!.headers.authorization).toBeUndefined();
  });

  it('the gateway path gets the gateway key, and falls back to the REST key; -F fields are typed JSON body fields', async () => {
    const gatewayKey = emu.server.limitedGatewayKey;
    const argv = ['api', GATEWAY, '-X', 'post', '-f', 'command=snapshot', '-F', 'args=[]'];
    const own = await emu.runWithKey(argv, { env: { FCAST_GATEWAY_KEY: gatewayKey } });
    expectExit(own, 0);
    const fallback = await emu.runWithKey(argv);
    expectExit(fallback, 0);
    expect(JSON.parse(fallback.stdout).ok).toBe(true);
    expect(emu.server.requests.map((q) => [q.method, q.headers.authorization, q.body])).toEqual([
      ['POST', `Bearer ${gatewayKey}`, { command: 'snapshot', args: [] }],
      ['POST', `Bearer ${emu.server.testKey}`, { command: 'snapshot', args: [] }],
    ]);
  });

  it('--input FILE and --input - send the body as it is, POST by default', async () => {
    const dir = tempDir();
    const file = join(dir, 'body.json');
    const body = '{"command": "macro",\n "args": []}';
    writeFileSync(file, body);
    const fromFile = await emu.runWithKey(['api', GATEWAY, '--input', file]);
    expectExit(fromFile, 0);
    const fromStdin = await emu.runWithKey(['api', GATEWAY, '--input', '-'], { stdin: body });
    expectExit(fromStdin, 0);
    expect(emu.server.requests.map((q) => [q.method, q.body])).toEqual([
      ['POST', { command: 'macro', args: [] }],
      ['POST', { command: 'macro', args: [] }],
    ]);
    const missing = await emu.runWithKey(['api', GATEWAY, '--input', join(dir, 'none.json')]);
    expectExit(missing, 2);
    expect(missing.stderr).toMatch(/cannot read the --input file/);
    const getWithBody = await emu.runWithKey(['api', GATEWAY, '-X', 'GET', '--input', file]);
    expectExit(getWithBody, 2);
    expect(emu.server.requests).toHaveLength(2);
  });

  it('-i prints the status line and the headers on stderr, the body alone on stdout', async () => {
    const r = await emu.runWithKey(['api', '-i', SYMBOLS]);
    expectExit(r, 0);
    expect(r.stderr).toMatch(/^HTTP 200 OK\n/);
    expect(r.stderr).toMatch(/^content-type: application\/json/m);
    expect(() => JSON.parse(r.stdout)).not.toThrow();
  });

  it('exit codes by status class, the error body on stdout once and the error line on stderr', async () => {
    const notFound = await emu.runWithKey(['api', 'api/agent/v1/nothing-here.php']);
    expectExit(notFound, 4);
    expect(notFound.stderr).toMatch(/HTTP 404/);
    const noKey = await emu.run(['api', SYMBOLS]);
    expectExit(noKey, 3);
    expect(noKey.stdout).not.toBe('');
    const json = await emu.run(['api', SYMBOLS, '--json']);
    expectExit(json, 3);
    expect(() => JSON.parse(json.stdout)).not.toThrow(); // one document, not the body twice
    const badId = await emu.run(['api', 'api/agent/v1/verify.php', '-f', 'id=0']);
    expect([2, 4]).toContain(badId.code);
  });

  it('retries a GET on 429 as the contract says, waits announced; a POST is sent once', async () => {
    emu.server.setFaults([{ kind: '429', times: 1, retryAfter: 3 }]);
    const get = await emu.runWithKey(['api', SYMBOLS]);
    expectExit(get, 0);
    expect(get.stderr).toMatch(/HTTP 429.*retrying in 3s \(retry 1 of 2\)/);
    expect(get.sleeps).toEqual([3000]);
    emu.server.setFaults([{ kind: '503', times: 1 }]);
    emu.server.requests.splice(0);
    const post = await emu.runWithKey(['api', GATEWAY, '-f', 'command=macro', '-F', 'args=[]', '-X', 'POST']);
    expectExit(post, 6);
    expect(post.sleeps).toEqual([]);
    expect(emu.server.requests).toHaveLength(1);
  });

  it('--dry-run prints the request with the key masked and sends nothing; --verbose logs it redacted', async () => {
    const dry = await emu.runWithKey(['api', GATEWAY, '-f', 'command=macro', '-X', 'POST', '--dry-run', '--json']);
    expectExit(dry, 0);
    const shown = JSON.parse(dry.stdout);
    expect(shown.method).toBe('POST');
    expect(shown.url).toBe(emu.server.url + GATEWAY);
    expect(shown.body).toEqual({ command: 'macro' });
    expect(emu.server.requests).toHaveLength(0);
    expectNoKey(dry, emu.server.testKey);
    const verbose = await emu.runWithKey(['api', SYMBOLS, '--verbose']);
    expectExit(verbose, 0);
    expect(verbose.stderr).toMatch(/> GET .*symbols\.php/);
    expect(verbose.stderr).toMatch(/Authorization: Bearer <redacted>/);
    expectNoKey(verbose, emu.server.testKey);
  });

  it("reaches the emulator's admin routes without a key: -F fields move its clock", async () => {
    const before = emu.server.clock.now();
    const r = await emu.runWithKey(['api', '__mock/clock', '-X', 'POST', '-F', 'advance=3600']);
    expectExit(r, 0);
    expect(JSON.parse(r.stdout).t).toBe(Math.floor(before / 1000) + 3600);
    emu.server.clock.advance(-3_600_000);
  });

  it('refuses bad usage before anything is sent: a method, a field without =, no base URL', async () => {
    for (const argv of [
      ['api', SYMBOLS, '-X', 'TRACE'],
      ['api', SYMBOLS, '-f', 'symbol'],
      ['api', ''],
      ['api', 'api/agent/v1/register.php', '-X', 'POST', '-f', 'email=me@example.com'],
    ]) {
      const r = await emu.runWithKey(argv);
      expectExit(r, 2);
    }
    expect(emu.server.requests).toHaveLength(0);
    const r = await emu.run(['api', SYMBOLS], { env: { FCAST_BASE_URL: '' } });
    expectExit(r, 3);
  });
});

// ---- a hostile server, raw TCP, and one that must never be reached ----

interface Listener {
  server: Server;
  port: number;
  connections: number;
  sockets: Set<Socket>;
}

async function listen(reply: (head: string) => string): Promise<Listener> {
  const l: Listener = { server: createServer(), port: 0, connections: 0, sockets: new Set() };
  l.server.on('connection', (socket) => {
    l.connections++;
    l.sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => l.sockets.delete(socket));
    let got = '';
    socket.on('data', (chunk) => {
      got += chunk.toString('latin1');
      if (!got.includes('\r\n\r\n')) return;
      socket.removeAllListeners('data');
      socket.end(reply(got));
    });
  });
  await new Promise<void>((r) => l.server.listen(0, '127.0.0.1', r));
  l.port = (l.server.address() as { port: number }).port;
  return l;
}

async function stop(l: Listener): Promise<void> {
  for (const s of l.sockets) s.destroy();
  await new Promise<void>((r) => l.server.close(() => r()));
}

const KEY = `mfa_ag_${'9f8e7d6c5b4a3210'.repeat(2)}0badc0de`;
const GATEWAY_KEY = `mfa_ag_${'0123abcd4567ef89'.repeat(2)}cafef00d`;

describe('fcast api: a hostile server and a foreign URL', () => {
  let hostile: Listener;
  let foreign: Listener;
  beforeAll(async () => {
    hostile = await listen((head) => {
      const sent = /authorization: Bearer (\S+)/i.exec(head)?.[1] ?? 'none';
      const body = JSON.stringify({
        echoed: sent,
        url: `https://x/?k=${encodeURIComponent(sent)}`,
        title: '\u001b[31mred\u202e',
      });
      const text = head.includes('/text') ? `key ${sent} \u001b]0;owned\u0007 \u001b[2J done\n` : body;
      return (
        `HTTP/1.1 ${head.includes('/teapot') ? '418 Teapot' : '200 OK'}\r\ncontent-type: application/json\r\n` +
        `x-echo: ${sent}\r\nx-evil: \u009b2Jcleared\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`
      );
    });
    foreign = await listen(() => 'HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}');
  });
  afterAll(async () => {
    await stop(hostile);
    await stop(foreign);
  });

  const env = () => ({
    FCAST_BASE_URL: `http://127.0.0.1:${hostile.port}`,
    FCAST_API_KEY: KEY,
    FCAST_GATEWAY_KEY: GATEWAY_KEY,
  });

  it('never prints the key the server echoes, in the body, the headers or an error, in any mode', async () => {
    for (const path of [
      'api/agent/v1/symbols.php',
      'api/v1/agent/command',
      'api/agent/v1/teapot',
      'api/agent/v1/text',
    ]) {
      for (const mode of [[], ['-i'], ['--json'], ['--verbose', '-i'], ['-X', 'POST', '-f', 'a=b'], ['--ci']]) {
        for (const tty of [false, true]) {
          // --ci: the same run under GitHub Actions, where the workflow-command filter applies too.
          const ci = mode[0] === '--ci';
          const r = await runHostile(['api', path, ...(ci ? ['-i'] : mode)], tty, undefined, ci);
          expect(r.code, `${path} ${mode.join(' ')}: ${r.stderr}`).not.toBe(1);
          expectNoKey(r, KEY);
          expectNoKey(r, GATEWAY_KEY);
          if (mode.includes('-i')) expect(r.stderr).toMatch(/^x-evil: .*cleared$/m);
          expect(r.stderr).not.toMatch(/\u009b|\u001b/);
          if (tty) expect(r.stdout).not.toMatch(/\u001b|\u202e/);
        }
      }
    }
  });

  it('a 418 is exit 2 by the table; a 2xx body that is not JSON is printed, and exit 7', async () => {
    expectExit(await runHostile(['api', 'api/agent/v1/teapot']), 2);
    const text = await runHostile(['api', 'api/agent/v1/text']);
    expectExit(text, 7);
    expect(text.stdout).toMatch(/^key \S+ .* done\n$/);
    expect(text.stderr).toMatch(/not JSON/);
    const json = await runHostile(['api', 'api/agent/v1/text', '--json']);
    expectExit(json, 7);
    expect(json.stdout).toBe('');
  });

  it('refuses a URL of another origin, or a path that leads to one, with no connection made', async () => {
    const before = { hostile: hostile.connections, foreign: foreign.connections };
    const elsewhere = `http://127.0.0.1:${foreign.port}`;
    for (const target of [
      `${elsewhere}/api/agent/v1/symbols.php`,
      `${elsewhere.replace('http', 'https')}/api/agent/v1/symbols.php`,
      `//127.0.0.1:${foreign.port}/x`,
      `\\\\127.0.0.1:${foreign.port}/x`,
      `http://user:pw@127.0.0.1:${hostile.port}/x`,
      `file:///etc/passwd`,
    ]) {
      for (const mode of [[], ['--dry-run'], ['--input', '-']]) {
        const r = await runHostile(['api', target, ...mode], false, '{}');
        expectExit(r, 2);
        expect(r.stdout).toBe('');
        expect(r.stderr).toMatch(/refusing|no http/);
        expectNoKey(r, KEY);
      }
    }
    expect(foreign.connections).toBe(before.foreign);
    expect(hostile.connections).toBe(before.hostile);
  });

  function runHostile(argv: string[], tty = false, stdin?: string, ci = false) {
    const actions = ci ? { GITHUB_ACTIONS: 'true' } : {};
    return emu.run(argv, { env: { ...env(), NO_COLOR: '1', ...actions }, tty, stdin });
  }
});
