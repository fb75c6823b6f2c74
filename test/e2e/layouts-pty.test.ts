// The views issue 43 found cut or too wide, as a person sees them: the built bin/fcast.js on a
// pty of 60 and 80 columns (util-linux `script`; the board in tmux, whose keys reach it),
// against the emulator. `journal list` keeps its symbols whole, the reliability chart's axis fits,
// `register` keeps each endpoint's URL whole beside or under its name, and the board says what
// it left out and words its status line whole after `r`.
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, tempDir } from '../helpers/cli.js';
import { FIXED_NOW, useEmulator } from '../helpers/emulator.js';
import { hasScript, runOnPty, screen } from '../helpers/pty.js';
import { displayWidth } from '../../src/output/table.js';

let clock = FIXED_NOW;
const emu = useEmulator({ now: () => clock });
const data = tempDir();
const SYMBOLS = ['BTC/USD', 'ETH/USD', 'EUR/USD'];

beforeAll(async () => {
  // An hour and a half of recorded forecasts, then three hours on: most of them settle.
  for (let step = 0; step < 6; step++) {
    const r = await emu.runWithKey(['predict', ...SYMBOLS, '--record'], { env: { FCAST_DATA_DIR: data }, now: clock });
    expect(r.code, r.stderr).toBe(0);
    clock += 15 * 60_000;
  }
  clock += 3 * 3_600_000;
  const settled = await emu.runWithKey(['journal', 'settle'], { env: { FCAST_DATA_DIR: data }, now: clock });
  expect(settled.code, settled.stderr).toBe(0);
});

const onPty = async (argv: string[], columns: number, env: Record<string, string> = {}) => {
  const r = await runOnPty([...argv, '--no-color'], {
    columns,
    rows: 50,
    env: { FCAST_BASE_URL: emu.server.url, FCAST_API_KEY: emu.server.testKey, FCAST_DATA_DIR: data, ...env },
  });
  expect(r.code, r.output).toBe(0);
  return screen(r.output);
};

const expectWithin = (lines: string[], columns: number) => {
  const over = lines.filter((l) => displayWidth(l) > columns);
  expect(over, `wider than ${columns}`).toEqual([]);
};

/** A symbol cut short: a start of one of them followed by the ellipsis. */
const CUT_SYMBOL = new RegExp(
  SYMBOLS.flatMap((s) => [...s].map((_, i) => s.slice(0, i + 1)))
    .filter((p) => p.length < 7)
    .map((p) => `(?<![\\w/])${p.replace('/', '\\/')}…`)
    .join('|'),
);

describe.skipIf(!hasScript).each([60, 80])('on a pty %i columns wide', (columns) => {
  it('journal list keeps every symbol whole, fits, and says what it left out', async () => {
    const lines = await onPty(['journal', 'list'], columns);
    expectWithin(lines, columns);
    const rows = lines.filter((l) => /^[A-Z]{3}\//.test(l));
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows) expect(row).toMatch(/^(BTC|ETH|EUR)\/USD\s/);
    expect(lines.join('\n')).not.toMatch(CUT_SYMBOL);
    expect(lines).toContainEqual(expect.stringMatching(/^fcast: \d+ columns? left out to fit; --wide shows them$/));
  });

  it("journal report's reliability charts fit: the axis, its ticks and 1.0 under the plot's last column", async () => {
    const lines = await onPty(['journal', 'report', '--offline'], columns);
    expectWithin(lines, columns);
    const axes = lines.flatMap((l, i) => (/^\s+└─+$/.test(l) ? [i] : []));
    expect(axes.length).toBeGreaterThan(0);
    for (const i of axes) {
      const ticks = lines[i + 1]!;
      expect(ticks).toMatch(/^\s+0\.0\s+0\.5\s+1\.0$/);
      expect(displayWidth(ticks)).toBe(displayWidth(lines[i]!));
    }
  });

  it('register keeps each endpoint URL whole, beside its name or on the line under it', async () => {
    const lines = await onPty(['register', '--email', `layout${columns}@example.com`], columns, {
      FCAST_API_KEY: '',
      FCAST_CONFIG_DIR: tempDir(),
    });
    const body = (await (
      await fetch(`${emu.server.url}/api/agent/v1/register.php`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: `layout-probe${columns}@example.com` }),
      })
    ).json()) as { endpoints: Record<string, string> };
    // Each URL whole on its name's line, or each on the line under its name: one layout for
    // the block, so that no URL sits under another's name.
    const placed = Object.entries(body.endpoints).map(([name, url]) => {
      const shown = url.replace(/^https?:\/\/[^/]+/, '');
      const at = lines.findIndex((l) => new RegExp(`(^|\\s)${name}(\\s|$)`).test(l));
      expect(at, name).toBeGreaterThanOrEqual(0);
      const whole = new RegExp(`(^|\\s)https?://\\S+${shown.replace(/[.?]/g, '\\$&')}$`);
      const where = whole.test(lines[at]!) ? 'beside' : whole.test(lines[at + 1]!) ? 'under' : 'lost';
      expect(where, `${name}: ${lines.slice(at, at + 2).join(' | ')}`).not.toBe('lost');
      return where;
    });
    expect(new Set(placed).size, placed.join(' ')).toBe(1);
    // Every other line within the width: only a URL longer than the terminal passes it, whole.
    expectWithin(
      lines.filter((l) => !/^https?:\/\//.test(l)),
      columns,
    );
  });
});

