// The journal's defaults and rules are the journal's own: the commands, their help and the
// renderers take the flat band from journal/record.ts and the small-sample threshold from
// journal/score.ts, so a change there is a change everywhere (here, a band of 0.05 and 5).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { expectExit, runCli, tempDir } from '../helpers/cli.js';
import { exportRow } from '../helpers/journal-rows.js';

vi.mock('../../src/journal/record.js', async (original) => ({
  ...(await original<typeof import('../../src/journal/record.js')>()),
  DEFAULT_FLAT_BAND_PCT: 0.05,
}));
vi.mock('../../src/journal/score.js', async (original) => ({
  ...(await original<typeof import('../../src/journal/score.js')>()),
  SMALL_SAMPLE: 5,
}));

describe('the default flat band', () => {
  it('is DEFAULT_FLAT_BAND_PCT in the report, the settle summary and every --flat-band help', async () => {
    const env = { FCAST_DATA_DIR: tempDir() };
    const report = await runCli(['journal', 'report', '--json', '--offline'], { env });
    expectExit(report, 0);
    expect(JSON.parse(report.stdout).flat_band_pct).toBe(0.05);
    const settle = await runCli(['journal', 'settle', '--json'], { env });
    expectExit(settle, 0);
    expect(JSON.parse(settle.stdout).flat_band_pct).toBe(0.05);
    for (const sub of ['settle', 'report', 'list', 'export']) {
      const help = await runCli(['journal', sub, '--help']);
      expect(help.stdout, sub).toMatch(/below this many percent\s+\(default 0\.05, the\s+service's\)/);
    }
  });
});

describe('the small-sample threshold', () => {
  /** Settled forecasts of one timeframe, all called long at 0.65: one reliability bin. */
  const rows = (tf: string, n: number) =>
    Array.from({ length: n }, (_, i) => {
      const ts = Date.UTC(2026, 10, 1) / 1000 + i * 3600;
      return JSON.stringify(
        exportRow(ts, {
          tf,
          p_long: 0.65,
          p_short: 0.25,
          status: 'settled',
          settle_price: i % 2 ? 101 : 99,
          settle_t: ts + 3600,
          settle_source: 'candles',
        }),
      );
    });

  it('is SMALL_SAMPLE in the reliability table, the chart and the CI warnings', async () => {
    const data = tempDir();
    const file = join(tempDir(), 'rows.jsonl');
    writeFileSync(file, [...rows('1h', 6), ...rows('4h', 2)].join('\n'));
    expectExit(await runCli(['journal', 'import', file], { env: { FCAST_DATA_DIR: data } }), 0);
    const env = { FCAST_DATA_DIR: data, GITHUB_ACTIONS: 'true' };
    const r = await runCli(['journal', 'report', '--offline', '--min-settled', '1'], { env });
    expectExit(r, 0);
    // The 1h bin of 6 is no small sample; the 4h bin of 2 is.
    expect(r.stdout).toMatch(/^\(0\.6, 0\.7\]\s+6\s+0\.650\s+0\.500\s+\S+\s*$/m);
    expect(r.stdout).toMatch(/^\(0\.6, 0\.7\]\s+2\s+.*⚠ n < 5$/m);
    expect(r.stdout).toContain('● observed (○ n < 5)');
    expect(r.stderr).toContain('::warning title=fcast journal report%3A small sample (4h)::');
    expect(r.stderr).not.toContain('small sample (1h)');
    const md = await runCli(['journal', 'report', '--offline', '--format', 'markdown'], { env });
    expect(md.stdout).toContain('| ⚠ n < 5 |');
  });
});
