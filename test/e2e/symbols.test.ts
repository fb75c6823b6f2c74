import { describe, expect, it } from 'vitest';
import { readSymbolsCache } from '../../src/completion/symbols-cache.js';
import { useEmulator } from '../helpers/emulator.js';

const emu = useEmulator();

async function served(): Promise<string> {
  const res = await fetch(`${emu.server.url}/api/agent/v1/symbols.php`, {
    headers: { authorization: `Bearer ${emu.server.testKey}` },
  });
  return res.text();
}

describe('fcast symbols', () => {
  it('leaves the list for shell completion in the config directory, with --json too', async () => {
    const r = await emu.runWithKey(['symbols', '--json']);
    expect(r.code).toBe(0);
    expect(readSymbolsCache(r.configDir)?.symbols).toEqual([
      'BTC/USD',
      'ETH/USD',
      'EUR/USD',
      'SOL/USD',
      'XAU/USD',
      'GBP/USD',
      'AAPL/USD',
      'SPX/USD',
    ]);
  });

  it('lists each symbol with its number of timeframes and its newest forecast in UTC with its age', async () => {
    const r = await emu.runWithKey(['symbols']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const sent = [...emu.server.requests];
    const body = JSON.parse(await served()) as {
      symbols: Array<{ symbol: string; timeframes: Record<string, number> }>;
      meta: { source: string };
    };
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Symbol\s+Timeframes\s+Newest forecast\s+Age$/);
    const rows = lines.filter((l) => /^[A-Z]+\/[A-Z]+\s/.test(l));
    expect(rows).toHaveLength(body.symbols.length);
    body.symbols.forEach((s, i) => {
      const newest = new Date(Math.max(...Object.values(s.timeframes)) * 1000).toISOString();
      const when = `${newest.slice(0, 10)} ${newest.slice(11, 16)} UTC`;
      expect(rows[i]).toMatch(
        new RegExp(`^${s.symbol.replace('/', '\\/')}\\s+${Object.keys(s.timeframes).length}\\s+${when}\\s+\\d+m ago$`),
      );
    });
    // The emulator's clock is 12:00 and free data is 15 minutes late: BTC's 1min forecast is from 11:45.
    expect(rows[0]).toMatch(/^BTC\/USD\s+22\s+2026-11-22 11:45 UTC\s+15m ago$/);
    expect(r.stdout).toMatch(/^8 symbols$/m);
    const tail = lines.slice(-3).join('\n');
    expect(tail).toContain(body.meta.source);
    expect(tail).toMatch(/Tier: free · data delayed 15 min/);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers.authorization).toBe(`Bearer ${emu.server.testKey}`);
  });

  it('--json prints the body as served', async () => {
    const r = await emu.runWithKey(['symbols', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`${JSON.stringify(JSON.parse(await served()), null, 2)}\n`);
  });

  it('without a key exits 3 and sends nothing', async () => {
    const r = await emu.run(['symbols']);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^fcast: no API key/);
    expect(emu.server.requests).toHaveLength(0);
  });

  it('a key the service does not know exits 3, with the problem body under --json', async () => {
    const r = await emu.run(['symbols', '--json'], { env: { FCAST_API_KEY: `mfa_ag_${'1'.repeat(40)}` } });
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 401 });
    expect(r.stderr).toMatch(/^fcast: HTTP 401 Unauthorized/);
  });

  it('--verbose never logs the key', async () => {
    const r = await emu.runWithKey(['symbols', '--verbose']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Authorization: Bearer <redacted>');
    expect(r.stdout + r.stderr).not.toContain(emu.server.testKey);
  });
});