const hasTmux = spawnSync('tmux', ['-V']).status === 0;
const SOCKET = `fcast-layouts-${process.pid}`;
const TMUX_ENV = { ...process.env, TMUX_TMPDIR: tempDir('fcast-tmux-'), TMUX: undefined };
const tmux = (...args: string[]): string => {
  const r = spawnSync('tmux', ['-L', SOCKET, '-f', '/dev/null', ...args], { encoding: 'utf8', env: TMUX_ENV });
  if (r.status !== 0) throw new Error(`tmux ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
};
afterAll(() => {
  if (hasTmux) spawnSync('tmux', ['-L', SOCKET, 'kill-server'], { env: TMUX_ENV });
});

async function until(what: string, read: () => string, ok: (s: string) => boolean): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (let s = read(); ; s = read()) {
    if (ok(s)) return s;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last seen:\n${s}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(!hasTmux).each([60, 80])('the board in a %i-column window', (columns) => {
  it('says what it left out, and after r words its status line whole', async () => {
    const name = `board${columns}`;
    const env = Object.entries({
      FCAST_BASE_URL: emu.server.url,
      FCAST_API_KEY: emu.server.testKey,
      FCAST_CONFIG_DIR: tempDir(),
    }).map(([k, v]) => `${k}='${v}'`);
    const argv = ['predict', 'BTC/USD', 'ETH/USD', 'XAU/USD', '--watch', '--tf', '15min,1h,6h,2h,3h'];
    const command = `env ${env.join(' ')} '${process.execPath}' '${BIN}' ${argv.join(' ')}; sleep 600`;
    tmux('new-session', '-d', '-s', name, '-x', String(columns), '-y', '30', 'sh', '-c', command);
    const pane = () => tmux('capture-pane', '-p', '-t', name);
    const status = (s: string) => s.trimEnd().split('\n').at(-1) ?? '';
    const first = await until('the board', pane, (s) => /q quit/.test(s) && /XAU\/USD/.test(s));
    const lines = first.trimEnd().split('\n');
    expectWithin(lines, columns);
    expect(lines).toContainEqual(expect.stringMatching(/^\d+ columns? left out to fit; --wide shows them$/));
    tmux('send-keys', '-t', name, 'r');
    const after = await until('the deferred refresh', pane, (s) => /refresh at/.test(status(s)));
    // Each part whole: the times go first, then `r`, then `q`; never a word cut.
    expect(status(after)).toMatch(
      /^(?:updated (?:\d\d:\d\d:\d\d UTC \()?\d+s(?: ago\))?(?: ago)? · )?refresh at \d\d:\d\d:\d\d(?: \(at most one each 60s\))?(?: · q quit(?: · r refresh)?)?$/,
    );
    expectWithin(after.trimEnd().split('\n'), columns);
    tmux('send-keys', '-t', name, 'q');
  }, 30_000);
});
