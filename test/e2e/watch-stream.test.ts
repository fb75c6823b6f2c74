// --watch when stdout is not a terminal (or with --json): the stream. In-process against the
// emulator, with runCli's clock, whose sleeps are recorded and return at once.
import { createServer as createHttpServer } from 'node:http';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { expectExit } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';

const emu = useEmulator();

const lines = (text: string) => text.split('\n').filter((l) => l !== '');
const STAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ fcast: /;

describe('--watch --json: NDJSON', () => {
  it('--count 3 gives exactly three lines, each a body as sent, an interval apart', async () => {
    const r = await emu.run(['demo', '--watch', '--count', '3', '--json']);
    expectExit(r, 0);
    const out = lines(r.stdout);
    expect(out).toHaveLength(3);
    expect(r.stdout.endsWith('\n')).toBe(true);
    expect(emu.server.requests).toHaveLength(3);
    const raw = await (await fetch(`${emu.server.url}/api/agent/v1/demo.php?symbol=BTC%2FUSD`)).text();
    // Compact, and the body's content unchanged: the very text the server sent (it sends it compact).
    for (const line of out) expect(line).toBe(raw.trim());
    // Never more often than the interval (default 60 s): a sleep between refreshes, none after the last.
    expect(r.sleeps).toEqual([60_000, 60_000]);
    expect(r.stderr).toBe('');
  });

  it('several symbols: one line per symbol per refresh, in the order given; --interval sets the pace', async () => {
    const r = await emu.runWithKey([
      'predict',
      'ETH/USD',
      'btc-usd',
      '--watch',
      '--count',
      '2',
      '--interval',
      '7.5',
      '--json',
    ]);
    expectExit(r, 0);
    expect(lines(r.stdout).map((l) => JSON.parse(l).symbol)).toEqual(['ETH/USD', 'BTC/USD', 'ETH/USD', 'BTC/USD']);
    expect(r.sleeps).toEqual([7500]);
  });

  it('the watchlist is what a predict --watch with no symbol watches', async () => {
    const r = await emu.runWithKey(['predict', '--watch', '--count', '1', '--json'], {
      env: { FCAST_WATCHLIST: 'SOL/USD,eth-usd' },
    });
    expectExit(r, 0);
    expect(lines(r.stdout).map((l) => JSON.parse(l).symbol)).toEqual(['SOL/USD', 'ETH/USD']);
  });

  it('keeps indented bodies as sent, token by token, on one line', async () => {
    // A server that indents: the line is its text without the white space between tokens.
    const { compactJson } = await import('../../src/output/json.js');
    const raw = '{\n  "a": 1.50,\n  "b": [ 1e3, "x y\\n" ],\n  "2": {}\n}\n';
    expect(compactJson(raw)).toBe('{"a":1.50,"b":[1e3,"x y\\n"],"2":{}}');
  });
});

