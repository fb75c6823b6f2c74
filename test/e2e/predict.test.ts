import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { FIXED_NOW, useEmulator } from '../helpers/emulator.js';

const emu = useEmulator();

async function served(symbol: string, candles = false): Promise<string> {
  const query = new URLSearchParams({ symbol, ...(candles ? { candles: '1' } : {}) });
  const res = await fetch(`${emu.server.url}/api/agent/v1/predictions.php?${query}`, {
    headers: { authorization: `Bearer ${emu.server.testKey}` },
  });
  return res.text();
}
const pretty = (raw: string) => JSON.stringify(JSON.parse(raw), null, 2);
const lastLines = (text: string, n = 3) => text.trimEnd().split('\n').slice(-n).join('\n');
const BRAILLE = /[\u2801-\u28ff]/;

describe('fcast predict', () => {
  it('prints the forecast table with the free tier and its 15-minute delay at the end', async () => {
    const r = await emu.runWithKey(['predict', 'BTC/USD']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const sent = [...emu.server.requests];
    const body = JSON.parse(await served('BTC/USD'));
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^BTC\/USD\s+[\d,]+\.\d\d\s+[+-][\d.]+% 24h\s+at 2026-11-22 11:45 UTC \(15m ago\)/);
    const rows = lines.filter((l) => /^(\d+min|\d+h)\s/.test(l));
    expect(rows.map((l) => l.split(/\s+/)[0]).sort()).toEqual(Object.keys(body.predictions).sort());
    expect(lastLines(r.stdout)).toContain(body.meta.source);
    expect(lastLines(r.stdout)).toMatch(/Tier: free · data delayed 15 min/);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ path: '/api/agent/v1/predictions.php', query: { symbol: 'BTC/USD' } });
    expect(sent[0]!.headers.authorization).toBe(`Bearer ${emu.server.testKey}`);
  });

  it('takes symbols in any case, with a slash or a dash, and sends them canonical', async () => {
    const r = await emu.runWithKey(['predict', 'eth-usd', 'eur/usd', 'Sol-Usd', '--json']);
    expect(r.code).toBe(0);
    expect(emu.server.requests.map((q) => q.query.symbol).sort()).toEqual(['ETH/USD', 'EUR/USD', 'SOL/USD']);
  });

  it('--json with one symbol prints its body as served', async () => {
    const r = await emu.runWithKey(['predict', 'ETH/USD', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`${pretty(await served('ETH/USD'))}\n`);
  });

  it('--json with several symbols prints an array of the bodies in the order given', async () => {
    const order = ['XAU/USD', 'BTC/USD', 'SPX/USD', 'EUR/USD', 'AAPL/USD', 'ETH/USD'];
    const r = await emu.runWithKey(['predict', ...order, '--json']);
    expect(r.code).toBe(0);
    expect(emu.server.requests).toHaveLength(order.length);
    const expected = await Promise.all(order.map((s) => served(s)));
    expect(JSON.parse(r.stdout)).toEqual(expected.map((raw) => JSON.parse(raw)));
    expect(r.stdout).toBe(`[\n${expected.map((raw) => pretty(raw).replace(/^/gm, '  ')).join(',\n')}\n]\n`);
  });

  it('sends up to twenty symbols at once: a watchlist of 20 is one round trip, of 25 two', async () => {
    const bodies = new Map<string, string>();
    for (const s of ['BTC/USD', 'ETH/USD', 'SOL/USD', 'EUR/USD', 'XAU/USD']) bodies.set(s, await served(s));
    // Holds every request until twenty wait or none has come for 500 ms, then answers them all:
    // the most waiting at once is how many fcast had in flight.
    const waiting: Array<() => void> = [];
    let most = 0;
    let rounds = 0;
    let quiet: NodeJS.Timeout | undefined;
    const releaseAll = () => {
      for (const answer of waiting.splice(0)) answer();
    };
    const server = createServer((req, res) => {
      const symbol = new URL(req.url!, 'http://x').searchParams.get('symbol')!;
      if (waiting.length === 0) rounds++;
      waiting.push(() => res.writeHead(200, { 'content-type': 'application/json' }).end(bodies.get(symbol)));
      most = Math.max(most, waiting.length);
      clearTimeout(quiet);
      if (waiting.length >= 20) releaseAll();
      else quiet = setTimeout(releaseAll, 500);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const env = {
      FCAST_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      FCAST_API_KEY: emu.server.testKey,
    };
    const symbols = (n: number) => Array.from({ length: n }, (_, i) => [...bodies.keys()][i % bodies.size]!);
    try {
      for (const [count, trips] of [
        [20, 1],
        [25, 2],
      ] as const) {
        most = 0;
        rounds = 0;
        const r = await runCli(['predict', '--json', ...symbols(count)], { now: FIXED_NOW, env });
        expect(r.code).toBe(0);
        expect(JSON.parse(r.stdout)).toHaveLength(count);
        expect(most).toBe(20);
        expect(rounds).toBe(trips);
      }
    } finally {
      clearTimeout(quiet);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('Ctrl-C with some symbols answered and one stalled: exit 130, one line, nothing more on either stream', async () => {
    const answered = await served('BTC/USD');
    const controller = new AbortController();
    const server = createServer((req, res) => {
      if (req.url?.includes('SOL')) {
        // Answered symbols are in; this one never is. The interrupt comes while it waits.
        setTimeout(() => controller.abort(), 200);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(answered);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const env = {
      FCAST_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      FCAST_API_KEY: emu.server.testKey,
    };
    try {
      const r = await runCli(['predict', 'BTC/USD', 'ETH/USD', 'SOL/USD'], {
        now: FIXED_NOW,
        env,
        signal: controller.signal,
        linger: 500,
      });
      expect(r.code).toBe(130);
      expect(r.stderr).toBe('fcast: interrupted\n');
      // The tables of the answered symbols, which the command goes on to render behind the
      // interrupt, reach neither stream.
      expect(r.stdout).toBe('');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('shows several symbols as an overview, one row each in the order given, and one footer', async () => {
    const r = await emu.runWithKey(['predict', 'SOL/USD', 'BTC/USD']);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^Symbol\s+Price\s+24h\s+15min\s+1h\s+6h\s+Next$/);
    expect(lines[1]).toMatch(/^SOL\/USD\s+[\d,.]+\s+[+-][\d.]+%\s+(long|short) \d+%/);
    expect(lines[2]).toMatch(/^BTC\/USD\s/);
    expect(lines[2]).toMatch(/\d+min in \d+m$/);
    expect(r.stdout).not.toMatch(/^TF\s/m); // no detail tables without --detail
    expect(r.stdout.match(/^Source: /gm)).toHaveLength(1);
    expect(lastLines(r.stdout)).toMatch(/Tier: free/);
  });

  it("--detail adds each symbol's table after the overview, still with one footer", async () => {
    const r = await emu.runWithKey(['predict', 'SOL/USD', 'BTC/USD', '--detail']);
    expect(r.code).toBe(0);
    const headers = r.stdout
      .split('\n')
      .filter((l) => /^[A-Z]+\/USD\s+[\d,]+\.\d+\s+[+-]/.test(l) && l.includes(' 24h'));
    expect(headers.map((l) => l.split(/\s+/)[0])).toEqual(['SOL/USD', 'BTC/USD']);
    expect(r.stdout.match(/^TF\s/gm)).toHaveLength(2);
    expect(r.stdout.indexOf('Symbol ')).toBeLessThan(r.stdout.indexOf('TF '));
    expect(r.stdout.match(/^Source: /gm)).toHaveLength(1);
  });

  it("--tf keeps only the timeframes given, in the detail and as the overview's columns", async () => {
    const one = await emu.runWithKey(['predict', 'BTC/USD', '--tf', '6h,1H']);
    expect(one.code).toBe(0);
    const rows = one.stdout.split('\n').filter((l) => /^(\d+min|\d+h)\s/.test(l));
    expect(rows.map((l) => l.split(/\s+/)[0])).toEqual(['1h', '6h']);
    const several = await emu.runWithKey(['predict', 'BTC/USD', 'XAU/USD', '--tf', '3h']);
    expect(several.stdout.split('\n')[0]).toMatch(/^Symbol\s+Price\s+24h\s+3h\s+Next$/);
  });

  it('--tf naming a timeframe no symbol has exits 2 listing those present; --json prints nothing', async () => {
    for (const json of [[], ['--json']]) {
      const r = await emu.runWithKey(['predict', 'XAU/USD', '--tf', '1h,10min', ...json]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(
        /^fcast: no forecast for --tf 10min; timeframes present: 1min, 5min, 15min, 30min, 1h, 2h, 3h, 6h$/m,
      );
    }
  });

  it('btcusd exits 2 suggesting BTC/USD, and sends nothing', async () => {
    const r = await emu.runWithKey(['predict', 'btcusd']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^fcast: invalid symbol 'btcusd': did you mean BTC\/USD\?$/m);
    expect(emu.server.requests).toHaveLength(0);
  });

  it('an unknown symbol exits 4, names it and points at fcast symbols', async () => {
    const r = await emu.runWithKey(['predict', 'DOGE/EUR']);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^fcast: DOGE\/EUR: HTTP 404/);
    expect(r.stderr).toMatch(/hint: 'fcast symbols' lists the symbols/);
    const json = await emu.runWithKey(['predict', 'DOGE/EUR', '--json']);
    expect(json.code).toBe(4);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 404 });
  });

  it('one failing symbol does not hide the others; the exit code is the first failure in the order given', async () => {
    emu.server.setFaults([{ kind: '503', path: 'ETH%2FUSD' }]);
    const r = await emu.runWithKey(['predict', 'BTC/USD', 'ETH/USD', 'NOPE/USD', 'EUR/USD', '--retries', '0']);
    expect(r.code).toBe(6);
    const headers = r.stdout.split('\n').filter((l) => /^[A-Z]+\/USD\s/.test(l));
    expect(headers.map((l) => l.split(/\s+/)[0])).toEqual(['BTC/USD', 'EUR/USD']);
    const errors = r.stderr.split('\n').filter((l) => l.startsWith('fcast: '));
    expect(errors).toEqual([
      expect.stringMatching(/^fcast: ETH\/USD: HTTP 503/),
      expect.stringMatching(/^fcast: NOPE\/USD: HTTP 404/),
    ]);

    const reversed = await emu.runWithKey(['predict', 'NOPE/USD', 'ETH/USD', '--retries', '0']);
    expect(reversed.code).toBe(4);
  });

  it('--json with a failing symbol keeps one element per symbol: its body, its error body, or null', async () => {
    emu.server.setFaults([{ kind: 'reset', path: 'ETH%2FUSD' }]);
    const r = await emu.runWithKey([
      'predict',
      'BTC/USD',
      'NOPE/USD',
      'ETH/USD',
      'EUR/USD',
      '--json',
      '--retries',
      '0',
    ]);
    expect(r.code).toBe(4);
    const [btc, nope, eth, eur] = JSON.parse(r.stdout) as unknown[];
    expect(btc).toEqual(JSON.parse(await served('BTC/USD')));
    expect(nope).toMatchObject({ status: 404, title: expect.any(String), detail: expect.any(String) });
    expect(eth).toBeNull();
    expect(eur).toEqual(JSON.parse(await served('EUR/USD')));
    expect(r.stderr).toMatch(/^fcast: NOPE\/USD: HTTP 404/m);
    expect(r.stderr).toMatch(/^fcast: ETH\/USD: /m);
  });

  it('without a key exits 3 and sends nothing, for one symbol or several', async () => {
    for (const args of [['BTC/USD'], ['BTC/USD', 'ETH/USD', 'EUR/USD']]) {
      const r = await emu.run(['predict', ...args]);
      expect(r.code).toBe(3);
      expect(r.stdout).toBe('');
      expect(r.stderr.match(/^fcast: no API key$/gm)).toHaveLength(1);
      expect(r.stderr).toMatch(/fcast register --email/);
    }
    const malformed = await emu.run(['predict', 'BTC/USD', 'ETH/USD'], { env: { FCAST_API_KEY: 'not-a-key' } });
    expect(malformed.code).toBe(3);
    expect(malformed.stderr).toMatch(/malformed/);
    expect(emu.server.requests).toHaveLength(0);
  });

  it('a bad symbol exits 2 before anything is sent', async () => {
    const r = await emu.runWithKey(['predict', 'BTC/USD', 'BTCUSD']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/invalid symbol 'BTCUSD'/);
    expect((await emu.runWithKey(['predict'])).code).toBe(2);
    expect(emu.server.requests).toHaveLength(0);
  });

  it('a key the service does not know exits 3', async () => {
    const r = await emu.run(['predict', 'BTC/USD'], { env: { FCAST_API_KEY: `mfa_ag_${'0'.repeat(40)}` } });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/HTTP 401/);
  });

  it('--candles asks for candles and summarises them; without it none are asked for', async () => {
    await emu.runWithKey(['predict', 'BTC/USD']);
    expect(emu.server.requests[0]!.query.candles).toBeUndefined();
    const r = await emu.runWithKey(['predict', 'BTC/USD', '--candles']);
    expect(r.code).toBe(0);
    expect(emu.server.requests[1]!.query).toEqual({ symbol: 'BTC/USD', candles: '1' });
    expect(r.stdout).toMatch(/^Candles 15min: 96, 2026-11-21 11:45 UTC to 2026-11-22 11:30 UTC, last close [\d,.]+$/m);
    expect(r.stdout).toMatch(/^Candles 1h: 96, /m);
    expect(lastLines(r.stdout)).toMatch(/Tier: free/);
  });

  it.each([60, 80, 160])(
    "--chart's legend at %i columns measures the target's move from the anchor, as the table's Move does, and says so",
    async (columns) => {
      const r = await emu.runWithKey(['predict', 'BTC/USD', '--chart', '--no-color'], { tty: true, columns });
      expect(r.code, r.stderr).toBe(0);
      const body = JSON.parse(await served('BTC/USD'));
      for (const tf of ['15min', '1h']) {
        const f = body.predictions[tf];
        const pct = (((f.target_price - f.anchor_price) / f.anchor_price) * 100).toFixed(2);
        const move = `${Number(pct) >= 0 ? '+' : ''}${pct}%`;
        // The table's row and the chart's legend give the same figure for the same target.
        expect(r.stdout).toMatch(new RegExp(`^${tf} \\*.* ${move.replace('+', '\\+')}( |$)`, 'm'));
        expect(r.stdout).toMatch(
          new RegExp(
            `◆ ${tf} target [\\d,.]+ \\(${move.replace('+', '\\+')} from anchor(, [+-][\\d.]+% from last)?\\)`,
          ),
        );
      }
      if (columns === 160)
        expect(r.stdout).toMatch(/◆ 15min target [\d,.]+ \([+-][\d.]+% from anchor, [+-][\d.]+% from last\) by /);
    },
  );

  it('--chart draws the 15min and 1h closes with the last price and each target, within the width', async () => {
    const r = await emu.runWithKey(['predict', 'BTC/USD', '--chart']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(emu.server.requests[0]!.query.candles).toBe('1');
    const body = JSON.parse(await served('BTC/USD', true));
    expect(r.stdout).toMatch(/^BTC\/USD · 15min · 96 candles and the 15min forecast$/m);
    expect(r.stdout).toMatch(/^BTC\/USD · 1h · 96 candles and the 1h forecast$/m);
    const chartLines = r.stdout.split('\n').filter((l) => BRAILLE.test(l));
    expect(chartLines.length).toBeGreaterThanOrEqual(16);
    // Piped: 80 columns, whatever the terminal would be.
    for (const line of r.stdout.split('\n')) if (BRAILLE.test(line)) expect([...line].length).toBeLessThanOrEqual(80);
    expect(r.stdout).toMatch(/^● last [\d,.]+/m);
    const target = body.predictions['15min'].target_price as number;
    expect(r.stdout).toMatch(
      /◆ 15min target [\d,.]+ \([+-][\d.]+% from anchor(, [+-][\d.]+% from last)?\) by 2026-11-22 \d\d:\d\d UTC \(in \d/,
    );
    expect(r.stdout).toContain(`15min target ${target.toLocaleString('en-US', { minimumFractionDigits: 2 })}`);
    expect(r.stdout).toMatch(/◆ 1h target/);
    // The x axis: the first candle, then the last one and the target time.
    expect(r.stdout).toMatch(/^ +\d\d-\d\d \d\d:\d\d +(\d\d-\d\d )?\d\d:\d\d → (\d\d-\d\d )?\d\d:\d\d$/m);
    expect(lastLines(r.stdout)).toMatch(/Tier: free · data delayed 15 min/);
  });

  it('--chart fits the terminal at 60 columns', async () => {
    const r = await emu.runWithKey(['predict', 'BTC/USD', '--chart', '--no-color'], { tty: true, columns: 60 });
    expect(r.code).toBe(0);
    const chart = r.stdout.slice(r.stdout.indexOf('BTC/USD · 15min'), r.stdout.lastIndexOf('times UTC'));
    expect(chart.split('\n').length).toBeGreaterThan(30);
    for (const line of chart.split('\n')) expect([...line].length).toBeLessThanOrEqual(60);
  });

  it('--dry-run prints each request in order, key masked, and sends nothing', async () => {
    const r = await emu.runWithKey(['predict', 'eth/usd', 'BTC/USD', '--chart', '--dry-run']);
    expect(r.code).toBe(0);
    const requests = r.stdout.split('\n').filter((l) => l.startsWith('GET '));
    expect(requests).toEqual([
      `GET ${emu.server.url}/api/agent/v1/predictions.php?symbol=ETH%2FUSD&candles=1`,
      `GET ${emu.server.url}/api/agent/v1/predictions.php?symbol=BTC%2FUSD&candles=1`,
    ]);
    expect(r.stdout).toMatch(/authorization: Bearer mfa_ag_[0-9a-f]{4}\.\.\.[0-9a-f]{4}/);
    expect(r.stdout + r.stderr).not.toContain(emu.server.testKey);
    expect(emu.server.requests).toHaveLength(0);
  });

  it('--dry-run --json prints one JSON document: an array of the requests for several symbols', async () => {
    const r = await emu.runWithKey(['predict', 'eth/usd', 'BTC/USD', '--dry-run', '--json']);
    expect(r.code).toBe(0);
    const requests = JSON.parse(r.stdout) as Array<{ method: string; url: string; headers: Record<string, string> }>;
    expect(requests.map((q) => q.url)).toEqual([
      `${emu.server.url}/api/agent/v1/predictions.php?symbol=ETH%2FUSD`,
      `${emu.server.url}/api/agent/v1/predictions.php?symbol=BTC%2FUSD`,
    ]);
    expect(requests[0]!.headers.authorization).toMatch(/^Bearer mfa_ag_[0-9a-f]{4}\.\.\.[0-9a-f]{4}$/);
    const one = await emu.runWithKey(['predict', 'BTC/USD', '--dry-run', '--json']);
    expect(JSON.parse(one.stdout)).toMatchObject({ method: 'GET', body: null });
    expect(emu.server.requests).toHaveLength(0);
  });

  it('--verbose never logs the key', async () => {
    const r = await emu.runWithKey(['predict', 'BTC/USD', 'ETH/USD', '--verbose']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Authorization: Bearer <redacted>');
    expect(r.stdout + r.stderr).not.toContain(emu.server.testKey);
  });
});

describe('fcast predict --chart with candle shapes the seed does not fix', () => {
  async function withServedBody(body: unknown, argv: string[]) {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      return await runCli(argv, { now: FIXED_NOW, env: { FCAST_BASE_URL: url, FCAST_API_KEY: emu.server.testKey } });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  }

  it('charts only the candles of the schema: [t,o,h,l,c,v] arrays and unknown shapes are reported on stderr, not guessed at', async () => {
    const body = JSON.parse(await served('BTC/USD', true));
    const arrays = (body.candles['15min'] as Array<Record<string, number>>).map((c) => [c.t, c.o, c.h, c.l, c.c, c.v]);
    body.candles = { '15min': arrays, '1h': body.candles['1h'] };
    const r = await withServedBody(body, ['predict', 'BTC/USD', '--chart']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^fcast: BTC\/USD: the 15min candles were not charted: .*15min\.0: Expected object/m);
    expect(r.stdout).not.toMatch(/· 15min ·/);
    expect(r.stdout).toMatch(/^BTC\/USD · 1h · 96 candles/m);
    expect(r.stdout).toMatch(BRAILLE);
    expect(lastLines(r.stdout)).toMatch(/Tier: free/);

    body.candles = { '15min': { closes: 'unknown' }, '1h': body.candles['1h'] };
    const unknown = await withServedBody(body, ['predict', 'BTC/USD', '--candles']);
    expect(unknown.code).toBe(0);
    expect(unknown.stderr).toMatch(/^fcast: BTC\/USD: the 15min candles could not be read: .*15min: Expected array/m);
    expect(unknown.stdout).toMatch(/^Candles 1h: 96, /m);
  });

  it('a response without candles still prints the table, with a note', async () => {
    const body = JSON.parse(await served('BTC/USD'));
    const r = await withServedBody(body, ['predict', 'BTC/USD', '--chart']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/no candles/);
    expect(r.stdout).not.toMatch(BRAILLE);
    expect(r.stdout).toMatch(/^1h \*\s+(long|short)/m);
  });
});

describe('fcast predict interrupted', () => {
  it('Ctrl-C while several symbols wait prints one "interrupted" line and exits 130', async () => {
    // A server that accepts and never answers; the built CLI gets SIGINT once all three wait.
    const sockets: Socket[] = [];
    let child: ChildProcess | undefined;
    const server = createNetServer((socket) => {
      sockets.push(socket);
      socket.on('error', () => undefined);
      if (sockets.length === 3) child?.kill('SIGINT');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    child = spawn(
      process.execPath,
      [fileURLToPath(new URL('../../bin/fcast.js', import.meta.url)), 'predict', 'BTC/USD', 'ETH/USD', 'SOL/USD'],
      {
        env: {
          PATH: process.env.PATH ?? '',
          FCAST_CONFIG_DIR: tempDir(),
          FCAST_BASE_URL: `http://127.0.0.1:${port}`,
          FCAST_API_KEY: emu.server.testKey,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child!.on('close', resolve));
    for (const s of sockets) s.destroy();
    server.close();
    expect(code).toBe(130);
    expect(stdout).toBe('');
    expect(stderr).toBe('fcast: interrupted\n');
  });
});
