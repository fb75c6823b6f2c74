// `journal export`, then `journal import` of it into the same journal, then `journal export`
// again, as a user runs them (issue 30, item 5): nothing added, the second export byte for byte
// the first, and an empty journal given the same records; for a journal whose text holds every
// kind of thing the export used to lose (docs/decisions/2026-11-27-lossless-journal-export.md):
// before, importing its own CSV export added 9 of these 18 forecasts again and skipped one.
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { type Entry, forecastAt, writeJournalLines } from '../helpers/journal-round-trip.js';
import { JOURNAL_VERSION, type ForecastRecord } from '../../src/journal/record.js';

const KEY = 'mfa_ag_0123456789abcdef0123456789abcdef';
const TEXTS = [
  'BTC/USD',
  '＝1+1',
  "'=x",
  "''+y",
  '\t=tab',
  '\r=cr',
  '\u202Eevil',
  'a\u2066b\u2069',
  '\x1b[31mred',
  '\x85c1',
  '',
  KEY,
  '\\u0041',
  'C:\\data\\',
  'q"uote,comma\nnl',
  '\ud800lone',
  '\u2028ls',
  '@sum',
];

/**
 * 18 forecasts, each text in symbol, timeframe, direction, tier, reason or an engine's label,
 * open, settled or unsettleable; with every engine, some of it, or none (ia3-only).
 */
const entries: Entry[] = TEXTS.map((text, k): Entry => {
  const engines: Pick<ForecastRecord, 'ia1' | 'ia2' | 'ia3'> =
    k % 4 === 1
      ? {
          ia1: { score: -0.5365, rsi_score: 1e-7, ema_score: 0.30000000000000004 },
          ia2: {
            p_long: 0.2766,
            p_short: 0.2778,
            p_flat: 0.4456,
            predicted_change_pct: -0.0093,
            confidence: 0.4456,
            label_raw: text,
          },
          ia3: { label: text, policy_version: 3 },
        }
      : k % 4 === 2
        ? {
            ia1: null,
            ia2: {
              p_long: 1.25,
              p_short: null,
              p_flat: -0.25,
              predicted_change_pct: 12,
              confidence: null,
              label_raw: null,
            },
            ia3: { label: null, policy_version: 3 },
          }
        : { ia1: null, ia2: null, ia3: null };
  const forecast = forecastAt(k, {
    symbol: text,
    tf: k % 3 === 0 ? text : '1h',
    direction: k % 2 === 1 ? text : 'long',
    tier: k % 4 === 0 ? text : null,
    ...engines,
  });
  return [forecast, (['open', 'settled', 'unsettleable'] as const)[k % 3]!, 10_100, text];
});

/** The journal's lines of November 2026, sorted, the key masked as an export shows it (it never carries one). */
const linesOf = (data: string): string[] =>
  readFileSync(join(data, 'journal', '2026-11.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => l.replaceAll(KEY, 'mfa_ag_0123...cdef'))
    .sort();

const summary = (file: string, format: string, added: string, there: number) =>
  `read          18 rows of ${file} (${format})\nadded         ${added}\nalready there ${there}\nskipped       0\n`;

describe.each(['csv', 'tsv', 'jsonl'] as const)('journal export --format %s', (format) => {
  it('imported into the same journal adds nothing, exports again byte for byte, and gives an empty journal the same records', async () => {
    const a = tempDir();
    writeJournalLines(a, entries, 'no candle');
    const exportOf = (data: string) =>
      runCli(['journal', 'export', '--origin', 'all', '--format', format], { env: { FCAST_DATA_DIR: data } });

    const first = await exportOf(a);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toBe('');
    // Safe on a terminal: no control or bidi mark; the key masked; the text still all there.
    expect(first.stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028]/);
    expect(first.stdout).not.toContain(KEY);
    expect(first.stdout).toContain('\\u202eevil');
    expect(first.stdout).toContain('\\u001b[31mred');
    if (format === 'csv') {
      expect(first.stdout).toContain("\n''=x,");
      expect(first.stdout).toContain('\n"",');
      expect(first.stdout).toContain('\n\\u005cu0041,');
    }
    if (format === 'tsv') expect(first.stdout).toContain('\n\\&\t');
    const file = join(tempDir(), `export.${format}`);
    writeFileSync(file, first.stdout);

    const again = await runCli(['journal', 'import', file], { env: { FCAST_DATA_DIR: a } });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toBe('');
    expect(again.stdout).toBe(summary(file, format, '0 forecasts, 0 settlements, 0 prices', 18));
    const second = await exportOf(a);
    expect(second.stdout).toBe(first.stdout);

    const b = tempDir();
    const fresh = await runCli(['journal', 'import', file], { env: { FCAST_DATA_DIR: b } });
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fresh.stdout).toBe(summary(file, format, '18 forecasts, 12 settlements, 0 prices', 0));
    expect((await exportOf(b)).stdout).toBe(first.stdout);
    // The copy holds the text itself, not its escapes (the key as the export showed it).
    const list = await runCli(['journal', 'list', '--origin', 'all', '--json'], { env: { FCAST_DATA_DIR: b } });
    const symbols = (JSON.parse(list.stdout) as Array<{ symbol: string }>).map((r) => r.symbol);
    expect(symbols).toEqual(TEXTS.map((t) => (t === KEY ? 'mfa_ag_0123...cdef' : t)));
    // Line for line the same journal: every engine's field, and ia2's probabilities on each settlement.
    expect(linesOf(b)).toEqual(linesOf(a));
    expect(linesOf(b).filter((l) => l.includes('"kind":"settlement"') && l.endsWith('"p_flat":0.4456}}'))).toHaveLength(
      entries.filter(([f, status]) => status !== 'open' && f.ia2?.p_short !== null && f.ia2 !== null).length,
    );
  }, 60_000);
});

