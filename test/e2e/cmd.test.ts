import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GATEWAY_COMMANDS } from '../../src/core/domain.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';

const emu = useEmulator();
const GATEWAY = '/api/v1/agent/command';
const USAGE_LINES =
  /^rate limit: limit \d+, remaining \d+, reset_s \d+\ndaily quota: limit \d+, used \d+, remaining \d+$/m;
const REQUEST_ID = /\(request id req_[0-9a-f]+\)/;

const sentBodies = () => emu.server.requests.map((r) => r.body);

/** The gateway's answer to one body, fetched directly, to compare with what fcast printed. */
async function served(body: unknown, key = emu.server.testKey): Promise<any> {
  const res = await fetch(emu.server.url + GATEWAY, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });
  return res.json();
}

describe('fcast cmd: requests', () => {
  it('sends each command with its arguments shaped: numbers as numbers, symbols without the slash', async () => {
    const cases: Array<[string[], unknown[]]> = [
      [['snapshot'], []],
      [
        ['search', 'usd', 'fx'],
        ['usd', 'fx'],
      ],
      [
        ['indicators', 'eth-usd', '15m'],
        ['ETHUSD', '15min'],
      ],
      [
        ['analyze', 'BTC/USD', '1h'],
        ['BTCUSD', '1h'],
      ],
      [['opportunities', '5'], [5]],
      [['macro'], []],
      [
        ['calendar', 'eur/usd', 'Europe/Madrid'],
        ['EURUSD', 'Europe/Madrid'],
      ],
      [
        ['events', 'earnings', 'AAPL/USD', '30'],
        ['earnings', 'AAPLUSD', 30],
      ],
      [
        ['events', 'crypto', '-', '14'],
        ['crypto', null, 14],
      ],
    ];
    for (const [argv, args] of cases) {
      emu.server.requests.splice(0);
      const r = await emu.runWithKey(['cmd', ...argv]);
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(0);
      expect(emu.server.requests).toHaveLength(1);
      const request = emu.server.requests[0]!;
      expect(request.method).toBe('POST');
      expect(request.path).toBe(GATEWAY);
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.body).toEqual({ command: argv[0], args });
    }
  });

  it('keeps global flags working after the arguments', async () => {
    const r = await emu.runWithKey(['cmd', 'analyze', 'BTC/USD', '1h', '--json', '--retries', '0']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).data.symbol).toBe('BTCUSD');
    expect(sentBodies()).toEqual([{ command: 'analyze', args: ['BTCUSD', '1h'] }]);
  });

  it('--dry-run prints the body it would send and sends nothing', async () => {
    const r = await emu.runWithKey(['cmd', 'opportunities', '3', '--dry-run', '--json']);
    expect(r.code).toBe(0);
    const shown = JSON.parse(r.stdout);
    expect(shown.method).toBe('POST');
    expect(shown.url).toBe(emu.server.url + GATEWAY);
    expect(shown.body).toEqual({ command: 'opportunities', args: [3] });
    expect(shown.headers.authorization).not.toContain(emu.server.testKey);
    expect(emu.server.requests).toHaveLength(0);
  });
});

