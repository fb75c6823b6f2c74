import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { fetchBody, useTamperedServer } from '../helpers/tampered.js';

const emu = useEmulator();
const PATH = 'api/agent/v1/verify.php';

interface VerifyBody {
  forecast: {
    symbol: string;
    direction: string;
    anchor_price: number;
    ts: number;
    target_t: number;
    [k: string]: unknown;
  };
  market: { closes: Array<{ t: number; close: number }> };
  settlement: { close_at_target: number; outcome: string; [k: string]: unknown };
  meta: { source: string };
}

const lastThree = (stdout: string) => stdout.trimEnd().split('\n').slice(-3).join('\n');
const utc = (t: number) => `${new Date(t * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

const tampered = useTamperedServer();

async function serveAltered(alter: (body: VerifyBody) => void): Promise<string> {
  const body = await fetchBody<VerifyBody>(emu.server.url, `${PATH}?id=1`);
  alter(body);
  return tampered.serve(() => ({ body }));
}

describe('fcast verify', () => {
  it('shows the stored forecast, the closes as a table with UTC times, the settlement and the check', async () => {
    const body = await fetchBody<VerifyBody>(emu.server.url, `${PATH}?id=1`);
    emu.server.requests.splice(0);
    const r = await emu.run(['verify', '1']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(emu.server.requests.map((q) => q.query)).toEqual([{ id: '1' }]);
    expect(r.stdout).toMatch(/^forecast$/m);
    expect(r.stdout).toMatch(/^settlement$/m);
    expect(r.stdout).toMatch(new RegExp(`^  symbol\\s+${body.forecast.symbol.replace('/', '\\/')}$`, 'm'));
    expect(r.stdout).toContain(utc(body.forecast.ts));
    expect(r.stdout).toMatch(/^\s+t\s+close$/m); // the closes as a table
    expect(r.stdout).toContain(utc(body.market.closes.at(-1)!.t));
    expect(r.stdout).not.toMatch(/\b1736\d{6}\b/); // no raw epoch seconds left
    const check = r.stdout.split('\n').find((l) => l.startsWith('Check: '))!;
    expect(check).toMatch(
      new RegExp(
        `^Check: ${body.forecast.direction} from [\\d,.]+ to [\\d,.]+ \\([+-][\\d.]+%\\) -> ${body.settlement.outcome}`,
      ),
    );
    expect(check).toMatch(/; the published outcome agrees$/);
    expect(lastThree(r.stdout)).toContain(body.meta.source);
  });

  it('--json prints exactly the body', async () => {
    const raw = await (await fetch(`${emu.server.url}/${PATH}?id=2`)).text();
    const r = await emu.run(['verify', '2', '--json']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${JSON.stringify(JSON.parse(raw), null, 2)}\n`);
    expect(r.stderr).toBe('');
  });

  it('exits 3 with the server detail for a forecast that has not expired (403)', async () => {
    const r = await emu.run(['verify', '55000']);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^fcast: HTTP 403 Forecast not yet expired: forecast 55000 has not expired yet/);
  });

  it('exits 4 with the server detail for an unknown id (404), the problem body on stdout with --json', async () => {
    const r = await emu.run(['verify', '999999']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^fcast: HTTP 404 .*no forecast with id 999999/);
    const json = await emu.run(['verify', '999999', '--json']);
    expect(json.code).toBe(4);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 404 });
  });

  it.each(['0', 'abc', '1.5', '1e3', '0x10', '-1', '', '99999999999999999999'])(
    'refuses id %j with exit 2 and sends nothing',
    async (id) => {
      const r = await emu.run(['verify', id]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^fcast: /);
      expect(emu.server.requests).toHaveLength(0);
    },
  );

  it('says when the published outcome does not follow from the figures', async () => {
    const url = await serveAltered((b) => {
      b.settlement.outcome = b.settlement.outcome === 'win' ? 'loss' : 'win';
    });
    const r = await emu.run(['verify', '1'], { env: { FCAST_BASE_URL: url } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^Check: .* -> \w+ \(neutral within ±0\.01%\); the published outcome is \w+: it does NOT agree$/m,
    );
    expect(lastThree(r.stdout)).toMatch(/Source: /);
  });

  it('finds the close in the market closes when the settlement does not name it, and says when a figure is missing', async () => {
    const url = await serveAltered((b) => {
      delete (b.settlement as Record<string, unknown>).close_at_target;
    });
    const r = await emu.run(['verify', '1'], { env: { FCAST_BASE_URL: url } });
    expect(r.stdout).toMatch(/; the published outcome agrees$/m);
    const bare = await serveAltered((b) => {
      delete (b.forecast as Record<string, unknown>).anchor_price;
    });
    const missing = await emu.run(['verify', '1'], { env: { FCAST_BASE_URL: bare } });
    expect(missing.code).toBe(0);
    expect(missing.stdout).toMatch(/^Check: not possible: the body does not show an anchor price$/m);
  });

  it('prints prices with thousands separators and the precision the body publishes', async () => {
    const btc = await serveAltered((b) => {
      b.forecast.anchor_price = 96515.1;
      b.settlement.close_at_target = 96040.86;
      b.market.closes[0]!.close = 96515.1;
    });
    const r = await emu.run(['verify', '1'], { env: { FCAST_BASE_URL: btc } });
    expect(r.stdout).toMatch(/^ {2}anchor_price\s+96,515\.10$/m);
    expect(r.stdout).toMatch(/^ {2}close_at_target\s+96,040\.86$/m);
    expect(r.stdout).toMatch(/\s96,515\.10$/m);
    expect(r.stdout).not.toMatch(/96515\.1\b/);
    expect(r.stdout).toMatch(/^Check: \w+ from 96,515\.10 to 96,040\.86 /m);
    // A stock at two decimals stays at two: 229.87, never 229.870.
    const aapl = await serveAltered((b) => {
      b.forecast.symbol = 'AAPL/USD';
      b.forecast.anchor_price = 229.87;
      b.forecast.target_price = 230.1;
      b.settlement.close_at_target = 231.05;
      for (const c of b.market.closes) c.close = 230.4;
    });
    const stock = await emu.run(['verify', '1'], { env: { FCAST_BASE_URL: aapl } });
    expect(stock.stdout).toMatch(/^ {2}anchor_price\s+229\.87$/m);
    expect(stock.stdout).toMatch(/^ {2}target_price\s+230\.10$/m);
    expect(stock.stdout).toMatch(/ from 229\.87 to 231\.05 /);
    expect(stock.stdout).toMatch(/\s230\.40$/m);
    expect(stock.stdout).not.toMatch(/\b(229\.870|230\.400|231\.050)\b/);
  });
});
