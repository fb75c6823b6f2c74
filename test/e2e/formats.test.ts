// --format csv|tsv end to end against the emulator, every output parsed back by a real CSV
// parser (csv-parse; Python's csv module too where /usr/bin/python3 is): one row per record,
// the documented columns, numbers as sent, ISO times beside the epochs, the attribution in
// `source`; spreadsheet formulas from a hostile server disarmed; and the GitHub Actions
// annotations and step summary of a gate run.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { expectExit, type RunResult, tempDir } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { fetchBody, useTamperedServer } from '../helpers/tampered.js';
import { isoSeconds } from '../../src/core/instant.js';
import { runCli } from '../helpers/cli.js';
import { FIXED_NOW } from '../helpers/emulator.js';

const emu = useEmulator();
const tampered = useTamperedServer();

type Row = Record<string, string>;

/** The output as records, by a real parser; every row as long as the header, or it throws. */
function records(r: RunResult, format: 'csv' | 'tsv'): { header: string[]; rows: Row[] } {
  expectExit(r, 0);
  const cells: string[][] =
    format === 'csv'
      ? parse(r.stdout, { relax_column_count: false })
      : // TSV has no quoting: a cell's tab, newline and backslash arrive escaped.
        parse(r.stdout, { delimiter: '\t', quote: false, relax_column_count: false });
  const [header, ...rest] = cells;
  return { header: header!, rows: rest.map((cells) => Object.fromEntries(header!.map((h, i) => [h, cells[i]!]))) };
}

const isoOf = (epoch: string) => isoSeconds(Number(epoch));

const FORECAST_HEADER = [
  'symbol',
  'tf',
  'ts',
  'ts_iso',
  'horizon_min',
  'target_t',
  'target_t_iso',
  'age_s',
  'status',
  'anchor_price',
  'target_price',
  'ia1.score',
  'ia1.rsi_score',
  'ia1.ema_score',
  'ia2.predicted_change_pct',
  'ia2.confidence',
  'ia2.label_raw',
  'ia2.p_long',
  'ia2.p_short',
  'ia2.p_flat',
  'ia3.label',
  'ia3.direction',
  'ia3.p_long',
  'ia3.p_short',
  'ia3.p_flat',
  'ia3.policy_version',
  'price.last',
  'price.t',
  'price.t_iso',
  'price.change24h_pct',
  'price.source',
  'source',
];

interface Forecast {
  tf: string;
  ts: number;
  ia3: { p_long: number };
  anchor_price: number;
}
interface Envelope {
  symbol: string;
  predictions: Record<string, Forecast>;
  meta: { source: string };
}

describe('predict and demo', () => {
  it.each(['csv', 'tsv'] as const)(
    'predict of two symbols as %s: one row per symbol × timeframe, the documented columns, the figures of --json',
    async (format) => {
      const json = await emu.runWithKey(['predict', 'BTC/USD', 'ETH/USD', '--json']);
      const bodies = JSON.parse(json.stdout) as Envelope[];
      const r = await emu.runWithKey(['predict', 'BTC/USD', 'ETH/USD', '--format', format]);
      expect(r.stderr).toBe('');
      const { header, rows } = records(r, format);
      expect(header).toEqual(FORECAST_HEADER);
      const expected = bodies.flatMap((b) => Object.values(b.predictions).map((f) => [b, f] as const));
      expect(rows).toHaveLength(expected.length);
      expect(rows.length).toBeGreaterThan(40);
      rows.forEach((row, i) => {
        const [body, forecast] = expected[i]!;
        expect(row.symbol).toBe(body.symbol);
        expect(row.tf).toBe(forecast.tf);
        expect(Number(row['ia3.p_long'])).toBe(forecast.ia3.p_long);
        expect(Number(row.anchor_price)).toBe(forecast.anchor_price);
        expect(row.ts_iso).toBe(isoOf(row.ts!));
        expect(row.ts_iso).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
        expect(row.target_t_iso).toBe(isoOf(row.target_t!));
        expect(row.source).toBe(body.meta.source);
      });
    },
  );

  it('demo --tf keeps those timeframes; the bytes are the same on a terminal and in a pipe', async () => {
    const piped = await emu.run(['demo', 'ETH/USD', '--tf', '1h,6h', '--format', 'csv']);
    const { rows } = records(piped, 'csv');
    expect(rows.map((r) => [r.symbol, r.tf])).toEqual([
      ['ETH/USD', '1h'],
      ['ETH/USD', '6h'],
    ]);
    const tty = await emu.run(['demo', 'ETH/USD', '--tf', '1h,6h', '--format', 'csv'], {
      tty: true,
      columns: 60,
      env: { FORCE_COLOR: '1' },
    });
    expect(tty.stdout).toBe(piped.stdout);
  });

  it('a symbol that fails leaves the others in the table; its error goes to stderr, the exit code is its', async () => {
    const r = await emu.runWithKey(['predict', 'BTC/USD', 'NOPE/USD', '--format', 'csv']);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('NOPE/USD');
    const rows = parse(r.stdout, { columns: true }) as Row[];
    expect(new Set(rows.map((row) => row.symbol))).toEqual(new Set(['BTC/USD']));
  });

  it('--format nope, or a format the command does not give, is exit 2 before any request', async () => {
    for (const argv of [
      ['demo', '--format', 'nope'],
      ['auth', 'status', '--format', 'markdown'],
      ['cmd', 'analyze', 'BTC/USD', '1h', '--format', 'csv'],
      ['discover', '--format', 'tsv'],
    ]) {
      const r = await emu.runWithKey(argv);
      expectExit(r, 2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/gives --format .*, not '(nope|markdown|csv|tsv)'/);
    }
    expect(emu.server.requests).toHaveLength(0);
  });
});

