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
    const rows = lines.filter((l) => /^(\d+min|\d+h)\s/.test(l));
    expect(rows.map((l) => l.split(/\s+/)[0])).toEqual(Object.keys(body.predictions));
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
