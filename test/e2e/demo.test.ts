import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';

const emu = useEmulator();

describe('fcast demo', () => {
  it('prints a forecast table with one row per timeframe and the attribution at the end', async () => {
    const r = await emu.run(['demo']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^BTC\/USD\s+[\d,]+\.\d\d\s+[+-][\d.]+% 24h\s+at 2026-11-22 \d\d:\d\d UTC \(\d+h? ?\d*m? ago\)/,
    );
    const body = (await (await fetch(`${emu.server.url}/api/agent/v1/demo.php`)).json()) as {
      meta: { source: string };
      predictions: object;
    };
    const tail = lines.slice(-3).join('\n');
    expect(tail).toContain(body.meta.source);
    expect(tail).toContain('demo');
    expect(tail).toContain('60 min');
    // Open forecasts first, in horizon order; the settled ones below their own heading.
    const rows = lines.filter((l) => /^(\d+min|\d+h)\s/.test(l)).map((l) => l.split(/\s+/)[0]);
    const predictions = body.predictions as Record<string, { status: string }>;
    const keys = Object.keys(predictions);
    const settled = keys.filter((k) => predictions[k]!.status === 'settled');
    expect(settled.length).toBeGreaterThan(0);
    expect(rows).toEqual([...keys.filter((k) => !settled.includes(k)), ...settled]);
    const heading = lines.findIndex((l) => l.startsWith('settled (target time passed)'));
    expect(heading).toBe(lines.indexOf(lines.find((l) => l.startsWith(`${settled[0]} `))!) - 1);
    expect(r.stdout).not.toMatch(/\x1b\[/); // not a terminal: no colour
  });

  it('--json prints the body exactly as served, before or after the subcommand', async () => {
    const raw = await (await fetch(`${emu.server.url}/api/agent/v1/demo.php?symbol=ETH%2FUSD`)).text();
    const after = await emu.run(['demo', 'ETH/USD', '--json']);
    const before = await emu.run(['--json', 'demo', 'eth/usd']);
    expect(after.code).toBe(0);
    expect(after.stdout).toBe(`${JSON.stringify(JSON.parse(raw), null, 2)}\n`);
    expect(before.stdout).toBe(after.stdout);
    expect(after.stderr).toBe('');
  });

  it('sends the symbol in canonical form', async () => {
    await emu.run(['demo', 'eur/usd', '--json']);
    expect(emu.server.requests.map((r) => r.query.symbol)).toEqual(['EUR/USD']);
  });

  it('refuses a symbol off the demo list with exit 2, naming the allowed ones, and sends nothing', async () => {
    const r = await emu.run(['demo', 'XRP/USD']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/BTC\/USD, ETH\/USD, EUR\/USD/);
    expect(r.stderr.split('\n')[0]).toMatch(/^fcast: /);
    expect(emu.server.requests).toHaveLength(0);
  });

  it('exits 3 without a base URL, saying how to set one', async () => {
    const r = await emu.run(['demo'], { env: { FCAST_BASE_URL: '' } });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/no base URL/);
    expect(r.stderr).toMatch(/FCAST_BASE_URL/);
  });

  it('colours directions on a terminal, and --no-color beats FORCE_COLOR', async () => {
    const tty = await emu.run(['demo'], { tty: true });
    expect(tty.stdout).toMatch(/\x1b\[3[12]mlong|\x1b\[3[12]mshort/);
    const forced = await emu.run(['demo'], { env: { FORCE_COLOR: '1' } });
    expect(forced.stdout).toMatch(/\x1b\[/);
    const plain = await emu.run(['demo', '--no-color'], { env: { FORCE_COLOR: '1' } });
    expect(plain.stdout).not.toMatch(/\x1b\[/);
  });

  it('--dry-run prints the request and sends nothing', async () => {
    const r = await emu.run(['demo', '--dry-run']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/api\/agent\/v1\/demo\.php\?symbol=BTC%2FUSD/);
    expect(emu.server.requests).toHaveLength(0);
  });

  it('--verbose logs the exchange on stderr, stdout stays data', async () => {
    const r = await emu.run(['demo', '--json', '--verbose']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/> GET http:\/\/127\.0\.0\.1:\d+\/api\/agent\/v1\/demo\.php/);
    expect(r.stderr).toMatch(/< 200/);
    expect(() => JSON.parse(r.stdout)).not.toThrow();
  });
});

describe('fcast demo: what, how sure, when', () => {
  it('--tf keeps the timeframes given (any case, repeatable) in horizon order', async () => {
    const r = await emu.run(['demo', '--tf', '6H,15min', '--tf', '1h']);
    expect(r.code).toBe(0);
    const rows = r.stdout.split('\n').filter((l) => /^(\d+min|\d+h)\s/.test(l));
    expect(rows.map((l) => l.split(/\s+/)[0])).toEqual(['15min', '1h', '6h']);
  });

  it('--tf naming a timeframe the response lacks exits 2 and lists those present', async () => {
    const r = await emu.run(['demo', '--tf', '4h']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^fcast: no forecast for --tf 4h; timeframes present: 1min, 5min, 10min, .*, 3h, 6h$/m);
    // A slip of the fingers gets the timeframe it likely meant.
    const typo = await emu.run(['demo', '--tf', '1hh']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/^fcast: no forecast for --tf 1hh \(did you mean 1h\?\); timeframes present: /m);
  });

  it('--tf takes any spelling of the same length of time: 60min, 60m and 1hr are 1h', async () => {
    const rows = (stdout: string) => stdout.split('\n').filter((l) => /^\d+(min|h)\b/.test(l));
    const oneHour = await emu.run(['demo', '--tf', '1h,3h']);
    expect(rows(oneHour.stdout).map((l) => l.split(/\s+/)[0])).toEqual(['1h', '3h']);
    for (const tf of ['60min,180min', '60m,3h', '1hr,180m', '1H,3h,60min']) {
      const r = await emu.run(['demo', '--tf', tf]);
      expect(r.code, tf).toBe(0);
      expect(rows(r.stdout), tf).toEqual(rows(oneHour.stdout));
    }
  });

  it('marks the timeframes the track record covers, and says so in one line', async () => {
    const r = await emu.run(['demo', '--tf', '1h,65min,2h']);
    const rows = r.stdout.split('\n').filter((l) => /^\d+(min|h)\b/.test(l));
    expect(rows.map((l) => /^\S+( \*)?/.exec(l)![0])).toEqual(['1h *', '65min', '2h *']);
    expect(r.stdout).toMatch(/^\* the track record covers this timeframe: 'fcast accuracy --tf TF'$/m);
    const untracked = await emu.run(['demo', '--tf', '65min']);
    expect(untracked.stdout).not.toContain('track record covers');
  });

  it('btcusd exits 2 suggesting BTC/USD', async () => {
    const r = await emu.run(['demo', 'btcusd']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/did you mean BTC\/USD\?/);
  });

  it('says when each forecast resolves, in percent, and marks a direction the target contradicts', async () => {
    const r = await emu.run(['demo', 'ETH/USD', '--json']);
    const body = JSON.parse(r.stdout) as {
      meta: { server_t: number };
      predictions: Record<
        string,
        {
          target_t: number;
          anchor_price: number;
          target_price: number;
          ia3: { direction: string; p_long: number; p_short: number };
        }
      >;
    };
    const table = await emu.run(['demo', 'ETH/USD']);
    const rowOf = (tf: string) => table.stdout.split('\n').find((l) => l.startsWith(`${tf} `))!;
    let marked = 0;
    for (const [tf, f] of Object.entries(body.predictions)) {
      const row = rowOf(tf);
      const prob = f.ia3.direction === 'long' ? f.ia3.p_long : f.ia3.p_short;
      // A move that shows as 0.00% disagrees with nothing (the Move column would show no move).
      const movePct = (f.target_price / f.anchor_price - 1) * 100;
      const contradicted =
        (f.ia3.direction === 'long') !== f.target_price > f.anchor_price && Math.abs(movePct) >= 0.005;
      expect(row).toMatch(
        new RegExp(`^${tf}( \\*)?\\s+${f.ia3.direction}${contradicted ? ' ≠' : ''}\\s+${Math.round(prob * 100)}%\\s`),
      );
      const left = f.target_t - body.meta.server_t;
      if (left > 3600) expect(row).toMatch(new RegExp(`\\sin ${Math.floor(left / 3600)}h`));
      if (contradicted) marked++;
    }
    expect(marked).toBeGreaterThan(0); // the seed's data has some; the legend explains them
    expect(table.stdout).toMatch(/^≠ ia3's direction and the move to the target price disagree$/m);
  });

  it('piped keeps every column; a terminal hides the --wide ones until --wide', async () => {
    const header = (out: string) => out.split('\n').find((l) => l.startsWith('TF '))!;
    const piped = await emu.run(['demo']);
    expect(header(piped.stdout)).toMatch(/Anchor\s+Status\s+ia2 Δ\s+ia1$/);
    const tty = await emu.run(['demo', '--no-color'], { tty: true, columns: 200 });
    expect(header(tty.stdout)).not.toMatch(/ia1|Status/);
    const wide = await emu.run(['demo', '--no-color', '--wide'], { tty: true, columns: 60 });
    expect(header(wide.stdout)).toBe(header(piped.stdout));
  });
});

describe('fcast demo: a sign of life during a slow request', () => {
  it("spins on a terminal's stderr after about a second, then clears the line; never piped or with --json", async () => {
    emu.server.setFaults([{ kind: 'slow', delayMs: 1300 }]);
    const tty = await emu.run(['demo', '--no-color'], { tty: true });
    expect(tty.code).toBe(0);
    expect(tty.stderr).toMatch(/^\r\x1b\[2K⠋ fetching BTC\/USD/);
    expect(tty.stderr.endsWith('\r\x1b[2K')).toBe(true);
    expect(tty.stdout).not.toMatch(/fetching|\r/);
    emu.server.setFaults([{ kind: 'slow', delayMs: 1300 }]);
    const json = await emu.run(['demo', '--json'], { tty: true });
    expect(json.stderr).toBe('');
    emu.server.setFaults([{ kind: 'slow', delayMs: 1300 }]);
    const piped = await emu.run(['demo']);
    expect(piped.stderr).toBe('');
  });
});