describe('journal export --format jsonl --prices', () => {
  it('carries the price observations too, so that an empty journal gets every record back, and a second export is the same bytes', async () => {
    const a = tempDir();
    writeJournalLines(a, entries, 'no candle');
    // Price observations: of a symbol no forecast names, of a text a terminal acts on, of a key.
    const price = (symbol: string, k: number, last: number) =>
      `${JSON.stringify({ v: JOURNAL_VERSION, kind: 'price', origin: 'https://api.example.com', symbol, t: forecastAt(k, {}).target_t, last, tier: 'free', delay_min: 15, recorded_at: forecastAt(k, {}).target_t + 5 })}\n`;
    appendFileSync(
      join(a, 'journal', '2026-11.jsonl'),
      price('BTC/USD', 0, 101.5) + price('ETH/USD', 1, 2_000) + price('\x1b[31mred', 2, 3) + price(KEY, 3, 4),
    );
    const exportOf = (data: string) =>
      runCli(['journal', 'export', '--origin', 'all', '--format', 'jsonl', '--prices'], {
        env: { FCAST_DATA_DIR: data },
      });
    const first = await exportOf(a);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
    expect(first.stdout).not.toContain(KEY);
    const lines = first.stdout.trimEnd().split('\n');
    // Each month's rows, then its price observations as the journal holds them.
    expect(lines).toHaveLength(18 + 4);
    expect(lines.slice(18).map((l) => JSON.parse(l).symbol)).toEqual([
      'BTC/USD',
      'ETH/USD',
      '\x1b[31mred',
      'mfa_ag_0123...cdef',
    ]);
    const file = join(tempDir(), 'export.jsonl');
    writeFileSync(file, first.stdout);

    const again = await runCli(['journal', 'import', file], { env: { FCAST_DATA_DIR: a } });
    expect(again.stdout).toContain('already there 22\n');
    expect((await exportOf(a)).stdout).toBe(first.stdout);

    const b = tempDir();
    const fresh = await runCli(['journal', 'import', file], { env: { FCAST_DATA_DIR: b } });
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fresh.stdout).toContain('added         18 forecasts, 12 settlements, 4 prices\n');
    expect((await exportOf(b)).stdout).toBe(first.stdout);
    // Every line of the journal, prices too.
    expect(linesOf(b)).toEqual(linesOf(a));
  }, 60_000);

  it("writes a version 1 price line as this version's, so that the import takes it", async () => {
    const a = tempDir();
    const dir = join(a, 'journal');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(
      join(dir, '2026-11.jsonl'),
      '{"v":1,"kind":"price","symbol":"BTC/USD","t":1795348800,"last":97123.45,"tier":"free","delay_min":15,"recorded_at":1795349701}\n',
      { mode: 0o600 },
    );
    const first = await runCli(['journal', 'export', '--origin', 'all', '--format', 'jsonl', '--prices'], {
      env: { FCAST_DATA_DIR: a },
    });
    expect(first.stdout).toBe(
      `{"v":${JOURNAL_VERSION},"kind":"price","origin":null,"symbol":"BTC/USD","t":1795348800,"last":97123.45,"tier":"free","delay_min":15,"recorded_at":1795349701}\n`,
    );
    const file = join(tempDir(), 'export.jsonl');
    writeFileSync(file, first.stdout);
    const b = tempDir();
    const fresh = await runCli(['journal', 'import', file], { env: { FCAST_DATA_DIR: b } });
    expect(fresh.stderr).toBe('');
    expect(fresh.stdout).toContain('added         0 forecasts, 0 settlements, 1 prices\n');
  });

  it("pools no two services' prices when no origin is chosen: exit 2, as for forecasts", async () => {
    const a = tempDir();
    writeJournalLines(a, entries.slice(0, 1), 'no candle');
    // The forecast is of https://api.example.com; this price of another service.
    appendFileSync(
      join(a, 'journal', '2026-11.jsonl'),
      `${JSON.stringify({ v: 2, kind: 'price', origin: 'https://b.example', symbol: 'BTC/USD', t: 1_795_000_000, last: 1, tier: null, delay_min: null, recorded_at: 1_795_000_005 })}\n`,
    );
    const pooled = await runCli(['journal', 'export', '--format', 'jsonl', '--prices'], {
      env: { FCAST_DATA_DIR: a, FCAST_BASE_URL: undefined },
    });
    expect(pooled.code).toBe(2);
    expect(pooled.stdout).toBe('');
    expect(pooled.stderr).toContain('fcast does not pool them');
    // Without prices the journal is one service's.
    const rows = await runCli(['journal', 'export', '--format', 'jsonl'], {
      env: { FCAST_DATA_DIR: a, FCAST_BASE_URL: undefined },
    });
    expect(rows.code, rows.stderr).toBe(0);
    expect(rows.stdout.trimEnd().split('\n')).toHaveLength(1);
  });

  it('is refused for CSV and TSV, which cannot hold a price line: exit 2, nothing written', async () => {
    const a = tempDir();
    writeJournalLines(a, entries, 'no candle');
    for (const format of ['csv', 'tsv']) {
      const r = await runCli(['journal', 'export', '--origin', 'all', '--format', format, '--prices'], {
        env: { FCAST_DATA_DIR: a },
      });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        "fcast: --prices writes the journal's own price lines, which only JSON Lines can hold\n  hint: add --format jsonl\n",
      );
    }
  });
});

