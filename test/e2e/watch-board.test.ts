// --watch on a terminal: the board. In-process against the emulator, with a clock the test
// moves second by second (steppedClock) and a small terminal that shows what the user would see.
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { expectExit, type RunResult, steppedClock } from '../helpers/cli.js';
import { FIXED_NOW, useEmulator } from '../helpers/emulator.js';
import { VirtualTerminal } from '../helpers/terminal.js';

// The emulated clock is set far from the watch's own (2026-11-22): countdowns must follow the server's.
const EMULATED = Date.UTC(2026, 0, 5, 9, 0);
const emu = useEmulator({ clock: { start: EMULATED } });

interface Board {
  clock: ReturnType<typeof steppedClock>;
  terminal: { columns: number; rows: number };
  keys: PassThrough & { modes: boolean[] };
  signal: AbortController;
  /** The screen as it stands after everything written so far. */
  screen(): VirtualTerminal;
  /** What was written to stdout since the last call. */
  written(): string;
  until(what: string, ok: (vt: VirtualTerminal) => boolean): Promise<void>;
  press(key: string): void;
  done: Promise<RunResult>;
}

const running: Board[] = [];
afterEach(async () => {
  // A test that failed half-way leaves its watch running: stop it.
  for (const b of running.splice(0)) {
    b.signal.abort();
    await b.done;
  }
});

function board(argv: string[], opts: { columns?: number; rows?: number; key?: boolean } = {}): Board {
  const clock = steppedClock(FIXED_NOW);
  const terminal = { columns: opts.columns ?? 100, rows: opts.rows ?? 30 };
  const keys = Object.assign(new PassThrough(), { modes: [] as boolean[] });
  (keys as unknown as { setRawMode(on: boolean): void }).setRawMode = (on) => keys.modes.push(on);
  const signal = new AbortController();
  const vt = new VirtualTerminal(terminal.columns, terminal.rows);
  let stdout: { text: string } = { text: '' };
  let fed = 0;
  let seen = 0;
  const run = opts.key === false ? emu.run : emu.runWithKey;
  const done = run(argv, {
    tty: true,
    terminal,
    clock,
    stdin: keys,
    signal: signal.signal,
    onStart: (s) => {
      stdout = s.stdout;
    },
  });
  const screen = () => {
    if (vt.columns !== terminal.columns || vt.rows !== terminal.rows) vt.resize(terminal.columns, terminal.rows);
    vt.feed(stdout.text.slice(fed));
    fed = stdout.text.length;
    return vt;
  };
  const b: Board = {
    clock,
    terminal,
    keys,
    signal,
    screen,
    written: () => {
      const text = stdout.text.slice(seen);
      seen = stdout.text.length;
      return text;
    },
    async until(what, ok) {
      for (let i = 0; i < 500; i++) {
        if (ok(screen())) return;
        await new Promise((resolve) => setTimeout(resolve, 4));
      }
      throw new Error(`timed out waiting for ${what}; the screen:\n${screen().text()}`);
    },
    press: (key) => keys.write(key),
    done,
  };
  running.push(b);
  return b;
}

async function finish(b: Board): Promise<RunResult> {
  const r = await b.done;
  running.splice(running.indexOf(b), 1);
  return r;
}

/** `in 4h`, `in 3h 20m`, `in 25m` as minutes. */
function minutesUntil(line: string): number {
  const m = /in (?:(\d+)h)? ?(?:(\d+)m)?\s/.exec(line);
  if (!m) throw new Error(`no countdown in ${line}`);
  return Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0);
}

const status = (vt: VirtualTerminal) => vt.lines()[vt.rows - 1] ?? '';
const shows = (text: string | RegExp) => (vt: VirtualTerminal) =>
  typeof text === 'string' ? vt.text().includes(text) : text.test(vt.text());

