// The journal's defaults are the journal's own: the commands and their help take the flat band
// from journal/record.ts, so a change there is a change everywhere (here, a band of 0.05).
import { describe, expect, it, vi } from 'vitest';
import { expectExit, runCli, tempDir } from '../helpers/cli.js';

vi.mock('../../src/journal/record.js', async (original) => ({
  ...(await original<typeof import('../../src/journal/record.js')>()),
  DEFAULT_FLAT_BAND_PCT: 0.05,
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