describe('two forecasts whose symbol and timeframe differ only in where a tab falls', () => {
  // Same origin and ts: symbol "a<TAB>b" of timeframe "c", open; symbol "a" of "b<TAB>c", settled.
  // Their key was one (origin, symbol, tf and ts joined with tabs): list showed one row, the
  // first forecast with the second's settlement, and an import into an empty journal kept one.
  const pair: Entry[] = [
    [forecastAt(0, { symbol: 'a\tb', tf: 'c' }), 'open', 10_100],
    [forecastAt(0, { symbol: 'a', tf: 'b\tc' }), 'settled', 10_100],
  ];
  const run = (data: string, args: string[]) =>
    runCli(['journal', ...args, '--origin', 'all'], { env: { FCAST_DATA_DIR: data } });
  const rows = async (data: string) => {
    const list = await run(data, ['list', '--json']);
    expect(list.code, list.stderr).toBe(0);
    return (JSON.parse(list.stdout) as Array<Record<string, unknown>>).map((r) => [r.symbol, r.tf, r.status]);
  };

  it('are two in list, report, and an export imported into an empty journal; none added to their own', async () => {
    const a = tempDir();
    writeJournalLines(a, pair, 'no candle');
    const both = [
      ['a\tb', 'c', 'open'],
      ['a', 'b\tc', 'settled'],
    ];
    expect(await rows(a)).toEqual(both);
    const report = await run(a, ['report', '--offline', '--json']);
    expect(report.code, report.stderr).toBe(0);
    expect(
      (JSON.parse(report.stdout).timeframes as Array<Record<string, unknown>>)
        .map((t) => [t.tf, t.n_settled, t.open])
        .sort(),
    ).toEqual([
      ['b\tc', 1, 0],
      ['c', 0, 1],
    ]);

    const exported = await run(a, ['export', '--format', 'jsonl']);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout.trimEnd().split('\n')).toHaveLength(2);
    const file = join(tempDir(), 'export.jsonl');
    writeFileSync(file, exported.stdout);
    const b = tempDir();
    const fresh = await runCli(['journal', 'import', file], { env: { FCAST_DATA_DIR: b } });
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fresh.stdout).toContain('added         2 forecasts, 1 settlements, 0 prices\n');
    expect(await rows(b)).toEqual(both);
    const again = await runCli(['journal', 'import', file], { env: { FCAST_DATA_DIR: a } });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('added         0 forecasts, 0 settlements, 0 prices\nalready there 2\n');
  });
});