describe('symbols, track-record, accuracy, verify and the gateway', () => {
  it('symbols: one row per symbol × timeframe, with the time of its newest forecast', async () => {
    const body = JSON.parse((await emu.runWithKey(['symbols', '--json'])).stdout) as {
      symbols: Array<{ symbol: string; timeframes: Record<string, number> }>;
    };
    const { header, rows } = records(await emu.runWithKey(['symbols', '--format', 'csv']), 'csv');
    expect(header.slice(0, 4)).toEqual(['symbol', 'tf', 'ts', 'ts_iso']);
    expect(header.at(-1)).toBe('source');
    const expected = body.symbols.flatMap((s) => Object.entries(s.timeframes).map(([tf, ts]) => [s.symbol, tf, ts]));
    expect(rows.map((r) => [r.symbol, r.tf, Number(r.ts)])).toEqual(expected);
    for (const r of rows) expect(r.ts_iso).toBe(isoOf(r.ts!));
  });

  it.each([
    [['track-record'], 'csv'],
    [['accuracy', '--tf', '1h', '--symbol', 'BTC/USD'], 'tsv'],
  ] as const)('%j as %s: one row per timeframe, the figures as published', async (argv, format) => {
    const body = JSON.parse((await emu.run([...argv, '--json'])).stdout) as {
      results: Array<{
        timeframe: string;
        n_settled: number;
        outcomes: { win: number };
        resolved_win_rate_ci95: number[];
      }>;
      protocol: { id: string };
    };
    const { header, rows } = records(await emu.run([...argv, '--format', format]), format);
    expect(header).toEqual(
      expect.arrayContaining(['timeframe', 'n_settled', 'outcomes.win', 'resolved_win_rate_ci95.0', 'protocol.id']),
    );
    expect(rows).toHaveLength(body.results.length);
    rows.forEach((row, i) => {
      const result = body.results[i]!;
      expect(row.timeframe).toBe(result.timeframe);
      expect(Number(row.n_settled)).toBe(result.n_settled);
      expect(Number(row['outcomes.win'])).toBe(result.outcomes.win);
      expect(row['resolved_win_rate_ci95.0']).toBe(String(result.resolved_win_rate_ci95?.[0] ?? ''));
      expect(row['protocol.id']).toBe(body.protocol.id);
      expect(row.source).toMatch(/^Market Forecast Agent/);
    });
  });

  it('verify: one row per market close, the forecast and settlement beside each', async () => {
    const body = JSON.parse((await emu.run(['verify', '1', '--json'])).stdout) as {
      market: { closes: Array<{ t: number; close: number }> };
    };
    const { rows } = records(await emu.run(['verify', '1', '--format', 'csv']), 'csv');
    expect(rows.map((r) => [Number(r.t), Number(r.close)])).toEqual(body.market.closes.map((c) => [c.t, c.close]));
    for (const r of rows) {
      expect(r.id).toBe('1');
      expect(r.t_iso).toBe(isoOf(r.t!));
      expect(r['settlement.outcome']).toMatch(/^(win|loss|neutral)$/);
    }
  });

  it('the gateway lists: one row per item; macro names the list of each row', async () => {
    const snapshot = records(await emu.runWithKey(['cmd', 'snapshot', '--format', 'csv']), 'csv');
    expect(snapshot.header).toEqual(expect.arrayContaining(['data.as_of', 'symbol', 'last', 'change24h_pct']));
    expect(snapshot.rows.length).toBeGreaterThan(3);
    const macro = records(await emu.runWithKey(['cmd', 'macro', '--format', 'tsv']), 'tsv');
    expect(new Set(macro.rows.map((r) => r.list))).toEqual(new Set(['rates', 'indices', 'fx', 'commodities']));
  });
});

