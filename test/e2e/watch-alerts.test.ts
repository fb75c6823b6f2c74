// --watch --alert: in-process against the emulator, whose clock is linked to the watch's and runs
// 60 times as fast, so that each refresh (a minute apart, slept at once) sees an hour's change.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/core/context.js';
import { PassThrough } from 'node:stream';
import { expectExit, fakeClock, steppedClock, tempDir } from '../helpers/cli.js';
import { FIXED_NOW, useEmulator } from '../helpers/emulator.js';
import { VirtualTerminal } from '../helpers/terminal.js';

const EMULATED = Date.UTC(2026, 0, 5, 9, 0);
// The watch's clock of the running test: the emulator's wall clock.
let wall: () => number = () => FIXED_NOW;
const emu = useEmulator({ now: () => wall(), clock: { start: EMULATED, speed: 60 } });

/**
 * The watch's clock: its sleeps return at once and move the emulator's wall clock with them
 * (so the emulator's data moves on 60 times as fast); `onSleep` runs after each (a fault set
 * for the next refresh). Each run starts from the same instant: the same data every time.
 */
function linkedClock(onSleep?: (n: number) => void): Clock & { sleeps: number[] } {
  const clock = fakeClock(FIXED_NOW);
  wall = clock.now;
  emu.server.clock.set({ start: EMULATED, speed: 60 });
  return {
    ...clock,
    sleep: async (ms, signal) => {
      await clock.sleep(ms, signal);
      onSleep?.(clock.sleeps.length);
    },
  };
}

const lines = (text: string) => text.split('\n').filter((l) => l !== '');
const parsed = (text: string) => lines(text).map((l) => JSON.parse(l) as Record<string, unknown>);
const alertsIn = (text: string) => parsed(text).flatMap((l) => (l.alert ? [l.alert as Record<string, unknown>] : []));
const STAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ fcast: /;

/** The 1h p_long of each refresh of `count`, as the emulator gives them under the linked clock. */
async function series(count: number): Promise<number[]> {
  const r = await emu.run(['demo', '--watch', '--json', '--count', String(count)], { clock: linkedClock() });
  expectExit(r, 0);
  return parsed(r.stdout).map((b) => (b.predictions as Record<string, { ia3: { p_long: number } }>)['1h']!.ia3.p_long);
}

