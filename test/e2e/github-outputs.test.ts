// The gate commands' step outputs ($GITHUB_OUTPUT, docs/formats.md "Step outputs"), and a gate
// failure said once on stderr: as an annotation under Actions, as the plain line elsewhere.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectExit, tempDir } from '../helpers/cli.js';
import { FIXED_NOW, useEmulator } from '../helpers/emulator.js';
import { readOutputs } from '../helpers/github.js';

// The clock stands at FIXED_NOW but where a test moves it (and puts it back).
let clock = FIXED_NOW;
const emu = useEmulator({ now: () => clock });
const gate = ['accuracy', '--symbol', 'BTC/USD', '--min-settled', '500'];

async function record(): Promise<
  Array<{ timeframe: string; n_settled: number; resolved_win_rate: number | null; maturity: string }>
> {
  return JSON.parse((await emu.run(['accuracy', '--symbol', 'BTC/USD', '--json'])).stdout).results;
}

describe('GITHUB_OUTPUT', () => {
  it('holds the verdict, the failing lines and each timeframe figures; each failure is one ::error, no plain line', async () => {
    const rows = await record();
    const failing = rows.filter((r) => r.n_settled < 500);
    const dir = tempDir();
    const r = await emu.run([...gate, '--format', 'csv'], {
      env: { GITHUB_ACTIONS: 'true', GITHUB_OUTPUT: join(dir, 'out'), GITHUB_STEP_SUMMARY: join(dir, 'summary') },
    });
    expectExit(r, 8);
    const lines = r.stderr.split('\n');
    expect(lines.filter((l) => l.startsWith('::error'))).toHaveLength(failing.length);
    expect(lines.filter((l) => !l.startsWith('::'))).toEqual([
      `fcast: check failed: ${failing.length} gate failures`,
      '',
    ]);

    const outputs = readOutputs(readFileSync(join(dir, 'out'), 'utf8'));
    expect(outputs.verdict).toBe('fail');
    expect(outputs.failures).toBe(
      failing.map((f) => `gate failed: ${f.timeframe}: n_settled ${f.n_settled} is below --min-settled 500`).join('\n'),
    );
    expect(outputs.timeframes).toBe(rows.map((row) => row.timeframe).join(' '));
    expect(outputs.settled).toBe(String(rows.reduce((sum, row) => sum + row.n_settled, 0)));
    for (const row of rows) {
      expect(outputs[`settled_${row.timeframe}`]).toBe(String(row.n_settled));
      expect(outputs[`win_rate_${row.timeframe}`]).toBe(
        row.resolved_win_rate === null ? '' : String(row.resolved_win_rate),
      );
      expect(outputs[`maturity_${row.timeframe}`]).toBe(row.maturity);
    }
    // The delimiter is GitHub's form, and random.
    expect(readFileSync(join(dir, 'out'), 'utf8')).toMatch(/^failures<<ghadelimiter_[0-9a-f-]{36}$/m);
  });

  it("writes every figure by one rule: the whole's rate, computed, to four decimals as the published ones", async () => {
    const out = join(tempDir(), 'out');
    const r = await emu.run(['track-record'], { env: { GITHUB_OUTPUT: out } });
    expect(r.code, r.stderr).toBe(0);
    const outputs = readOutputs(readFileSync(out, 'utf8'));
    const body = JSON.parse((await emu.run(['track-record', '--json'])).stdout);
    const { wins, losses } = body.totals;
    // The total's rate as fcast computes it (wins over resolved), rounded half up at 4 decimals.
    expect(outputs.win_rate).toBe(String(Math.round((wins / (wins + losses)) * 10_000) / 10_000));
    const rates = Object.entries(outputs).filter(([name]) => name.startsWith('win_rate'));
    expect(rates.length).toBeGreaterThan(5);
    for (const [name, value] of rates) expect(value, name).toMatch(/^(?:|0|1|0\.\d{1,4})$/);

    // The journal report's figures, by the same rule.
    const data = tempDir();
    // Forecasts recorded for an hour, settled two hours on.
    const env = { FCAST_DATA_DIR: data };
    try {
      for (let step = 0; step < 4; step++, clock += 15 * 60_000)
        expect((await emu.runWithKey(['predict', 'BTC/USD', '--record'], { env, now: clock })).code).toBe(0);
      clock += 2 * 3_600_000;
      expect((await emu.runWithKey(['journal', 'settle'], { env, now: clock })).code).toBe(0);
    } finally {
      clock = FIXED_NOW;
    }
    const report = join(tempDir(), 'out');
    const gated = await emu.run(['journal', 'report', '--offline', '--min-settled', '0'], {
      env: { FCAST_DATA_DIR: data, GITHUB_OUTPUT: report },
    });
    expect(gated.code, gated.stderr).toBe(0);
    const figures = Object.entries(readOutputs(readFileSync(report, 'utf8'))).filter(([name]) =>
      /^(hit_rate|brier)_/.test(name),
    );
    expect(figures.filter(([name, value]) => name.startsWith('brier_') && value !== '').length).toBeGreaterThan(0);
    for (const [name, value] of figures) expect(value, name).toMatch(/^(?:|\d+(?:\.\d{1,4})?)$/);
  });

  it('outside Actions: each failure a plain line, no workflow command; the outputs all the same', async () => {
    const rows = await record();
    const failing = rows.filter((row) => row.n_settled < 500);
    const out = join(tempDir(), 'out');
    const r = await emu.run([...gate, '--format', 'csv'], { env: { GITHUB_OUTPUT: out } });
    expectExit(r, 8);
    expect(r.stderr).toBe(
      [
        ...failing.map((f) => `gate failed: ${f.timeframe}: n_settled ${f.n_settled} is below --min-settled 500`),
        `fcast: check failed: ${failing.length} gate failures`,
        '',
      ].join('\n'),
    );
    expect(readOutputs(readFileSync(out, 'utf8')).verdict).toBe('fail');
  });

  it('one timeframe that passes: verdict pass, and settled, win_rate and maturity are its own', async () => {
    const [row] = (await record()).filter((r) => r.timeframe === '1h');
    const out = join(tempDir(), 'out');
    const r = await emu.run(
      ['accuracy', '--symbol', 'BTC/USD', '--tf', '1h', '--min-settled', '1', '--format', 'csv'],
      {
        env: { GITHUB_OUTPUT: out },
      },
    );
    expectExit(r, 0);
    expect(r.stderr).toBe('');
    expect(readOutputs(readFileSync(out, 'utf8'))).toEqual({
      verdict: 'pass',
      failures: '',
      timeframes: '1h',
      settled: String(row!.n_settled),
      win_rate: String(row!.resolved_win_rate),
      maturity: row!.maturity,
      settled_1h: String(row!.n_settled),
      win_rate_1h: String(row!.resolved_win_rate),
      maturity_1h: row!.maturity,
    });
  });

  it('a file that cannot be written is a warning; the exit code stays the checks', async () => {
    const out = join(tempDir(), 'missing', 'out');
    const r = await emu.run(
      ['accuracy', '--symbol', 'BTC/USD', '--tf', '1h', '--min-settled', '1', '--format', 'csv'],
      {
        env: { GITHUB_OUTPUT: out },
      },
    );
    expectExit(r, 0);
    expect(r.stderr).toBe(`warning: could not write the outputs to GITHUB_OUTPUT (${out}): ENOENT\n`);
  });
});