describe('a hostile server', () => {
  it('text cells that a spreadsheet would run get a leading quote in CSV; numbers, negative ones too, never', async () => {
    const demo = await fetchBody<Envelope & { predictions: Record<string, Record<string, unknown>> }>(
      emu.server.url,
      '/api/agent/v1/demo.php',
    );
    const first = Object.values(demo.predictions)[0]!;
    Object.assign(first, {
      status: '=HYPERLINK("http://evil.example","click")',
      anchor_price: -0.19,
      note: '@SUM(1+1)\tx',
      '=cmd|"/c calc"!A1': '+1',
      // OWASP's last two: a leading tab, a leading carriage return (written as a line break, quoted).
      tabbed: '\t=1+1',
      carriage: '\r=1+1',
    });
    (first.ia2 as Record<string, unknown>).label_raw = '-2+3';
    const raw = JSON.stringify(demo).replace('"anchor_price":-0.19', '"anchor_price":-0.190');
    const url = await tampered.serve(() => ({ body: null, raw }));
    const r = await runCli(['demo', '--format', 'csv'], { now: FIXED_NOW, env: { FCAST_BASE_URL: url } });
    const { header, rows } = records(r, 'csv');
    const row = rows[0]!;
    expect(row.status).toBe('\'=HYPERLINK("http://evil.example","click")');
    expect(row['ia2.label_raw']).toBe("'-2+3");
    expect(row.note).toBe("'@SUM(1+1)\tx");
    expect(row.tabbed).toBe("'\t=1+1");
    expect(row.carriage).toBe("'\n=1+1");
    expect(header).toContain('\'=cmd|"/c calc"!A1');
    expect(row['=cmd|"/c calc"!A1']).toBeUndefined();
    expect(row['\'=cmd|"/c calc"!A1']).toBe("'+1");
    // The number as sent, trailing zero and sign: no prefix, no rewriting.
    expect(row.anchor_price).toBe('-0.190');
    expect(r.stdout).toContain(',-0.190,');
  });

  it('terminal controls in server text are removed, in CSV and TSV alike', async () => {
    const demo = await fetchBody<{ predictions: Record<string, Record<string, unknown>> }>(
      emu.server.url,
      '/api/agent/v1/demo.php',
    );
    Object.values(demo.predictions)[0]!.status = 'open\x1b[2J\x1b]8;;http://x\x07\u202e';
    const url = await tampered.serve(() => ({ body: demo }));
    for (const format of ['csv', 'tsv'] as const) {
      const r = await runCli(['demo', '--format', format], { now: FIXED_NOW, env: { FCAST_BASE_URL: url } });
      expect(records(r, format).rows[0]!.status).toBe('open');
      expect(r.stdout).not.toMatch(/[\x1b\x07\u202e]/);
    }
  });
});

describe.skipIf(!existsSync('/usr/bin/python3'))("Python's csv module", () => {
  it('reads predict of two symbols, in CSV and TSV, as the same records', async () => {
    const dir = tempDir();
    for (const format of ['csv', 'tsv'] as const) {
      const r = await emu.runWithKey(['predict', 'BTC/USD', 'ETH/USD', '--format', format]);
      writeFileSync(join(dir, `p.${format}`), r.stdout);
    }
    const script = `
import csv, sys, datetime, json
out = {}
for name, kw in (('csv', {}), ('tsv', {'delimiter': '\\t', 'quoting': csv.QUOTE_NONE})):
    with open(sys.argv[1] + '/p.' + name, newline='') as f:
        rows = list(csv.DictReader(f, **kw))
    for r in rows:
        float(r['ia3.p_long']); float(r['anchor_price']); int(r['ts'])
        t = datetime.datetime.strptime(r['ts_iso'], '%Y-%m-%dT%H:%M:%SZ').replace(tzinfo=datetime.timezone.utc)
        assert t.timestamp() == int(r['ts']), r
    out[name] = [len(rows), len(rows[0]), sorted({r['symbol'] for r in rows}), rows[0]['source']]
print(json.dumps(out))
`;
    const py = spawnSync('/usr/bin/python3', ['-c', script, dir], { encoding: 'utf8' });
    expect(py.stderr).toBe('');
    const out = JSON.parse(py.stdout);
    expect(out.csv).toEqual(out.tsv);
    expect(out.csv[0]).toBeGreaterThan(40);
    expect(out.csv[1]).toBe(FORECAST_HEADER.length);
    expect(out.csv[2]).toEqual(['BTC/USD', 'ETH/USD']);
    expect(out.csv[3]).toMatch(/^Market Forecast Agent/);
  });
});