describe('fcast cmd: checks before any request', () => {
  it('refuses a command off the allowlist with exit 2, listing the commands with their arguments', async () => {
    for (const argv of [['cmd', 'trade', 'BTC/USD'], ['cmd']]) {
      const r = await emu.runWithKey(argv);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^fcast: /);
      for (const c of GATEWAY_COMMANDS) expect(r.stderr).toContain(c.name);
      expect(r.stderr).toContain('analyze <symbol> <timeframe>');
      expect(r.stderr).toContain('events <kind> [symbol] [days]');
    }
    expect(emu.server.requests).toHaveLength(0);
  });

  it('a misspelt command with --format csv hears of the name, not that cmd gives no CSV', async () => {
    const r = await emu.runWithKey(['cmd', 'snapshott', '--format', 'csv']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^fcast: unknown gateway command 'snapshott' \(did you mean snapshot\?\)/);
    // What no gateway command gives is still refused before the name is looked at.
    const md = await emu.runWithKey(['cmd', 'snapshott', '--format', 'jsonl']);
    expect(md.code).toBe(2);
    expect(md.stderr).toMatch(/^fcast: cmd gives --format table, json, csv, tsv or markdown, not 'jsonl'/);
    expect(emu.server.requests).toHaveLength(0);
  });

  it('refuses bad arguments with exit 2 and sends nothing', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['analyze', 'BTC/USD'], /timeframe is required/],
      [['analyze', 'BTC/USD', '1h', '4h'], /at most 2 arguments/],
      [['snapshot', 'now'], /takes no arguments/],
      [['opportunities', 'ten'], /limit must be a whole number >= 1, got 'ten'/],
      [['opportunities', '0'], /limit must be a whole number >= 1/],
      [['opportunities', '2.5'], /limit must be a whole number >= 1/],
      [['events', 'all', 'BTCUSD', '1e2'], /days must be a whole number >= 1/],
      [['calendar', 'EUR/USD', 'Mars/Olympus'], /unknown time zone 'Mars\/Olympus'/],
      [['indicators', 'BTC/USD', 'hourly'], /invalid timeframe 'hourly'/],
      [['indicators', 'BTC$USD', '1h'], /invalid symbol/],
    ];
    for (const [argv, message] of cases) {
      const r = await emu.runWithKey(['cmd', ...argv]);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
    }
    expect(emu.server.requests).toHaveLength(0);
  });

  it('checks arguments before settings: a bad argument is exit 2 even with no key and no base URL', async () => {
    const r = await runCli(['cmd', 'opportunities', 'many']);
    expect(r.code).toBe(2);
  });
});

describe('fcast cmd: keys', () => {
  it('exits 3 with no key at all, and sends nothing', async () => {
    const r = await emu.run(['cmd', 'snapshot']);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/no gateway key and no API key/);
    expect(r.stderr).toMatch(/FCAST_GATEWAY_KEY/);
    expect(emu.server.requests).toHaveLength(0);
  });

  it('sends the gateway key when there is one, else falls back on the REST key', async () => {
    const gatewayKey = emu.server.limitedGatewayKey;
    const both = await emu.runWithKey(['cmd', 'snapshot'], { env: { FCAST_GATEWAY_KEY: gatewayKey } });
    expect(both.code).toBe(0);
    const fallback = await emu.runWithKey(['cmd', 'snapshot']);
    expect(fallback.code).toBe(0);
    expect(emu.server.requests.map((r) => r.headers.authorization)).toEqual([
      `Bearer ${gatewayKey}`,
      `Bearer ${emu.server.testKey}`,
    ]);
  });

  it('never sends a gateway key to the REST endpoints: predict and symbols with only FCAST_GATEWAY_KEY exit 3', async () => {
    for (const argv of [['predict', 'BTC/USD'], ['symbols']]) {
      const r = await emu.run(argv, { env: { FCAST_GATEWAY_KEY: emu.server.testKey } });
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(3);
      expect(r.stderr).toMatch(/no API key/);
    }
    expect(emu.server.requests).toHaveLength(0);
  });

  it("reads the gateway key stored as 'gateway-key' in the config file", async () => {
    const configDir = tempDir();
    writeFileSync(join(configDir, 'config.json'), JSON.stringify({ 'gateway-key': emu.server.limitedGatewayKey }));
    const r = await emu.run(['cmd', 'snapshot'], { configDir });
    expect(r.code).toBe(0);
    expect(emu.server.requests[0]!.headers.authorization).toBe(`Bearer ${emu.server.limitedGatewayKey}`);
  });
});

