// The gate commands' step outputs ($GITHUB_OUTPUT, docs/formats.md "Step outputs"), and a gate
// failure said once on stderr: as an annotation under Actions, as the plain line elsewhere.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectExit, tempDir } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { readOutputs } from '../helpers/github.js';

const emu = useEmulator();
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