describe('--alert: once per crossing', () => {
  it('already true at the first refresh: fires once, marked, and --exit-on-alert ends the run with 0', async () => {
    const r = await emu.run(['demo', '--watch', '--json', '--alert', 'price > 1', '--exit-on-alert'], {
      clock: linkedClock(),
    });
    expectExit(r, 0);
    const out = parsed(r.stdout);
    expect(out).toHaveLength(2);
    expect(out[0]!.symbol).toBe('BTC/USD');
    expect(out[1]).toEqual({
      alert: {
        symbol: 'BTC/USD',
        tf: null,
        field: 'price',
        op: '>',
        value: (out[0]!.price as { last: number }).last,
        threshold: 1,
        already: true,
        rule: 'price > 1',
        text: `BTC/USD price ${(out[0]!.price as { last: number }).last} > 1 (already true)`,
        t: '2026-11-22T12:00:00Z',
      },
    });
    // One refresh, no sleep: the alert ended it. And it sent nothing of its own.
    expect(r.sleeps).toEqual([]);
    expect(emu.server.requests).toHaveLength(1);
    expect(r.stderr).toBe('');
  });

  it('true at every refresh: fires at the first only; alerts add no request', async () => {
    const r = await emu.run(['demo', '--watch', '--json', '--count', '4', '--alert', 'price > 1'], {
      clock: linkedClock(),
    });
    expectExit(r, 0);
    expect(alertsIn(r.stdout)).toHaveLength(1);
    expect(parsed(r.stdout)).toHaveLength(5);
    expect(emu.server.requests).toHaveLength(4);
  });

  it('a condition that never holds stays silent; --exit-on-alert still ends at --count', async () => {
    const r = await emu.run(
      ['demo', '--watch', '--count', '3', '--alert', 'price < 1', '--alert', '1h.p_long > 1', '--exit-on-alert'],
      { clock: linkedClock() },
    );
    expectExit(r, 0);
    expect(r.stderr).toBe('');
    expect(r.stdout).not.toMatch(/alert/i);
    expect(r.sleeps).toHaveLength(2);
  });

  it('a field that crosses twice fires twice: at each rise, never while it stays above', async () => {
    const values = await series(12);
    // A threshold the series rises through at least twice (the emulator's data, read first).
    const rises = (t: number) => values.flatMap((v, i) => (v >= t && (i === 0 || values[i - 1]! < t) ? [i] : []));
    const threshold = [...new Set(values)]
      .sort((a, b) => a - b)
      .find((t) => rises(t).length >= 2 && values.some((v) => v >= t) && values[0]! < t);
    expect(threshold, `no threshold crosses twice in ${values.join(', ')}`).toBeDefined();
    const r = await emu.run(['demo', '--watch', '--json', '--count', '12', '--alert', `1h.p_long >= ${threshold}`], {
      clock: linkedClock(),
    });
    expectExit(r, 0);
    // Which refresh each alert follows: the bodies before it.
    const at: number[] = [];
    let bodies = 0;
    for (const line of parsed(r.stdout)) {
      if (line.alert) at.push(bodies - 1);
      else bodies++;
    }
    expect(at).toEqual(rises(threshold!));
    expect(at.length).toBeGreaterThanOrEqual(2);
    for (const a of alertsIn(r.stdout)) {
      expect(a).toMatchObject({ symbol: 'BTC/USD', tf: '1h', field: 'p_long', op: '>=', already: false });
      expect(a.value as number).toBeGreaterThanOrEqual(threshold!);
    }
  });

  it('piped without --json: a stamped line on stderr; the stdout tables as without --alert', async () => {
    const plain = await emu.run(['demo', '--watch', '--count', '2'], { clock: linkedClock() });
    const r = await emu.run(['demo', '--watch', '--count', '2', '--alert', 'BTC/USD:price > 1'], {
      clock: linkedClock(),
    });
    expectExit(r, 0);
    expect(r.stdout).toBe(plain.stdout);
    const err = lines(r.stderr);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(STAMP);
    expect(err[0]).toMatch(/fcast: alert: BTC\/USD price [\d.]+ > 1 \(already true\)$/);
  });

  it('an outage fires nothing, and a condition that held across it does not fire again', async () => {
    // The second refresh fails (503); the first and third hold.
    const r = await emu.run(['demo', '--watch', '--json', '--count', '3', '--alert', 'price > 1'], {
      clock: linkedClock((n) => {
        if (n === 1) emu.server.setFaults([{ kind: '503', times: 1, retryAfter: 0 }]);
      }),
    });
    expectExit(r, 0);
    const out = parsed(r.stdout);
    expect(out.map((l) => (l.alert ? 'alert' : l.status === 503 ? '503' : 'body'))).toEqual([
      'body',
      'alert',
      '503',
      'body',
    ]);
  });

  it('a first refresh that fails fires nothing; the next one that holds fires', async () => {
    emu.server.setFaults([{ kind: '503', times: 1, retryAfter: 0 }]);
    const r = await emu.run(['demo', '--watch', '--json', '--count', '2', '--alert', 'price > 1'], {
      clock: linkedClock(),
    });
    expectExit(r, 0);
    expect(parsed(r.stdout).map((l) => (l.alert ? 'alert' : l.status === 503 ? '503' : 'body'))).toEqual([
      '503',
      'body',
      'alert',
    ]);
  });

  it('a refresh stale for one symbol fires nothing for any; the next whole one does', async () => {
    emu.server.setFaults([{ kind: '503', times: 1, retryAfter: 0, path: 'ETH' }]);
    const r = await emu.runWithKey(
      ['predict', 'BTC/USD', 'ETH/USD', '--watch', '--json', '--count', '2', '--alert', 'BTC/USD:price > 1'],
      { clock: linkedClock() },
    );
    expectExit(r, 0);
    expect(parsed(r.stdout).map((l) => (l.alert ? 'alert' : l.status === 503 ? '503' : l.symbol))).toEqual([
      'BTC/USD',
      '503',
      'BTC/USD',
      'ETH/USD',
      'alert',
    ]);
  });

  it('several symbols: each on its own, in the order given', async () => {
    const r = await emu.runWithKey(
      ['predict', 'BTC/USD', 'ETH/USD', '--watch', '--json', '--count', '1', '--alert', 'price > 1'],
      { clock: linkedClock() },
    );
    expectExit(r, 0);
    expect(alertsIn(r.stdout).map((a) => a.symbol)).toEqual(['BTC/USD', 'ETH/USD']);
  });
});