describe('fcast cmd: output', () => {
  it('shows analyze with bias, confidence as a percentage and drivers first, and nothing on stderr while plenty is left', async () => {
    const r = await emu.runWithKey(['cmd', 'analyze', 'BTC/USD', '1h']);
    expect(r.code).toBe(0);
    const envelope = await served({ command: 'analyze', args: ['BTCUSD', '1h'] });
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^BTC\/USD · 1h · as of \d{4}-\d\d-\d\d \d\d:\d\d UTC \((now|\d+s ago)\)$/);
    expect(lines[2]).toBe(`Bias        ${envelope.data.bias}`);
    expect(lines[3]).toBe(`Confidence  ${Math.round(envelope.data.confidence * 100)}%`);
    const f = envelope.data.forecast;
    expect(lines[4]).toBe(
      `Forecast    ${f.direction} · long ${Math.round(f.p_long * 100)}% · short ${Math.round(f.p_short * 100)}%`,
    );
    expect(lines[5]).toMatch(/^ {12}resolves \d{4}-\d\d-\d\d \d\d:\d\d UTC \(in \d+h( \d+m)?\)$/);
    expect(lines[7]).toBe('Drivers');
    expect(lines.slice(8, 8 + envelope.data.drivers.length)).toEqual(
      envelope.data.drivers.map((d: string) => `  • ${d}`),
    );
    expect(r.stdout).toMatch(/^Indicators\nIndicator\s+Value\nClose\s+\d{2,3},\d{3}\.\d\d$/m);
    // The gateway's envelope carries no meta.source: no attribution footer.
    expect(r.stdout).not.toMatch(/Source:|Tier:/);
    expect(r.stderr).toBe('');
  });

  it('counts the quota down from one call to the next', async () => {
    const first = await emu.runWithKey(['cmd', 'macro', '--verbose']);
    const second = await emu.runWithKey(['cmd', 'macro', '--verbose']);
    expect(first.stderr).toMatch(USAGE_LINES);
    const left = (s: string) => Number(/rate limit: .*remaining (\d+)/.exec(s)![1]);
    const used = (s: string) => Number(/daily quota: .*used (\d+)/.exec(s)![1]);
    expect(left(second.stderr)).toBe(left(first.stderr) - 1);
    expect(used(second.stderr)).toBe(used(first.stderr) + 1);
  });

  it('shows opportunities as a ranked table: canonical symbols, fixed decimals, confidence in percent', async () => {
    const r = await emu.runWithKey(['cmd', 'opportunities', '4']);
    expect(r.code).toBe(0);
    const envelope = await served({ command: 'opportunities', args: [4] });
    expect(r.stdout).toMatch(/^Opportunities · 4 ranked · generated \d{4}-\d\d-\d\d \d\d:00 UTC \(/);
    expect(r.stdout).toMatch(/^#\s+Symbol\s+TF\s+Direction\s+Score\s+Confidence$/m);
    const rows = r.stdout.split('\n').filter((l) => /^\d+\s+[A-Z]+\/[A-Z]+\s/.test(l));
    expect(rows.map((l) => l.trim().split(/\s+/))).toEqual(
      envelope.data.items.map((i: any) => [
        String(i.rank),
        i.symbol.replace(/USD$/, '/USD'),
        i.timeframe,
        i.direction,
        i.score.toFixed(1),
        `${Math.round(i.confidence * 100)}%`,
      ]),
    );
    expect(r.stdout).not.toMatch(/\x1b\[/);
    const tty = await emu.runWithKey(['cmd', 'opportunities', '4'], { tty: true });
    expect(tty.stdout).toMatch(/\x1b\[3[12]m(long|short)/);
  });

  it('shows calendar sessions and times in the zone the user named', async () => {
    const r = await emu.runWithKey(['cmd', 'calendar', 'AAPL/USD', 'Europe/Madrid']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('AAPL/USD · stock · times in Europe/Madrid');
    expect(r.stdout).toMatch(/^Now {9}\d{4}-\d\d-\d\d \d\d:\d\d Europe\/Madrid$/m);
    expect(r.stdout).toMatch(/^Next open {3}\d{4}-\d\d-\d\d 1[45]:30 Europe\/Madrid \(in /m);
    // New York's 09:30-16:00 is 15:30-22:00 in Madrid, except in the weeks the two change clocks apart.
    expect(r.stdout).toMatch(/^regular\s+Mon-Fri\s+1[45]:30\s+2[12]:00\s+09:30–16:00 America\/New_York$/m);
    expect(r.stdout).not.toMatch(/T\d\d:\d\d|AAPLUSD/);
    const utc = await emu.runWithKey(['cmd', 'calendar', 'AAPL/USD']);
    expect(utc.stdout).toMatch(/^Next open {3}\d{4}-\d\d-\d\d 1[34]:30 UTC \(in /m);
  });

  it('renders every command readably: UTC times, canonical symbols, separators', async () => {
    const cases: string[][] = [
      ['snapshot'],
      ['search', 'bitcoin'],
      ['indicators', 'BTC/USD', '4h'],
      ['macro'],
      ['calendar', 'AAPL/USD', 'America/New_York'],
      ['events', 'all', '-', '30'],
    ];
    for (const argv of cases) {
      const r = await emu.runWithKey(['cmd', ...argv]);
      expect(r.code, argv.join(' ')).toBe(0);
      expect(r.stdout).not.toMatch(/\[object Object\]|undefined|NaN|\d{4}-\d\d-\d\dT\d\d/);
      expect(r.stdout).not.toMatch(/\b(BTC|ETH|EUR|GBP|AAPL|SPX|SOL|XAU)USD\b/);
      expect(r.stdout.trim()).not.toBe('');
      expect(r.stderr).toBe('');
    }
    const snapshot = await emu.runWithKey(['cmd', 'snapshot']);
    expect(snapshot.stdout).toMatch(/^Market snapshot · 8 symbols · as of \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    expect(snapshot.stdout).toMatch(/^BTC\/USD\s+Bitcoin\s+crypto\s+open\s+\d{2,3},\d{3}\.\d\d\s+[+-]\d+\.\d\d%$/m);
    const events = await emu.runWithKey(['cmd', 'events', 'all', '-', '30']);
    expect(events.stdout).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC\s+\S.*\s(low|medium|high)\s+in \d/m);
  });

  it('keeps every gateway view within 80 and 60 columns on a terminal', async () => {
    const commands: string[][] = [
      ['snapshot'],
      ['search', 'usd'],
      ['indicators', 'EUR/USD', '1h'],
      ['analyze', 'BTC/USD', '4h'],
      ['opportunities', '12'],
      ['macro'],
      ['calendar', 'AAPL/USD', 'Asia/Tokyo'],
      ['events', 'all', '-', '30'],
    ];
    for (const columns of [80, 60]) {
      for (const argv of commands) {
        const r = await emu.runWithKey(['cmd', ...argv, '--no-color'], { tty: true, columns });
        expect(r.code, argv.join(' ')).toBe(0);
        const widest = Math.max(...`${r.stdout}${r.stderr}`.split('\n').map((l) => [...l].length));
        expect(widest, `${argv.join(' ')} at ${columns}:\n${r.stdout}`).toBeLessThanOrEqual(columns);
      }
    }
  });

  it('--json prints the envelope exactly as served, and the quota on stderr with --verbose', async () => {
    const r = await emu.runWithKey(['cmd', 'opportunities', '3', '--json', '--verbose']);
    expect(r.code).toBe(0);
    const printed = JSON.parse(r.stdout);
    expect(r.stdout).toBe(`${JSON.stringify(printed, null, 2)}\n`);
    const direct = await served({ command: 'opportunities', args: [3] });
    expect(Object.keys(printed)).toEqual(['ok', 'data', 'error', 'meta']);
    expect(printed.data).toEqual(direct.data);
    expect(Object.keys(printed.meta)).toEqual(Object.keys(direct.meta));
    expect(r.stderr).toMatch(USAGE_LINES);
  });
});

describe('fcast cmd: failures', () => {
  it('403 scope_required: exit 3, naming the scope the command needs and the request id', async () => {
    const r = await emu.run(['cmd', 'analyze', 'BTC/USD', '1h'], {
      env: { FCAST_GATEWAY_KEY: emu.server.limitedGatewayKey },
    });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^fcast: HTTP 403 scope_required: /);
    expect(r.stderr).toMatch(REQUEST_ID);
    expect(r.stderr).toMatch(/hint: 'analyze' needs a key with the scope predictions\.read/);
    expect(r.stderr).toContain('FCAST_GATEWAY_KEY');
    expect(emu.server.requests).toHaveLength(1);
    // macro needs macro.read, which the limited key lacks too: the hint follows the command.
    const macro = await emu.run(['cmd', 'macro'], { env: { FCAST_GATEWAY_KEY: emu.server.limitedGatewayKey } });
    expect(macro.code).toBe(3);
    expect(macro.stderr).toContain('macro.read');
  });

  it('403 with --json: the failure envelope on stdout, the error on stderr', async () => {
    const r = await emu.run(['cmd', 'analyze', 'BTC/USD', '1h', '--json'], {
      env: { FCAST_GATEWAY_KEY: emu.server.limitedGatewayKey },
    });
    expect(r.code).toBe(3);
    const envelope = JSON.parse(r.stdout);
    expect(envelope).toMatchObject({ ok: false, data: null, error: { code: 'scope_required' } });
    expect(r.stderr).toContain(`request id ${envelope.meta.request_id}`);
  });

  it('401: exit 3, the request id, and which key was refused', async () => {
    const r = await emu.run(['cmd', 'snapshot'], { env: { FCAST_GATEWAY_KEY: 'revoked-gateway-key-0000' } });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^fcast: HTTP 401 unauthorized: /);
    expect(r.stderr).toMatch(REQUEST_ID);
    expect(r.stderr).toMatch(/the gateway key from FCAST_GATEWAY_KEY/);
    expect(r.stderr).not.toContain('revoked-gateway-key-0000');
  });

  it('400 from the gateway (a symbol it does not know): exit 2 with the request id', async () => {
    const r = await emu.runWithKey(['cmd', 'analyze', 'XYZ/USD', '1h']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^fcast: HTTP 400 invalid_args: .*XYZUSD/);
    expect(r.stderr).toMatch(REQUEST_ID);
    expect(r.stderr).toContain('fcast cmd analyze --help');
    expect(sentBodies()).toEqual([{ command: 'analyze', args: ['XYZUSD', '1h'] }]);
  });

  it("429: waits the envelope's retry_after, announcing it, then succeeds", async () => {
    emu.server.setFaults([{ kind: '429', times: 1, retryAfter: 3, path: GATEWAY }]);
    const r = await emu.runWithKey(['cmd', 'macro']);
    expect(r.code).toBe(0);
    expect(r.sleeps).toEqual([3000]);
    expect(r.stderr).toMatch(/HTTP 429 rate_limited; retrying in 3s \(retry 1 of 2\)/);
    expect(emu.server.requests).toHaveLength(2);
  });

  it('429 on every try: exit 5 after --retries, each wait announced, the request id shown', async () => {
    emu.server.setFaults([{ kind: '429', retryAfter: 2, path: GATEWAY }]);
    const r = await emu.runWithKey(['cmd', 'macro', '--retries', '3']);
    expect(r.code).toBe(5);
    expect(r.sleeps).toEqual([2000, 2000, 2000]);
    expect(r.stderr.match(/retrying in 2s/g)).toHaveLength(3);
    expect(r.stderr).toMatch(/fcast: HTTP 429 rate_limited: .*\(request id req_[0-9a-f]+\)/);
    expect(emu.server.requests).toHaveLength(4);
  });

  it('429 asking for a wait beyond --max-wait: exit 5 at once, giving the wait', async () => {
    emu.server.setFaults([{ kind: '429', retryAfter: 90, path: GATEWAY }]);
    const r = await emu.runWithKey(['cmd', 'macro', '--max-wait', '30']);
    expect(r.code).toBe(5);
    expect(r.sleeps).toEqual([]);
    expect(r.stderr).toMatch(/90s/);
    expect(r.stderr).toMatch(REQUEST_ID);
    expect(emu.server.requests).toHaveLength(1);
  });

  it('503: retried, then exit 6 with the request id', async () => {
    emu.server.setFaults([{ kind: '503', retryAfter: 1, path: GATEWAY }]);
    const r = await emu.runWithKey(['cmd', 'snapshot']);
    expect(r.code).toBe(6);
    expect(r.sleeps).toEqual([1000, 1000]);
    expect(r.stderr).toMatch(/^fcast: HTTP 503 unavailable: .*\(request id req_[0-9a-f]+\)$/m);
    expect(emu.server.requests).toHaveLength(3);
  });
});

describe('fcast cmd opportunities', () => {
  it('needs no limit: 10 is sent when none is typed', async () => {
    const r = await emu.runWithKey(['cmd', 'opportunities']);
    expect(r.code).toBe(0);
    expect(emu.server.requests.map((q) => q.body)).toEqual([{ command: 'opportunities', args: [10] }]);
    expect(r.stdout).toMatch(/^Opportunities · 10 ranked/);
  });
});

describe('fcast cmd: help', () => {
  it('fcast cmd --help lists every command with its arguments and scope, on stdout', async () => {
    const r = await runCli(['cmd', '--help']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    // Help wraps to the terminal's width: compare with the whitespace collapsed.
    const flat = r.stdout.replace(/\s+/g, ' ');
    for (const c of GATEWAY_COMMANDS) {
      const term = [c.name, ...c.args.map((a) => (a.required && !a.default ? `<${a.name}>` : `[${a.name}]`))].join(' ');
      expect(flat).toContain(` ${term} ${c.summary} (scope ${c.scope}) `);
    }
    expect(r.stdout).toContain('Examples:');
  });

  it('fcast cmd COMMAND --help shows its arguments, scope and an example, and sends nothing', async () => {
    const r = await emu.runWithKey(['cmd', 'calendar', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: fcast cmd calendar \[options\] <symbol> \[user_tz\]$/m);
    expect(r.stdout).toMatch(/^Scope: market\.read\.$/m);
    expect(r.stdout).toMatch(/^ {2}symbol\s+a symbol: BTC\/USD/m);
    expect(r.stdout).toMatch(/^ {2}user_tz\s+optional; an IANA time zone name/m);
    expect(r.stdout).toContain('$ fcast cmd calendar EUR/USD Europe/Madrid');
    expect(emu.server.requests).toHaveLength(0);
  });
});

// A server that is not the emulator: other field names in meta, an odd layout of the JSON, and
// misbehaviour the emulator does not offer, so nothing here leans on the emulator's choices.
describe('fcast cmd against an independent server', () => {
  let reply: { status: number; raw: string } = { status: 200, raw: '{}' };
  const bodies: unknown[] = [];
  let url = '';
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      bodies.push(JSON.parse(text));
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(reply.raw);
    });
  });
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  beforeEach(() => {
    bodies.length = 0;
  });
  const run = (argv: string[]) =>
    runCli(['cmd', ...argv], { env: { FCAST_BASE_URL: url, FCAST_GATEWAY_KEY: 'gw_live_0123456789abcdef' } });

  const RAW_SUCCESS =
    '{"meta":{"request_id":"abc-123","rate_limit":{"max":100,"left":7,"reset_in":90},"daily_quota":{"quota":500,"consumed":5}},' +
    '"ok":true,"error":null,"data":{"bias":"bearish","confidence":0.4,"drivers":["volume fading"],"extra":{"n":1e2,"tiny":1.50}}}';

  it('--json prints the body as served: order, numbers as written, nothing added', async () => {
    reply = { status: 200, raw: RAW_SUCCESS };
    const r = await run(['analyze', 'btc-usd', '4h', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(RAW_SUCCESS));
    expect(r.stdout).toMatch(/^\{\n {2}"meta": \{/);
    expect(r.stdout).toContain('"n": 1e2');
    expect(r.stdout).toContain('"tiny": 1.50');
    // Counters in names the seed does not give cannot be judged low: told with --verbose only.
    expect(r.stderr).toBe('');
    expect(bodies).toEqual([{ command: 'analyze', args: ['BTCUSD', '4h'] }]);
  });

  it('renders data with fewer fields, the others after it, and the quota lines with the names sent', async () => {
    reply = { status: 200, raw: RAW_SUCCESS };
    const r = await run(['analyze', 'BTCUSD', '4h', '--verbose']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Analysis\n\nBias {8}bearish\nConfidence {2}40%\n\nDrivers\n {2}• volume fading\n/);
    expect(r.stdout).toMatch(/extra\n\s+n\s+100/);
    expect(r.stderr).toContain('rate limit: max 100, left 7, reset_in 90');
  });

  it('tells a counter that is running out (a tenth of its limit or 5 left), and only that one', async () => {
    const meta = (rate: number, used: number) =>
      `{"meta":{"request_id":"r1","rate_limit":{"limit":60,"remaining":${rate},"reset_s":20},` +
      `"daily_quota":{"limit":1000,"used":${used},"remaining":${1000 - used}}},` +
      '"ok":true,"error":null,"data":{"bias":"bearish","confidence":0.4,"drivers":[]}}';
    reply = { status: 200, raw: meta(6, 10) };
    expect((await run(['analyze', 'BTCUSD', '4h'])).stderr).toBe('rate limit: limit 60, remaining 6, reset_s 20\n');
    reply = { status: 200, raw: meta(7, 995) };
    expect((await run(['analyze', 'BTCUSD', '4h'])).stderr).toBe('daily quota: limit 1000, used 995, remaining 5\n');
    reply = { status: 200, raw: meta(7, 10) };
    expect((await run(['analyze', 'BTCUSD', '4h'])).stderr).toBe('');
  });

  it('renders data in a shape no view reads with the generic renderer', async () => {
    reply = {
      status: 200,
      raw: '{"ok":true,"error":null,"meta":{"request_id":"x"},"data":{"items":"none today","note":"feed paused"}}',
    };
    const r = await run(['opportunities', '3']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('items  none today\nnote   feed paused\n');
    expect(r.stderr).toBe('');
  });

  it('a failure envelope with an unknown code still maps by status and shows the request id', async () => {
    reply = {
      status: 403,
      raw: '{"ok":false,"data":null,"error":{"code":"plan_insufficient","message":"upgrade","retry_after":0},"meta":{"request_id":"abc-403"}}',
    };
    const r = await run(['opportunities', '2']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('(request id abc-403)');
    expect(r.stderr).toContain('predictions.read');
    expect(bodies).toEqual([{ command: 'opportunities', args: [2] }]);
  });

  it('ok: false under HTTP 200 is a failure, not data: exit 7, the envelope still printed with --json', async () => {
    const raw =
      '{"ok":false,"data":null,"error":{"code":"internal","message":"oops","retry_after":0},"meta":{"request_id":"abc-200"}}';
    reply = { status: 200, raw };
    const r = await run(['macro', '--json']);
    expect(r.code).toBe(7);
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(raw));
    expect(r.stderr).toMatch(/ok: false: internal: oops \(request id abc-200\)/);
  });
});