describe('--watch, piped: plain tables', () => {
  it('a terminal that cannot move its cursor (TERM=dumb) gets the stream, not the board', async () => {
    const r = await emu.run(['demo', '--watch', '--count', '2'], { tty: true, env: { TERM: 'dumb' } });
    expectExit(r, 0);
    expect(r.stdout).not.toContain('\x1b[?1049h');
    expect(r.stdout.match(/^BTC\/USD /gm)).toHaveLength(2);
  });

  it('each refresh prints the plain table (every column) then a blank line', async () => {
    const one = await emu.run(['demo']);
    const r = await emu.run(['demo', '--watch', '--count', '2']);
    expectExit(r, 0);
    expect(r.stdout).toBe(`${one.stdout}\n${one.stdout}\n`);
    expect(r.stdout).not.toMatch(/\x1b\[/);
  });
});

describe('--watch: failures', () => {
  it('a transient failure goes to stderr as one stamped line, and the stream goes on after a backoff', async () => {
    emu.server.setFaults([{ kind: '503', times: 1, retryAfter: 0 }]);
    const r = await emu.run(['demo', '--watch', '--count', '3', '--json', '--interval', '10']);
    // --count: the last refresh's code (it succeeded).
    expectExit(r, 0);
    expect(lines(r.stdout)).toHaveLength(3); // the 503's problem body, then two bodies
    expect(JSON.parse(lines(r.stdout)[0]!).status).toBe(503);
    const err = lines(r.stderr);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(STAMP);
    expect(err[0]).toMatch(/HTTP 503 .*; next refresh in \d+s$/);
    // Each request once (the watch's backoff, not the client's quick retries); the wait after
    // the failure is the interval: Retry-After 0 asks for no more.
    expect(emu.server.requests).toHaveLength(3);
    expect(r.sleeps).toEqual([10_000, 10_000]);
  });

  it('without Retry-After, backs off exponentially with jitter from the interval, capped at 5 minutes', async () => {
    // refused: nothing listens on the port
    const r = await emu.run(['demo', '--watch', '--count', '5', '--interval', '60'], {
      env: { FCAST_BASE_URL: 'http://127.0.0.1:9' },
    });
    expectExit(r, 6);
    // runCli's random() is 0.5: 3/4 of min(300, 60 * 2^n), never below the interval.
    expect(r.sleeps).toEqual([90_000, 180_000, 225_000, 225_000]);
    const err = lines(r.stderr);
    expect(err).toHaveLength(5);
    for (const line of err.slice(0, 4)) expect(line).toMatch(/^[^ ]+Z fcast: .*refused.*; next refresh in /);
    // The fifth is the last (--count 5): no refresh comes after it, and its line says none.
    expect(err[4]).toMatch(/^[^ ]+Z fcast: [^;]*refused[^;]*$/);
    expect(r.stdout).toBe('');
  });

  it("after a good refresh, a failure line says how old the last good data is (the stream's stale mark)", async () => {
    const body = await (await fetch(`${emu.server.url}/api/agent/v1/demo.php`)).text();
    let served = 0;
    const server = createHttpServer((_req, res) => {
      if (served++ === 0) res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      else res.writeHead(503, { 'retry-after': '0', 'content-type': 'text/html' }).end('<h1>down</h1>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const r = await emu.run(['demo', '--watch', '--count', '3', '--json', '--interval', '10'], {
        env: { FCAST_BASE_URL: url },
      });
      expectExit(r, 6);
      expect(lines(r.stdout)).toHaveLength(1);
      const err = lines(r.stderr);
      expect(err).toHaveLength(2);
      expect(err[0]).toMatch(/HTTP 503 .*; last good data 10s old; next refresh in 10s$/);
      // The last refresh (--count 3): how old the data is, and no next refresh.
      expect(err[1]).toMatch(/HTTP 503 .*; last good data 20s old$/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("honours the server's Retry-After, however long", async () => {
    emu.server.setFaults([{ kind: '429', times: 1, retryAfter: 600 }]);
    const r = await emu.run(['demo', '--watch', '--count', '2', '--json']);
    expectExit(r, 0);
    expect(r.sleeps).toEqual([600_000]);
    expect(lines(r.stderr)[0]).toMatch(/HTTP 429 .*next refresh in 10m$/);
  });

  it('with --count, the exit code is the last refresh’s', async () => {
    emu.server.setFaults([{ kind: '503', retryAfter: 0 }]);
    const r = await emu.run(['demo', '--watch', '--count', '2', '--json']);
    expectExit(r, 6);
    expect(lines(r.stdout)).toHaveLength(2);
  });

  it('a permanent failure ends the watch with its code and its one-line error', async () => {
    const r = await emu.run(['predict', 'BTC/USD', '--watch', '--json'], {
      env: { FCAST_API_KEY: `mfa_ag_${'0'.repeat(40)}` },
    });
    expectExit(r, 3);
    // The problem body once, on one line; the error once, as main words it, with its hint.
    expect(lines(r.stdout)).toHaveLength(1);
    expect(JSON.parse(r.stdout).status).toBe(401);
    expect(r.stderr).toMatch(/^fcast: BTC\/USD: HTTP 401/);
    expect(r.stderr).toMatch(/\n {2}hint: /);
    expect(r.sleeps).toEqual([]);
  });

  it('an unknown symbol among several: the others are shown, then exit 4', async () => {
    const r = await emu.runWithKey(['predict', 'BTC/USD', 'NOPE/USD', '--watch']);
    expectExit(r, 4);
    expect(r.stdout).toContain('BTC/USD');
    expect(r.stderr).toMatch(/^fcast: NOPE\/USD: HTTP 404/);
  });

  it('--tf naming a timeframe no response has is exit 2 at the first refresh', async () => {
    const r = await emu.run(['demo', '--watch', '--tf', '7min']);
    expectExit(r, 2);
    expect(r.stderr).toMatch(/no forecast for --tf 7min/);
  });

  it('--strict makes an off-shape body permanent (7); without it, a page that is not JSON is transient', async () => {
    emu.server.setFaults([{ kind: 'html', times: 1 }]);
    const passing = await emu.run(['demo', '--watch', '--count', '2', '--json']);
    expectExit(passing, 0);
    expect(lines(passing.stderr)[0]).toMatch(/not JSON/);
    emu.server.setFaults([{ kind: 'html', times: 1 }]);
    const strict = await emu.run(['demo', '--watch', '--count', '2', '--json', '--strict']);
    expectExit(strict, 7);
  });
});

describe('--watch: the reader leaves', () => {
  it('a write to a closed pipe ends the watch quietly, exit 0', async () => {
    let written = 0;
    const r = await emu.run(['demo', '--watch', '--json'], {
      onStart: ({ stdout }) => {
        const capture = stdout as unknown as { write(chunk: string): boolean };
        const write = capture.write.bind(capture);
        capture.write = (chunk: string) => {
          if (++written > 2) throw Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
          return write(chunk);
        };
      },
    });
    expectExit(r, 0);
    expect(lines(r.stdout)).toHaveLength(2);
    expect(r.stderr).toBe('');
  });
});

describe('--watch: flags', () => {
  it.each([
    [['demo', '--watch', '--interval', '2'], /--interval must be a number of seconds from 5 to 86400, got '2'/],
    [['demo', '--watch', '--interval', 'soon'], /--interval must be a number/],
    [['demo', '--watch', '--count', '0'], /--count must be a whole number >= 1/],
    [['demo', '--count', '3'], /--count works with --watch/],
    [['predict', 'BTC/USD', '--interval', '10'], /--interval works with --watch/],
  ])('%j is exit 2 before any request', async (argv, message) => {
    const r = await emu.runWithKey(argv);
    expectExit(r, 2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toMatch(/hint: .*fcast (demo|predict) --help/);
    expect(emu.server.requests).toHaveLength(0);
  });

  it('--dry-run prints the request once, watching nothing', async () => {
    const r = await emu.run(['demo', '--watch', '--dry-run']);
    expectExit(r, 0);
    expect(r.stdout).toMatch(/^GET http/);
    expect(emu.server.requests).toHaveLength(0);
  });
});

describe('--watch: the connection', () => {
  it('one keep-alive connection serves every refresh', async () => {
    // A TCP relay in front of the emulator counts the connections fcast opens.
    let connections = 0;
    const target = new URL(emu.server.url);
    const sockets: Socket[] = [];
    const relay = createServer((client) => {
      connections++;
      const upstream = connect(Number(target.port), target.hostname);
      sockets.push(client, upstream);
      client.pipe(upstream).pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const port = (relay.address() as { port: number }).port;
    try {
      const r = await emu.runWithKey(['predict', 'BTC/USD', '--watch', '--count', '4', '--json'], {
        env: { FCAST_BASE_URL: `http://127.0.0.1:${port}` },
      });
      expectExit(r, 0);
      expect(lines(r.stdout)).toHaveLength(4);
      expect(connections).toBe(1);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => relay.close(resolve));
    }
  });
});
