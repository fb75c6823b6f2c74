import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { fetchBody, useTamperedServer } from '../helpers/tampered.js';

const emu = useEmulator();
const PATH = 'api/agent/v1/accuracy.php';

interface Row {
  timeframe: string;
  n_settled: number;
  resolved_win_rate: number | null;
  resolved_win_rate_ci95: [number, number] | null;
  maturity: string;
}
interface Body {
  symbol?: string;
  results: Row[];
  meta: { source: string };
}

const lastThree = (stdout: string) => stdout.trimEnd().split('\n').slice(-3).join('\n');
const gateLines = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('gate failed: '));

const tampered = useTamperedServer();

describe('fcast accuracy', () => {
  it('--dry-run prints the one request with its symbol and timeframe, sends nothing, and judges no gate', async () => {
    const r = await emu.run(['accuracy', '--tf', '1H', '--symbol', 'eth/usd', '--dry-run', '--min-settled', '999999']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/api\/agent\/v1\/accuracy\.php\?symbol=ETH%2FUSD&tf=1h\n/);
    expect(r.stderr).toBe('');
    expect(emu.server.requests).toHaveLength(0);
  });
  it('--tf gives one row, sent as typed in canonical form, with the attribution last', async () => {
    const body = await fetchBody<Body>(emu.server.url, `${PATH}?tf=1h&symbol=ETH/USD`);
    emu.server.requests.splice(0);
    const r = await emu.run(['accuracy', '--tf', '1H', '--symbol', 'eth/usd']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(emu.server.requests.map((q) => [q.path, q.query])).toEqual([[`/${PATH}`, { tf: '1h', symbol: 'ETH/USD' }]]);
    expect(r.stdout.split('\n')[0]).toContain('ETH/USD');
    const rows = r.stdout.split('\n').filter((l) => /^\d+(min|h|d)\s/.test(l));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatch(new RegExp(`^1h\\s+${body.results[0]!.n_settled}\\s`));
    expect(lastThree(r.stdout)).toContain(body.meta.source);
  });

  it('without filters asks for everything', async () => {
    const r = await emu.run(['accuracy']);
    expect(r.code).toBe(0);
    expect(emu.server.requests.map((q) => q.query)).toEqual([{}]);
  });

  it.each(['7h', '1week', '45min', ''])(
    'refuses --tf %j with exit 2, naming the allowed values, and sends nothing',
    async (tf) => {
      const r = await emu.run(['accuracy', '--tf', tf]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/1min, 5min, 15min, 30min, 1h, 2h, 3h, 4h, 6h, 1d/);
      expect(emu.server.requests).toHaveLength(0);
    },
  );

  it.each([
    ['60min', '1h'],
    ['60m', '1h'],
    ['24h', '1d'],
    ['1440min', '1d'],
    ['2H', '2h'],
  ])('takes --tf %s as %s, the same length of time', async (typed, sent) => {
    const r = await emu.run(['accuracy', '--tf', typed]);
    expect(r.code).toBe(0);
    expect(emu.server.requests.map((q) => q.query)).toEqual([{ tf: sent }]);
  });

  it('exits 4 for a symbol the service does not know', async () => {
    const r = await emu.run(['accuracy', '--symbol', 'ZZZ/USD', '--tf', '1h']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/HTTP 404/);
  });

  describe('the CI recipe: --tf 1h --min-maturity growing_sample --min-win-rate R', () => {
    it('passes at a win rate equal to the published one and fails just above it', async () => {
      const body = await fetchBody<Body>(emu.server.url, `${PATH}?tf=1h`);
      const row = body.results[0]!;
      expect(row.maturity).toBe('growing_sample');
      const rate = row.resolved_win_rate!;
      const equal = await emu.run([
        'accuracy',
        '--tf',
        '1h',
        '--min-maturity',
        'growing_sample',
        '--min-win-rate',
        String(rate),
      ]);
      expect(equal.code).toBe(0);
      expect(equal.stderr).toBe('');
      const above = Math.round((rate + 0.0001) * 10_000) / 10_000;
      const failing = await emu.run([
        'accuracy',
        '--tf',
        '1h',
        '--min-maturity',
        'growing_sample',
        '--min-win-rate',
        String(above),
      ]);
      expect(failing.code).toBe(8);
      expect(gateLines(failing.stderr)).toEqual([
        `gate failed: 1h: resolved_win_rate ${rate} is below --min-win-rate ${above}`,
      ]);
      expect(lastThree(failing.stdout)).toContain(body.meta.source);
    });

    it('fails while the timeframe is not yet growing_sample, naming the maturity', async () => {
      const body = await fetchBody<Body>(emu.server.url, `${PATH}?tf=1h&symbol=EUR/USD`);
      const maturity = body.results[0]!.maturity;
      expect(maturity).not.toBe('growing_sample');
      const r = await emu.run([
        'accuracy',
        '--symbol',
        'EUR/USD',
        '--tf',
        '1h',
        '--min-maturity',
        'growing_sample',
        '--json',
      ]);
      expect(r.code).toBe(8);
      expect(JSON.parse(r.stdout)).toEqual(body);
      expect(gateLines(r.stderr)).toEqual([
        `gate failed: 1h: maturity '${maturity}' is below --min-maturity growing_sample`,
      ]);
    });

    it('--min-settled passes the exact count', async () => {
      const body = await fetchBody<Body>(emu.server.url, `${PATH}?tf=6h`);
      const n = body.results[0]!.n_settled;
      expect((await emu.run(['accuracy', '--tf', '6h', '--min-settled', String(n)])).code).toBe(0);
      expect((await emu.run(['accuracy', '--tf', '6h', '--min-settled', String(n + 1)])).code).toBe(8);
    });

    it('a timeframe with no resolved forecasts fails a rate gate', async () => {
      const r = await emu.run(['accuracy', '--tf', '1d', '--min-win-rate', '0.1']);
      expect(r.code).toBe(8);
      expect(gateLines(r.stderr)).toEqual([
        'gate failed: 1d: resolved_win_rate null is below --min-win-rate 0.1 (no resolved forecasts: a null rate fails)',
      ]);
    });

    it('checks the gate values before any request', async () => {
      const r = await emu.run(['accuracy', '--tf', '1h', '--min-win-rate', '55']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/--min-win-rate must be a number from 0 to 1, got '55'/);
      expect(emu.server.requests).toHaveLength(0);
    });
  });

  describe('--audit', () => {
    it('passes the emulator’s intervals, including a null one', async () => {
      for (const tf of ['1h', '4h', '1d']) {
        const r = await emu.run(['accuracy', '--tf', tf, '--audit']);
        expect(r.code, tf).toBe(0);
        expect(r.stderr).toMatch(/no disagreement/);
      }
    });

    it('finds an upper bound that is 0.01 off', async () => {
      const body = await fetchBody<Body>(emu.server.url, `${PATH}?tf=1h`);
      const row = body.results[0]!;
      const correct = row.resolved_win_rate_ci95![1];
      row.resolved_win_rate_ci95![1] = Math.round((correct - 0.01) * 10_000) / 10_000;
      const url = await tampered.serve(() => ({ body }));
      const r = await emu.run(['accuracy', '--tf', '1h', '--audit'], { env: { FCAST_BASE_URL: url } });
      expect(r.code).toBe(8);
      expect(tampered.server.requests).toEqual([`/${PATH}?tf=1h`]);
      expect(r.stderr).toContain(
        `audit: 1h: resolved_win_rate_ci95[1] published ${row.resolved_win_rate_ci95![1]}, recomputed ${correct.toFixed(4)}`,
      );
    });
  });

  it('--format markdown gives a Markdown table with the attribution in the last three lines', async () => {
    const body = await fetchBody<Body>(emu.server.url, `${PATH}?tf=1h`);
    const r = await emu.run(['accuracy', '--tf', '1h', '--format', 'markdown']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\| 1h \| [\d,]+ \| /m);
    expect(lastThree(r.stdout)).toContain(body.meta.source);
  });

  it('--help shows the timeframes and the CI example', async () => {
    const r = await emu.run(['accuracy', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain('1min, 5min, 15min, 30min, 1h, 2h, 3h, 4h, 6h, 1d');
    expect(r.stdout).toContain('--min-maturity growing_sample --min-win-rate 0.55');
  });
});
