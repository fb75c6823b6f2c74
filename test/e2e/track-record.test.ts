import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { wilson } from '../mock/helpers.js';
import { fetchBody, useTamperedServer } from '../helpers/tampered.js';

const emu = useEmulator();
const PATH = 'api/agent/v1/track-record.php';

interface Row {
  timeframe: string;
  n_settled: number;
  outcomes: { win: number; loss: number; neutral: number };
  resolved_win_rate: number | null;
  resolved_win_rate_ci95: [number, number] | null;
  maturity: string;
}
interface Body {
  protocol: { id: string; status: string };
  symbol?: string;
  totals: Record<string, number>;
  results: Row[];
  meta: { source: string; tier: string };
}

const lastThree = (stdout: string) => stdout.trimEnd().split('\n').slice(-3).join('\n');
const gateLines = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('gate failed: '));

const tampered = useTamperedServer();

/** Serves the emulator's track record, changed by `alter`, from a server of the test's own. */
async function serveAltered(alter: (body: Body) => void): Promise<string> {
  const body = await fetchBody<Body>(emu.server.url, PATH);
  alter(body);
  return tampered.serve(() => ({ body }));
}

describe('fcast track-record', () => {
  it('prints the protocol, one row per timeframe, the totals and the attribution last', async () => {
    const body = await fetchBody<Body>(emu.server.url, PATH);
    const r = await emu.run(['track-record']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(body.protocol.id);
    expect(r.stdout).toContain('all symbols');
    const rows = r.stdout.split('\n').filter((l) => /^(\d+(min|h|d))\s/.test(l));
    expect(rows.map((l) => l.split(/\s+/)[0])).toEqual(body.results.map((x) => x.timeframe));
    const oneHour = body.results.find((x) => x.timeframe === '1h')!;
    const oneHourRow = rows.find((l) => l.startsWith('1h '))!;
    expect(oneHourRow).toContain(oneHour.n_settled.toLocaleString('en-US'));
    expect(oneHourRow).toContain(`${(oneHour.resolved_win_rate! * 100).toFixed(2)}%`);
    expect(oneHourRow).toContain(
      `${(oneHour.resolved_win_rate_ci95![0] * 100).toFixed(2)}–${(oneHour.resolved_win_rate_ci95![1] * 100).toFixed(2)}%`,
    );
    expect(oneHourRow).toMatch(/growing_sample$/);
    expect(r.stdout).toMatch(new RegExp(`^Total\\s+${body.totals.n_settled!.toLocaleString('en-US')}\\s`, 'm'));
    expect(lastThree(r.stdout)).toContain(body.meta.source);
    expect(lastThree(r.stdout)).toMatch(/demo · data delayed 60 min/);
  });

  it('computes the Total row from the counts and says where each interval lies against 50%', async () => {
    const body = await fetchBody<Body>(emu.server.url, PATH);
    const r = await emu.run(['track-record']);
    const wins = body.results.reduce((a, x) => a + x.outcomes.win, 0);
    const losses = body.results.reduce((a, x) => a + x.outcomes.loss, 0);
    const [low, high] = wilson(wins, wins + losses);
    const pct = (x: number) => (x * 100).toFixed(2);
    const total = r.stdout.split('\n').find((l) => l.startsWith('Total '))!;
    expect(total).toContain(`${pct(wins / (wins + losses))}%  ${pct(low)}–${pct(high)}%`);
    expect(total).toMatch(high < 0.5 ? /%\s+below\s/ : low > 0.5 ? /%\s+above\s/ : /straddles/);
    for (const row of body.results) {
      const line = r.stdout.split('\n').find((l) => l.startsWith(`${row.timeframe} `))!;
      const ci = row.resolved_win_rate_ci95;
      const expected = !ci ? '–' : ci[0] > 0.5 ? 'above' : ci[1] < 0.5 ? 'below' : 'straddles';
      expect(line.split(/\s{2,}/)[7]).toBe(expected);
    }
    expect(r.stdout).toMatch(/\sabove\s/);
    expect(r.stdout).toMatch(/\sbelow\s/);
  });

  it('shows a body that breaks the documented shape with the generic renderer, after a warning', async () => {
    const url = await serveAltered((b) => {
      (b as unknown as Record<string, unknown>).results = 'withheld';
    });
    const r = await emu.run(['track-record'], { env: { FCAST_BASE_URL: url } });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /^warning: track-record\.php: the response does not match the documented shape \(results: /m,
    );
    expect(r.stdout).toMatch(/^results\s+withheld$/m);
    expect(lastThree(r.stdout)).toMatch(/Source: /);
    const strict = await emu.run(['track-record', '--strict'], { env: { FCAST_BASE_URL: url } });
    expect(strict.code).toBe(7);
  });

  it('shows a dash for null rates, never null or NaN', async () => {
    const r = await emu.run(['track-record']);
    const empty = r.stdout.split('\n').find((l) => l.startsWith('1d '))!;
    expect(empty).toMatch(/^1d\s+0\s+0\s+0\s+0\s+–\s+–\s+–\s+–\s+–\s+insufficient_sample$/);
    expect(r.stdout).not.toMatch(/null|NaN|undefined/);
  });

  it('colours maturities on a terminal: insufficient red, early yellow, growing green', async () => {
    const r = await emu.run(['track-record'], { tty: true });
    expect(r.stdout).toMatch(/\x1b\[32mgrowing_sample/);
    expect(r.stdout).toMatch(/\x1b\[33mearly_sample/);
    expect(r.stdout).toMatch(/\x1b\[31minsufficient_sample/);
    const piped = await emu.run(['track-record']);
    expect(piped.stdout).not.toMatch(/\x1b\[/);
  });

  it('sends --symbol in canonical form and names the symbol in the header', async () => {
    const r = await emu.run(['track-record', '--symbol', 'eth-usd']);
    expect(r.code).toBe(0);
    expect(emu.server.requests.map((q) => q.query.symbol)).toEqual(['ETH/USD']);
    expect(r.stdout.split('\n')[0]).toMatch(/ETH\/USD/);
  });

  it('exits 4 with the server detail for an unknown symbol', async () => {
    const r = await emu.run(['track-record', '--symbol', 'NOPE/USD']);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^fcast: HTTP 404 .*NOPE\/USD/);
  });

  it('--format markdown on a narrow terminal is not fitted to it: the footer stays three source lines', async () => {
    const r = await emu.run(['track-record', '--format', 'markdown'], { tty: true, columns: 40 });
    expect(r.code).toBe(0);
    const [disclaimer, source, tier] = r.stdout.trimEnd().split('\n').slice(-3);
    expect(disclaimer).toMatch(/^[A-Z].*\\$/);
    expect(disclaimer!.length).toBeGreaterThan(40);
    expect(source).toMatch(/^Source: .*\\$/);
    expect(tier).toMatch(/^Tier: /);
    expect(r.stdout.trimEnd().split('\n').at(-4)).toBe('');
  });

  it('--format markdown with failing gates and --audit: the document on stdout, every verdict on stderr (exit 8)', async () => {
    const r = await emu.run(['track-record', '--format', 'markdown', '--min-settled', '1', '--audit']);
    expect(r.code).toBe(8);
    expect(r.stdout).toMatch(/^\| TF \|/m);
    expect(r.stdout).not.toMatch(/gate failed|check failed|audit/i);
    expect(gateLines(r.stderr)).toEqual(['gate failed: 1d: n_settled 0 is below --min-settled 1']);
    expect(r.stderr).toMatch(/^fcast: check failed: /m);
  });

  it('--json prints exactly the body, also when a gate fails (exit 8, failures on stderr)', async () => {
    const raw = await (await fetch(`${emu.server.url}/${PATH}`)).text();
    const ok = await emu.run(['track-record', '--json']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe(`${JSON.stringify(JSON.parse(raw), null, 2)}\n`);
    expect(ok.stderr).toBe('');
    const gated = await emu.run(['track-record', '--json', '--min-settled', '1']);
    expect(gated.code).toBe(8);
    expect(gated.stdout).toBe(ok.stdout);
    expect(gateLines(gated.stderr)).toEqual(['gate failed: 1d: n_settled 0 is below --min-settled 1']);
  });

  describe('gates', () => {
    it('pass a figure equal to the threshold: the smallest count of the result passes --min-settled', async () => {
      const body = await fetchBody<Body>(emu.server.url, `${PATH}?symbol=BTC/USD`);
      const smallest = Math.min(...body.results.map((x) => x.n_settled));
      const equal = await emu.run(['track-record', '--symbol', 'BTC/USD', '--min-settled', String(smallest)]);
      expect(equal.code).toBe(0);
      expect(equal.stderr).toBe('');
      const above = await emu.run(['track-record', '--symbol', 'BTC/USD', '--min-settled', String(smallest + 1)]);
      expect(above.code).toBe(8);
      const failing = body.results
        .filter((x) => x.n_settled === smallest)
        .map((x) => `gate failed: ${x.timeframe}: n_settled ${smallest} is below --min-settled ${smallest + 1}`);
      expect(gateLines(above.stderr)).toEqual(failing);
      expect(above.stderr.trimEnd().split('\n').at(-1)).toMatch(/^fcast: check failed: \d+ gate failures?$/);
      expect(lastThree(above.stdout)).toContain(body.meta.source); // the table still printed
    });

    it('--min-maturity lists every timeframe below the level', async () => {
      const body = await fetchBody<Body>(emu.server.url, PATH);
      const r = await emu.run(['track-record', '--min-maturity', 'early_sample']);
      expect(r.code).toBe(8);
      const expected = body.results
        .filter((x) => x.maturity === 'insufficient_sample')
        .map((x) => `gate failed: ${x.timeframe}: maturity 'insufficient_sample' is below --min-maturity early_sample`);
      expect(expected.length).toBeGreaterThan(0);
      expect(gateLines(r.stderr)).toEqual(expected);
      const lowest = await emu.run(['track-record', '--min-maturity', 'insufficient_sample']);
      expect(lowest.code).toBe(0);
    });

    it('a null rate fails --min-win-rate, even at 0', async () => {
      const r = await emu.run(['track-record', '--min-win-rate', '0']);
      expect(r.code).toBe(8);
      expect(gateLines(r.stderr)).toEqual([
        'gate failed: 1d: resolved_win_rate null is below --min-win-rate 0 (no resolved forecasts: a null rate fails)',
      ]);
    });

    it('a result with no timeframes fails any gate, and says why', async () => {
      const url = await serveAltered((b) => {
        b.results = [];
      });
      const gated = await emu.run(['track-record', '--min-settled', '0'], { env: { FCAST_BASE_URL: url } });
      expect(gated.code).toBe(8);
      expect(gated.stderr).toMatch(
        /gate failed: --min-settled 0: the result has no timeframes, so nothing proves the threshold/,
      );
      expect(gated.stdout).toMatch(/no timeframes/);
      const plain = await emu.run(['track-record'], { env: { FCAST_BASE_URL: url } });
      expect(plain.code).toBe(0);
    });

    it.each([
      [
        ['--min-maturity', 'mature'],
        /invalid --min-maturity 'mature'; choose one of insufficient_sample, early_sample, growing_sample/,
      ],
      [['--min-settled', '-1'], /unknown option|--min-settled/],
      [['--min-settled', '2.5'], /--min-settled must be a whole number/],
      [['--min-win-rate', '1.5'], /--min-win-rate must be a number from 0 to 1/],
      [['--min-win-rate', 'high'], /--min-win-rate must be a number from 0 to 1/],
      [['--format', 'html'], /track-record gives --format table, json, csv, tsv or markdown, not 'html'/],
      [['--symbol', 'bitcoin'], /invalid symbol 'bitcoin'/],
    ])('refuses %j with exit 2 before any request', async (args, message) => {
      const r = await emu.run(['track-record', ...args]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
      expect(emu.server.requests).toHaveLength(0);
    });
  });

  describe('--audit', () => {
    it('passes the emulator’s figures', async () => {
      const r = await emu.run(['track-record', '--audit']);
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/^audit: 10\/10 timeframes checked; no disagreement/);
      const bySymbol = await emu.run(['track-record', '--symbol', 'EUR/USD', '--audit']);
      expect(bySymbol.code).toBe(0);
    });

    it('finds a ci95 bound moved by 0.01 and names timeframe, field, published and recomputed figure', async () => {
      let published = 0;
      let recomputed = 0;
      const url = await serveAltered((b) => {
        const row = b.results.find((x) => x.timeframe === '1h')!;
        recomputed = row.resolved_win_rate_ci95![0];
        published = Math.round((recomputed + 0.01) * 10_000) / 10_000;
        row.resolved_win_rate_ci95![0] = published;
      });
      const r = await emu.run(['track-record', '--audit'], { env: { FCAST_BASE_URL: url } });
      expect(r.code).toBe(8);
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines).toEqual([
        `audit: 1h: resolved_win_rate_ci95[0] published ${published}, recomputed ${recomputed.toFixed(4)} (off by 0.0100, tolerance 0.001)`,
        'fcast: check failed: --audit found 1 disagreement',
      ]);
      expect(tampered.server.requests).toEqual([`/${PATH}`]);
      expect(lastThree(r.stdout)).toMatch(/Source: /);
    });

    it('flags a null rate where something was resolved, and keeps --json stdout the body', async () => {
      const url = await serveAltered((b) => {
        const row = b.results.find((x) => x.timeframe === '4h')!;
        row.resolved_win_rate = null;
      });
      const r = await emu.run(['track-record', '--audit', '--json'], { env: { FCAST_BASE_URL: url } });
      expect(r.code).toBe(8);
      expect(JSON.parse(r.stdout).results.find((x: Row) => x.timeframe === '4h').resolved_win_rate).toBeNull();
      expect(r.stderr).toMatch(/^audit: 4h: resolved_win_rate published null, recomputed 0\.5000$/m);
    });

    it('reports counts it cannot recognise as not auditable: a warning, a failure under --strict', async () => {
      const url = await serveAltered((b) => {
        const row = b.results.find((x) => x.timeframe === '2h')!;
        (row as { outcomes: unknown }).outcomes = { up: 1, down: 2 };
      });
      const lenient = await emu.run(['track-record', '--audit'], { env: { FCAST_BASE_URL: url } });
      expect(lenient.code).toBe(0);
      expect(lenient.stderr).toMatch(
        /^warning: audit: 2h: not auditable: its outcomes carry no win and loss count \(keys: up, down\); not checked$/m,
      );
      expect(lenient.stderr).toMatch(/9\/10 timeframes checked, 1 not auditable; no disagreement/);
      const strict = await emu.run(['track-record', '--audit', '--strict'], { env: { FCAST_BASE_URL: url } });
      expect(strict.code).toBe(8);
      expect(strict.stderr).toMatch(/fcast: check failed: 1 timeframe not auditable under --strict/);
      // Unrecognised counts show as dashes in the table, not as guesses.
      expect(lenient.stdout.split('\n').find((l) => l.startsWith('2h '))).toMatch(/^2h\s+[\d,]+\s+–\s+–\s+–\s/);
    });

    it('prints each failure on one line: server text cannot span lines or move the cursor', async () => {
      const url = await serveAltered((b) => {
        const row = b.results.find((x) => x.timeframe === '1h')!;
        row.timeframe = '1h\n\x1b[2Jgate failed: forged';
        (row as unknown as Record<string, unknown>).maturity = 'x\ny';
      });
      const r = await emu.run(['track-record', '--min-maturity', 'early_sample'], { env: { FCAST_BASE_URL: url } });
      expect(r.code).toBe(8);
      expect(r.stderr).not.toMatch(/\x1b/);
      expect(r.stderr).toMatch(
        /^gate failed: 1h gate failed: forged: maturity 'x y' is below --min-maturity early_sample$/m,
      );
      expect(r.stderr).not.toMatch(/^gate failed: forged/m);
    });

    it('reports gate failures and audit disagreements together', async () => {
      const url = await serveAltered((b) => {
        b.results.find((x) => x.timeframe === '1h')!.resolved_win_rate_ci95![1] += 0.01;
      });
      const r = await emu.run(['track-record', '--audit', '--min-settled', '1'], { env: { FCAST_BASE_URL: url } });
      expect(r.code).toBe(8);
      expect(r.stderr).toMatch(/gate failed: 1d/);
      expect(r.stderr).toMatch(/audit: 1h: resolved_win_rate_ci95\[1\]/);
      expect(r.stderr).toMatch(/fcast: check failed: 1 gate failure; --audit found 1 disagreement/);
    });
  });

  describe('--format markdown', () => {
    it('prints a Markdown table ending with the attribution, with no colour even when forced', async () => {
      const body = await fetchBody<Body>(emu.server.url, PATH);
      const r = await emu.run(['track-record', '--format', 'markdown'], { env: { FORCE_COLOR: '1' } });
      expect(r.code).toBe(0);
      expect(r.stdout).not.toMatch(/\x1b\[/);
      const lines = r.stdout.trimEnd().split('\n');
      expect(lines[0]).toBe('### Track record · all symbols');
      const table = lines.filter((l) => l.startsWith('|'));
      expect(table[0]).toBe(
        '| TF | Settled | Wins | Losses | Neutral | Win rate | 95% CI | vs 50% | Positive | Avg return | Maturity |',
      );
      expect(table[1]).toMatch(/^\|(:?-+:?\|)+$/);
      expect(table.slice(2, -1).map((l) => l.split(' | ')[0]!.slice(2))).toEqual(body.results.map((x) => x.timeframe));
      expect(table.at(-1)).toMatch(/^\| \*\*Total\*\* \| /);
      expect(lastThree(r.stdout)).toContain(body.meta.source);
    });

    it('--json wins over --format markdown: stdout is the body, a note on stderr', async () => {
      const r = await emu.run(['track-record', '--format', 'markdown', '--json']);
      expect(r.code).toBe(0);
      expect(() => JSON.parse(r.stdout)).not.toThrow();
      expect(r.stderr).toMatch(/--format markdown is ignored/);
    });
  });

  it('--dry-run sends nothing and does not judge the gates', async () => {
    const r = await emu.run(['track-record', '--dry-run', '--min-settled', '999999']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/api\/agent\/v1\/track-record\.php\n/);
    expect(emu.server.requests).toHaveLength(0);
    // The symbol is its one parameter (the family's table sends no tf to it).
    const one = await emu.run(['track-record', '--symbol', 'eth/usd', '--dry-run']);
    expect(one.stdout).toMatch(/\/track-record\.php\?symbol=ETH%2FUSD\n/);
  });

  it('--help lists the gates and examples', async () => {
    const r = await emu.run(['track-record', '--help']);
    expect(r.code).toBe(0);
    for (const flag of ['--symbol', '--min-maturity', '--min-settled', '--min-win-rate', '--audit', '--format'])
      expect(r.stdout).toContain(flag);
    expect(r.stdout).toMatch(/Examples:/);
  });
});