describe('--alert: checked before any request', () => {
  it.each([
    [['--alert', 'price = 5'], /invalid --alert 'price = 5': unknown operator '=': the operators are > >= < <=/],
    [['--alert', '1h.p_lng > 0.5'], /unknown field 'p_lng' \(did you mean p_long\?\)/],
    [['--alert', 'ETH/USD:price > 1'], /names ETH\/USD, which is not watched \(BTC\/USD\)/],
    [['--on-alert', 'true'], /--on-alert works with --alert/],
    [['--exit-on-alert'], /--exit-on-alert works with --alert/],
  ])('%j is exit 2', async (flags, message) => {
    const r = await emu.run(['demo', '--watch', ...flags]);
    expectExit(r, 2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toMatch(/hint: .*see 'fcast help alerts'/);
    expect(emu.server.requests).toHaveLength(0);
  });

  it('--alert without --watch is exit 2', async () => {
    const r = await emu.run(['demo', '--alert', 'price > 1']);
    expectExit(r, 2);
    expect(r.stderr).toMatch(/^fcast: --alert works with --watch/);
    expect(emu.server.requests).toHaveLength(0);
  });

  it("'fcast help alerts' shows the grammar with examples", async () => {
    const r = await emu.run(['help', 'alerts']);
    expectExit(r, 0);
    expect(r.stdout).toContain('[SYMBOL:][TF.][ENGINE.]FIELD OP VALUE');
    expect(r.stdout).toContain("'1h.direction changes'");
    expect(r.stdout).toContain('FCAST_ALERT_SYMBOL');
  });
});

describe('--on-alert', () => {
  const FORMAT = '%s|%s|%s|%s|%s|%s|%s\\n';
  const PRINT = `printf '${FORMAT}' "$FCAST_ALERT_SYMBOL" "$FCAST_ALERT_TF" "$FCAST_ALERT_FIELD" "$FCAST_ALERT_VALUE" "$FCAST_ALERT_THRESHOLD" "$FCAST_ALERT_TEXT" "\${FCAST_API_KEY-no key}" >> "$OUT"`;

  it('runs the command by the shell with the alert in FCAST_ALERT_* variables, the key left out', async () => {
    const dir = tempDir();
    const out = join(dir, 'alerts.txt');
    const r = await emu.runWithKey(
      ['predict', 'BTC/USD', '--watch', '--count', '1', '--alert', '1h.p_long >= 0', '--on-alert', PRINT],
      { clock: linkedClock(), env: { OUT: out } },
    );
    expectExit(r, 0);
    const [symbol, tf, field, value, threshold, text, key] = readFileSync(out, 'utf8').trim().split('|');
    expect({ symbol, tf, field, threshold, key }).toEqual({
      symbol: 'BTC/USD',
      tf: '1h',
      field: 'p_long',
      threshold: '0',
      key: 'no key',
    });
    expect(Number(value)).toBeGreaterThanOrEqual(0);
    expect(text).toBe(`BTC/USD 1h p_long ${value} >= 0 (already true)`);
    // Its output never reaches stdout; the stream of tables is as without it.
    expect(r.stdout).not.toContain('BTC/USD|');
  });

  it('a command that fails is a warning; the watch goes on and exits as it would', async () => {
    const r = await emu.run(
      ['demo', '--watch', '--count', '2', '--alert', 'price > 1', '--on-alert', 'echo oops >&2; exit 3'],
      { clock: linkedClock() },
    );
    expectExit(r, 0);
    expect(r.stderr).toContain('oops');
    expect(r.stderr).toMatch(/fcast: warning: --on-alert exited 3 \(alert: BTC\/USD price/);
  });

  it('a server whose timeframe and symbol names hold shell syntax runs nothing; they arrive as text, cleaned', async () => {
    const dir = tempDir();
    const out = join(dir, 'tfs.txt');
    const base = JSON.parse(await (await fetch(`${emu.server.url}/api/agent/v1/demo.php`)).text());
    const forecast = Object.values(base.predictions)[0] as Record<string, unknown>;
    // $D names the directory, so the names stay short (a timeframe is shown to 80 characters)
    // wherever TMPDIR is; a shell that ran them would create the files there.
    const hostile = ['$(touch "$D"/a)', '`touch "$D"/b`', '1h; touch "$D"/c', `'"; touch "$D"/d; echo "\x1b[31m`];
    const body = {
      ...base,
      symbol: 'BTC/USD$(touch "$D"/e)',
      predictions: Object.fromEntries(hostile.map((tf) => [tf, { ...forecast, tf }])),
    };
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const r = await emu.run(
        [
          'demo',
          '--watch',
          '--json',
          '--count',
          '1',
          '--alert',
          'p_long >= 0',
          '--on-alert',
          `printf '%s\\n' "$FCAST_ALERT_TF" >> "$OUT"`,
        ],
        { clock: linkedClock(), env: { FCAST_BASE_URL: url, OUT: out, D: dir } },
      );
      expectExit(r, 0);
      expect(readdirSync(dir)).toEqual(['tfs.txt']);
      const got = readFileSync(out, 'utf8').trim().split('\n').sort();
      expect(got).toEqual(hostile.map((tf) => tf.replace('\x1b[31m', '')).sort());
      expect(alertsIn(r.stdout).map((a) => a.symbol)).toEqual(Array(4).fill('BTC/USD'));
      expect(r.stdout).not.toContain('\x1b');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(existsSync(join(dir, 'a'))).toBe(false);
  });

  it('a server flipping many alerts at once gets a few commands and one warning, not thousands', async () => {
    const dir = tempDir();
    const out = join(dir, 'runs.txt');
    const base = JSON.parse(await (await fetch(`${emu.server.url}/api/agent/v1/demo.php`)).text());
    const forecast = Object.values(base.predictions)[0] as Record<string, unknown>;
    let served = 0;
    const server = createServer((_req, res) => {
      // 60 timeframes whose direction flips at every refresh.
      const direction = served++ % 2 === 0 ? 'long' : 'short';
      const predictions = Object.fromEntries(
        Array.from({ length: 60 }, (_, i) => [
          `${i + 1}min`,
          { ...forecast, tf: `${i + 1}min`, ia3: { ...(forecast.ia3 as object), direction } },
        ]),
      );
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...base, predictions }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const r = await emu.run(
        [
          'demo',
          '--watch',
          '--json',
          '--count',
          '4',
          '--interval',
          '5',
          '--alert',
          'direction changes',
          '--on-alert',
          `echo x >> "$OUT"`,
        ],
        { clock: linkedClock(), env: { FCAST_BASE_URL: url, OUT: out } },
      );
      expectExit(r, 0);
      // Three refreshes of 60 changes each: every one in the stream, cut to 20 a refresh.
      expect(alertsIn(r.stdout)).toHaveLength(60);
      expect(lines(r.stderr).filter((l) => /alert: and 40 more at this refresh/.test(l))).toHaveLength(3);
      // At most 10 commands in the minute the four refreshes take (fewer: at most 4 at once).
      const runs = lines(readFileSync(out, 'utf8')).length;
      expect(runs).toBeGreaterThan(0);
      expect(runs).toBeLessThanOrEqual(10);
      expect(lines(r.stderr).filter((l) => /warning: --on-alert not run/.test(l))).toHaveLength(1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('--alert on the board (a terminal)', () => {
  /** A board on a terminal of 100x40, with a clock the test moves (steppedClock), linked to the emulator's. */
  function board(argv: string[]) {
    const clock = steppedClock(FIXED_NOW);
    wall = clock.now;
    emu.server.clock.set({ start: EMULATED, speed: 60 });
    const keys = Object.assign(new PassThrough(), { setRawMode: () => undefined });
    let stdout: { text: string } = { text: '' };
    const done = emu.run(argv, {
      tty: true,
      terminal: { columns: 100, rows: 40 },
      clock,
      stdin: keys,
      onStart: (s) => {
        stdout = s.stdout;
      },
    });
    const screen = () => {
      const vt = new VirtualTerminal(100, 40);
      vt.feed(stdout.text);
      return vt.text();
    };
    const until = async (what: string, ok: (s: string) => boolean) => {
      for (let i = 0; i < 500; i++) {
        if (ok(screen())) return screen();
        await new Promise((resolve) => setTimeout(resolve, 4));
      }
      throw new Error(`timed out waiting for ${what}; the screen:\n${screen()}`);
    };
    return { clock, keys, done, until, stdout: () => stdout.text };
  }

  it('the bell, the alert at the top of the board and listed under it with its time; told again once the board ends', async () => {
    const b = board(['demo', '--watch', '--count', '2', '--alert', 'price > 1', '--alert', 'price < 1']);
    const frame = await b.until('the alert', (s) => /Alerts:/.test(s) && /q quit/.test(s));
    expect(frame).toMatch(/^ ALERT {2}BTC\/USD price [\d.]+ > 1 \(already true\)/m);
    expect(frame).toMatch(/^Alerts:\n12:00:00 BTC\/USD price [\d.]+ > 1 \(already true\)$/m);
    expect(b.stdout()).toContain('\x07');
    // The next refresh: the alert no longer new (no banner), still listed; no second bell.
    await b.clock.advance(60_000);
    const r = await b.done;
    expectExit(r, 0);
    expect(r.stdout.split('\x07')).toHaveLength(2);
    // The board gone, the alert stays said on the shell's screen.
    expect(r.stderr).toMatch(/^fcast: alert: 12:00:00 BTC\/USD price [\d.]+ > 1 \(already true\)$/m);
    expect(emu.server.requests).toHaveLength(2);
  });

  it("--on-alert's output never reaches the board; its failure is a notice on the status line", async () => {
    const b = board([
      'demo',
      '--watch',
      '--count',
      '2',
      '--alert',
      'price > 1',
      '--on-alert',
      'echo LEAK; echo LEAK >&2; exit 4',
    ]);
    const frame = await b.until('the warning', (s) => /warning: --on-alert exited 4/.test(s));
    expect(frame).toMatch(/Alerts:/);
    await b.clock.advance(60_000);
    const r = await b.done;
    expectExit(r, 0);
    expect(r.stdout).not.toContain('LEAK');
    expect(r.stderr).not.toContain('LEAK');
  });

  it('--exit-on-alert: the board ends at the first alert, exit 0, the last board left on the screen', async () => {
    const b = board(['demo', '--watch', '--alert', 'price > 1', '--exit-on-alert']);
    const r = await b.done;
    expectExit(r, 0);
    expect(emu.server.requests).toHaveLength(1);
    expect(r.stdout).toContain('\x1b[?1049l');
    expect(r.stdout.slice(r.stdout.lastIndexOf('\x1b[?1049l'))).toMatch(/BTC\/USD/);
    expect(r.stderr).toMatch(/fcast: alert: 12:00:00 BTC\/USD price/);
  });
});

describe('--alert with --record: noted in the journal beside the forecast', () => {
  it('journal list --alerts shows each alert that fired; the readers of forecasts (list, report, export) skip them, and see nothing damaged', async () => {
    const data = tempDir();
    const env = { FCAST_DATA_DIR: data };
    const r = await emu.run(
      ['demo', '--watch', '--json', '--count', '2', '--record', '--alert', 'price > 1', '--alert', '1h.p_long >= 0'],
      { clock: linkedClock(), env },
    );
    expectExit(r, 0);
    expect(r.stderr).toBe('');
    const { readdirSync: files } = await import('node:fs');
    const dir = join(data, 'journal');
    const month = files(dir).find((f) => f.endsWith('.jsonl'))!;
    const journal = lines(readFileSync(join(dir, month), 'utf8')).map((l) => JSON.parse(l));
    const alerts = journal.filter((l) => l.kind === 'alert');
    expect(alerts.map((a) => [a.symbol, a.tf, a.rule, a.already])).toEqual([
      ['BTC/USD', null, 'price > 1', true],
      ['BTC/USD', '1h', '1h.p_long >= 0', true],
    ]);
    // Beside the forecast it fired on: after it, naming its ts.
    const forecast = journal.findIndex((l) => l.kind === 'forecast' && l.tf === '1h' && l.ts === alerts[1].ts);
    expect(forecast).toBeGreaterThanOrEqual(0);
    expect(journal.indexOf(alerts[1])).toBeGreaterThan(forecast);

    const listed = await emu.run(['journal', 'list', '--alerts', '--json'], { env });
    expectExit(listed, 0);
    expect(listed.stderr).toBe('');
    const rows = JSON.parse(listed.stdout);
    expect(rows.map((a: { rule: string; text: string }) => a.rule)).toEqual(['price > 1', '1h.p_long >= 0']);
    expect(rows[1]).toMatchObject({
      fired_at: '2026-11-22T12:00:00Z',
      symbol: 'BTC/USD',
      tf: '1h',
      ts: alerts[1].ts,
      field: 'p_long',
      op: '>=',
      threshold: 0,
      already: true,
    });
    const table = await emu.run(['journal', 'list', '--alerts', '--tf', '1h'], { env });
    expectExit(table, 0);
    expect(table.stdout).toMatch(/BTC\/USD\s+1h\s+.*1h\.p_long >= 0/);
    expect(table.stdout).not.toContain('price > 1');

    // The readers of forecasts see no alert, and nothing damaged.
    for (const argv of [
      ['journal', 'list'],
      ['journal', 'report'],
      ['journal', 'export'],
    ]) {
      const other = await emu.run(argv, { env });
      expect(other.stderr, argv.join(' ')).not.toMatch(/damaged|warning/);
      expect(other.stdout, argv.join(' ')).not.toContain('p_long >= 0');
    }
    const csv = await emu.run(['journal', 'list', '--alerts', '--format', 'csv'], { env });
    expectExit(csv, 0);
    expect(lines(csv.stdout)[0]).toBe('fired_at,origin,symbol,tf,ts,rule,field,op,value,threshold,already,text');
    const bad = await emu.run(['journal', 'list', '--alerts', '--status', 'open'], { env });
    expectExit(bad, 2);
    // prune takes an alert with the forecast it fired on (by its ts, not when it fired).
    const pruned = await emu.run(['journal', 'prune', '--before', '2026-06-01'], { env });
    expectExit(pruned, 0);
    const after = await emu.run(['journal', 'list', '--alerts', '--json'], { env });
    expect(JSON.parse(after.stdout)).toEqual([]);
  });
});