describe('GitHub Actions', () => {
  const gate = ['accuracy', '--symbol', 'BTC/USD', '--min-settled', '500'];

  async function timeframes(): Promise<{ all: string[]; failing: string[] }> {
    const body = JSON.parse((await emu.run(['accuracy', '--symbol', 'BTC/USD', '--json'])).stdout) as {
      results: Array<{ timeframe: string; n_settled: number }>;
    };
    return {
      all: body.results.map((r) => r.timeframe),
      failing: body.results.filter((r) => r.n_settled < 500).map((r) => r.timeframe),
    };
  }

  it('a failed gate: one ::error per failing timeframe on stderr, the Markdown table and verdict in the summary', async () => {
    const { all, failing } = await timeframes();
    expect(failing.length).toBeGreaterThan(1);
    const summary = join(tempDir(), 'summary.md');
    writeFileSync(summary, '# earlier\n');
    const r = await emu.run([...gate, '--format', 'csv'], {
      env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary },
    });
    expectExit(r, 8);
    const errors = r.stderr.split('\n').filter((l) => l.startsWith('::error'));
    expect(errors).toEqual(
      failing.map((tf) =>
        expect.stringMatching(
          new RegExp(
            `^::error title=fcast accuracy%3A gate failed \\(${tf}\\)::gate failed: ${tf}: n_settled \\d+ is below --min-settled 500$`,
          ),
        ),
      ),
    );
    // stdout stays data.
    expect(r.stdout).not.toContain('::');
    expect(parse(r.stdout)).toHaveLength(all.length + 1);
    const text = readFileSync(summary, 'utf8');
    expect(text.startsWith('# earlier\n### Track record · BTC/USD')).toBe(true);
    expect(text).toMatch(/^\| TF \| Settled \|/m);
    expect(text).toContain(`**Verdict: failed** (exit 8). fcast accuracy: ${failing.length} gate failures.`);
  });

  it('a small sample is a ::warning; a passing run says so in the summary', async () => {
    const summary = join(tempDir(), 'summary.md');
    const r = await emu.run(['accuracy', '--symbol', 'BTC/USD', '--min-settled', '0'], {
      env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary },
    });
    expectExit(r, 0);
    expect(r.stderr).not.toContain('::error');
    expect(r.stderr).toMatch(
      /^::warning title=fcast accuracy%3A small sample \(\w+\)::\w+: maturity insufficient_sample/m,
    );
    expect(readFileSync(summary, 'utf8')).toContain('**Verdict: passed.** fcast accuracy: every check held.');
  });

  it('a --baseline shrink and an --audit disagreement: an ::error each, on their own titles, and the verdict', async () => {
    const base = join(tempDir(), 'base.json');
    writeFileSync(base, (await emu.run(['track-record', '--json'])).stdout);
    emu.server.setFaults([{ kind: 'shrink' }]);
    const summary = join(tempDir(), 'summary.md');
    const env = { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary };
    const shrunk = await emu.run(['track-record', '--baseline', base, '--format', 'tsv'], { env });
    expectExit(shrunk, 8);
    const shrinks = shrunk.stderr.split('\n').filter((l) => l.startsWith('::error'));
    expect(shrinks).toEqual([
      expect.stringMatching(
        /^::error title=fcast track-record%3A baseline \(1h\)::baseline: 1h: counts went down since .*base\.json: n_settled \d+ -> \d+/,
      ),
    ]);
    expect(readFileSync(summary, 'utf8')).toMatch(
      /\*\*Verdict: failed\*\* \(exit 8\)\. fcast track-record: 1 timeframe with fewer/,
    );

    emu.server.setFaults([]);
    const record = await fetchBody<{ results: Array<Record<string, unknown>> }>(
      emu.server.url,
      '/api/agent/v1/track-record.php',
    );
    record.results[0]!.resolved_win_rate = 0.99;
    const url = await tampered.serve(() => ({ body: record }));
    const audited = await runCli(['track-record', '--audit', '--format', 'csv'], {
      now: FIXED_NOW,
      env: { ...env, FCAST_BASE_URL: url },
    });
    expectExit(audited, 8);
    const tf = String(record.results[0]!.timeframe);
    const audits = audited.stderr.split('\n').filter((l) => l.startsWith('::error'));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatch(
      new RegExp(
        `^::error title=fcast track-record%3A audit \\(${tf}\\)::audit: ${tf}: resolved_win_rate published 0\\.99, recomputed `,
      ),
    );
    expect(parse(audited.stdout)).toHaveLength(record.results.length + 1);
  });

  it('without GITHUB_ACTIONS=true, or with --no-annotations: neither annotations nor a summary', async () => {
    const summary = join(tempDir(), 'summary.md');
    const plain = await emu.run(gate, { env: { GITHUB_STEP_SUMMARY: summary } });
    const off = await emu.run([...gate, '--no-annotations'], {
      env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary },
    });
    for (const r of [plain, off]) {
      expectExit(r, 8);
      expect(r.stderr).not.toContain('::');
    }
    expect(off.stderr).toBe(plain.stderr);
    expect(existsSync(summary)).toBe(false);
  });
});