describe('the board', () => {
  it('appears on the alternate screen with every symbol and the status line, and ticks each second without a request', async () => {
    const b = board(['predict', 'BTC/USD', 'ETH/USD', '--watch']);
    await b.until('the board', (vt) => /ETH\/USD\s+[\d,.]+/.test(vt.text()) && /\(0s ago\)/.test(status(vt)));
    const vt = b.screen();
    expect(vt.altScreen).toBe(true);
    expect(vt.cursorVisible).toBe(false);
    expect(vt.text()).toMatch(/BTC\/USD\s+[\d,.]+/);
    expect(status(vt)).toMatch(/^updated \d\d:\d\d:\d\d UTC \(0s ago\) · next in 1m · q quit · r refresh$/);
    expect(emu.server.requests).toHaveLength(2);
    b.written();
    const before = vt.lines();

    await b.clock.advance(1000);
    await b.until('a tick', (vt) => /\(1s ago\) · next in 59s/.test(status(vt)));
    // Only the lines that changed (the status line, a countdown that passed a minute) are
    // rewritten, in place: no clear of the screen.
    const tick = b.written();
    expect(tick).not.toContain('\x1b[2J');
    const changed = b
      .screen()
      .lines()
      .flatMap((line, i) => (line !== before[i] ? [`\x1b[${i + 1};1H`] : []));
    expect(tick.match(/\x1b\[\d+;1H/g)).toEqual(changed);
    expect(changed).toContain(`\x1b[${b.terminal.rows};1H`);
    expect(changed.length).toBeLessThan(5);
    expect(emu.server.requests).toHaveLength(2);

    // Never more often than the interval: nothing at 59 s, the refresh at 60 s.
    await b.clock.advance(58_000);
    expect(emu.server.requests).toHaveLength(2);
    await b.clock.advance(1000);
    await b.until('the second refresh', (vt) => /\(0s ago\)/.test(status(vt)));
    expect(emu.server.requests).toHaveLength(4);
    b.press('q');
    expectExit(await finish(b), 0);
  });

  it("counts down from the server's clock, not the watch's own", async () => {
    const b = board(['demo', '--watch', '--tf', '1h', '--interval', '600'], { key: false });
    const row = (vt: VirtualTerminal) => vt.lines().find((l) => /^\s+1h\s/.test(l)) ?? '';
    await b.until('the 1h row', (vt) => /in \d/.test(row(vt)));
    const minutes = minutesUntil(row(b.screen()));
    // The body's server_t is 2026-01-05 09:00 and the watch's clock 2026-11-22: measured from
    // the latter, the target would be months ago.
    expect(minutes).toBeGreaterThan(0);
    expect(minutes).toBeLessThanOrEqual(360);
    await b.clock.advance(60_000);
    await b.until('a minute later', (vt) => /\(1m ago\)/.test(status(vt)));
    expect(minutesUntil(row(b.screen()))).toBe(minutes - 1);
    expect(emu.server.requests).toHaveLength(1);
    b.press('q');
    expectExit(await finish(b), 0);
  });

  it('marks what changed since the previous refresh, for one refresh', async () => {
    const b = board(['predict', 'BTC/USD', 'ETH/USD', '--watch', '--interval', '5']);
    await b.until('the board', shows('ETH/USD'));
    expect(b.screen().text()).not.toContain('new forecast');
    // An emulated hour passes: new forecasts, a new price.
    emu.server.clock.advance(3_600_000);
    await b.clock.advance(5000);
    await b.until('the marks', shows('new forecast'));
    const rows = b
      .screen()
      .lines()
      .filter((l) => /(BTC|ETH)\/USD/.test(l));
    for (const line of rows) expect(line).toMatch(/^[•⇄][▲▼ ] {2}(BTC|ETH)\/USD/);
    // Nothing moved since: the marks go.
    await b.clock.advance(5000);
    await b.until('no marks', (vt) => !vt.text().includes('new forecast') && /\(0s ago\)/.test(status(vt)));
    for (const line of b
      .screen()
      .lines()
      .filter((l) => /(BTC|ETH)\/USD/.test(l)))
      expect(line).toMatch(/^ {4}/);
    b.press('q');
    expectExit(await finish(b), 0);
  });

  it('a failed refresh keeps the board, marked stale with its age, backs off, and recovers', async () => {
    const b = board(['demo', '--watch', '--interval', '30'], { key: false });
    await b.until('the board', shows('BTC/USD'));
    emu.server.setFaults([{ kind: '503', times: 1, retryAfter: 0 }]);
    await b.clock.advance(30_000);
    await b.until('the stale mark', shows('STALE'));
    const vt = b.screen();
    expect(vt.lines()[0]).toBe(' STALE  data from 30s ago: the last refresh failed');
    expect(vt.text()).toMatch(/BTC\/USD\s+[\d,.]+/);
    // Why, on the status line (the contract's place for errors on a terminal); on 100 columns
    // it does not fit beside the retry and the keys, and takes the line above.
    expect(vt.lines().slice(-2)).toEqual([
      'HTTP 503 Service unavailable: temporarily unavailable; retry in 0 seconds',
      'updated 30s ago · retry in 30s · q quit · r refresh',
    ]);
    // A wider window: the whole reason, then when the board was last updated.
    b.terminal.columns = 160;
    await b.clock.advance(1000);
    await b.until('the wide status line', (vt) => /31s ago/.test(status(vt)));
    expect(status(b.screen())).toMatch(
      /^HTTP 503 Service unavailable: temporarily unavailable; retry in 0 seconds · updated \d\d:\d\d:\d\d UTC \(31s ago\) · retry in 29s · q quit · r refresh$/,
    );
    b.terminal.columns = 100;
    // Ages go on: a second later the data is a second older.
    await b.clock.advance(1000);
    await b.until('an older stale board', (vt) => vt.lines()[0]!.includes('data from 32s ago'));
    // r: the last refresh started 2 s ago, the interval is 30 s: not now, and the status says when.
    b.press('r');
    await b.until('the deferred refresh', (vt) =>
      /refresh at \d\d:\d\d:\d\d \(at most one each 30s\)/.test(status(vt)),
    );
    expect(emu.server.requests).toHaveLength(2);
    await b.clock.advance(27_000);
    expect(emu.server.requests).toHaveLength(2);
    await b.clock.advance(1000);
    await b.until('the recovery', (vt) => !vt.text().includes('STALE') && /\(0s ago\)/.test(status(vt)));
    expect(emu.server.requests).toHaveLength(3);
    b.press('q');
    expectExit(await finish(b), 0);
  });

  it('r after a failure cuts the backoff short, once the interval allows', async () => {
    const b = board(['demo', '--watch', '--interval', '10'], { key: false });
    await b.until('the board', shows('BTC/USD'));
    // The server asks for 40 s.
    emu.server.setFaults([{ kind: '503', times: 1, retryAfter: 40 }]);
    await b.clock.advance(10_000);
    await b.until('stale', (vt) => vt.text().includes('STALE') && /retry in 40s/.test(status(vt)));
    await b.clock.advance(10_000);
    expect(emu.server.requests).toHaveLength(2);
    // The last refresh started 10 s ago: the interval allows one now.
    b.press('r');
    await b.until('the recovery', (vt) => !vt.text().includes('STALE'));
    expect(emu.server.requests).toHaveLength(3);
    b.press('q');
    expectExit(await finish(b), 0);
  });

  it('re-fits after a resize: the screen cleared once, every line within the new width', async () => {
    const b = board(['predict', 'BTC/USD', 'ETH/USD', '--watch', '--detail']);
    await b.until('the board', shows('ETH/USD'));
    expect(
      Math.max(
        ...b
          .screen()
          .lines()
          .map((l) => l.length),
      ),
    ).toBeGreaterThan(60);
    b.written();
    b.terminal.columns = 60;
    await b.clock.advance(1000);
    await b.until('the re-fit board', (vt) => /1s ago/.test(status(vt)));
    expect(b.written()).toContain('\x1b[2J');
    const lines = b.screen().lines();
    expect(Math.max(...lines.map((l) => [...l].length))).toBeLessThanOrEqual(60);
    // Re-fitted, not cut: the table's header ends within the width with a column name.
    expect(lines.find((l) => /Symbol/.test(l))).toMatch(/\w$/);
    b.press('q');
    expectExit(await finish(b), 0);
  });

  it('a board taller than its window loses middle lines, never the attribution or the status line', async () => {
    const b = board(['demo', '--watch'], { rows: 16, key: false });
    await b.until('the board', shows('BTC/USD'));
    const lines = b.screen().lines();
    expect(lines.join('\n')).toMatch(/… \d+ more lines: a taller window shows them/);
    expect(lines[11]).toMatch(/^Probabilistic forecasts/);
    expect(lines[12]).toMatch(/^Source: /);
    expect(lines[13]).toMatch(/^Tier: demo/);
    // Above the status line, what the width left out, as a table says it on stderr.
    expect(lines[14]).toMatch(/^\d+ columns? left out to fit; --wide shows them$/);
    expect(status(b.screen())).toMatch(/^updated /);
    // Narrower: the line about the hidden ones is worded to fit, not cut mid-word.
    b.terminal.columns = 60;
    await b.clock.advance(1000);
    await b.until('the narrow board', (vt) => /\(1s ago\)|1s ago/.test(status(vt)));
    expect(b.screen().lines()).toContainEqual(expect.stringMatching(/^… \d+ more lines: a taller window shows them$/));
    b.press('q');
    expectExit(await finish(b), 0);
  });
});

describe('leaving the board', () => {
  const restored = (vt: VirtualTerminal) => {
    expect(vt.altScreen).toBe(false);
    expect(vt.cursorVisible).toBe(true);
    expect(vt.autowrap).toBe(true);
  };

  it('q: exit 0, the terminal as it was (screen, cursor, wrap, colours, cooked keys)', async () => {
    const b = board(['demo', '--watch'], { key: false });
    await b.until('the board', shows('BTC/USD'));
    b.press('q');
    const r = await finish(b);
    expectExit(r, 0);
    restored(b.screen());
    expect(b.screen().text().trim()).toBe('');
    expect(r.stdout.endsWith('\x1b[0m\x1b[?7h\x1b[?25h\x1b[?1049l')).toBe(true);
    expect(b.keys.modes).toEqual([true, false]);
    expect(r.stderr).toBe('');
  });

  it('Ctrl-C as a key (raw mode): exit 130, the terminal restored', async () => {
    const b = board(['demo', '--watch'], { key: false });
    await b.until('the board', shows('BTC/USD'));
    b.press('\x03');
    const r = await finish(b);
    expectExit(r, 130);
    restored(b.screen());
    expect(b.keys.modes).toEqual([true, false]);
    expect(r.stderr).toBe('\nfcast: interrupted\n');
  });

  it('a signal (SIGINT, SIGTERM, SIGHUP abort the run): the terminal is restored at once, before the report', async () => {
    const b = board(['demo', '--watch'], { key: false });
    await b.until('the board', shows('BTC/USD'));
    b.signal.abort();
    // Synchronously: main reports the interruption right after, on the shell's screen.
    restored(b.screen());
    const r = await finish(b);
    expectExit(r, 130);
    expect(b.keys.modes).toEqual([true, false]);
  });

  it('a permanent failure: the terminal restored, then the one-line error and its code', async () => {
    const b = board(['predict', 'BTC/USD', 'NOPE/USD', '--watch']);
    const r = await finish(b);
    expectExit(r, 4);
    restored(b.screen());
    expect(r.stderr).toMatch(/^fcast: NOPE\/USD: HTTP 404/);
  });

  it('--count whose last refresh failed: the last good board, then why and how old it is, and the code', async () => {
    const b = board(['demo', '--watch', '--count', '2', '--interval', '5'], { key: false });
    await b.until('the board', shows('BTC/USD'));
    emu.server.setFaults([{ kind: '503', times: 1, retryAfter: 0 }]);
    await b.clock.advance(5000);
    const r = await finish(b);
    expectExit(r, 6);
    restored(b.screen());
    expect(b.screen().text()).toMatch(/^BTC\/USD\s+[\d,.]+/);
    // Not a fresh-looking table and a silent exit 6: the error as the command alone words it.
    expect(r.stderr).toMatch(
      /^fcast: HTTP 503 Service unavailable: [^\n]+\n(?: {2}hint: [^\n]+\n)?fcast: the table above is the last good data, from 5s ago\n$/,
    );
  });

  it('--count: after the last refresh the board stays on the shell’s screen, as the command alone prints it', async () => {
    const b = board(['demo', '--watch', '--count', '1'], { key: false });
    const r = await finish(b);
    expectExit(r, 0);
    restored(b.screen());
    expect(b.screen().text()).toMatch(/^BTC\/USD\s+[\d,.]+/);
    expect(b.screen().text()).toMatch(/Tier: demo/);
  });
});
