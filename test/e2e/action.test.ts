// action.yml run the way the runner runs a composite action: each step's `run:` in
// `bash --noprofile --norc -eo pipefail FILE`, its `env:` with `${{ inputs.NAME }}` filled from
// the inputs (or their defaults), GITHUB_ACTION_PATH at this checkout (built, as `npm test`
// leaves it), and GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_ACTIONS=true set; then the
// action's outputs read from the gate step's outputs. Against the emulator.
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { type Log, readAction, runAction } from '../helpers/github.js';

const emu = useEmulator();
const action = readAction();

/** The action run alone in a job, with these inputs: its exit code, what it printed, the summary and its outputs. */
async function run(given: Record<string, string>) {
  const dir = tempDir('fcast-action-');
  const summary = join(dir, 'summary.md');
  writeFileSync(summary, '');
  const log: Log = { stdout: '', stderr: '', ran: [] };
  const env = { PATH: process.env.PATH ?? '', HOME: dir, FCAST_CONFIG_DIR: join(dir, 'config'), TMPDIR: tmpdir() };
  const { code, outputs } = await runAction(given, { env, cwd: dir, summary, log });
  return { code, stdout: log.stdout, stderr: log.stderr, summary: readFileSync(summary, 'utf8'), outputs };
}

async function record(): Promise<
  Array<{ timeframe: string; n_settled: number; resolved_win_rate: number; maturity: string }>
> {
  return JSON.parse((await emu.run(['accuracy', '--symbol', 'BTC/USD', '--json'])).stdout).results;
}

/** Each run is the action's bash steps spawning fcast: generous, for a loaded CI machine (the default is 20 s). */
const ACTION_TIMEOUT = 120_000;

describe('action.yml', () => {
  it('is a composite action of bash steps whose scripts hold no expression: inputs come in as environment variables', () => {
    expect(action.runs.using).toBe('composite');
    for (const step of action.runs.steps) {
      expect(step.shell).toBe('bash');
      expect(step.run).not.toContain('${{');
    }
    const gate = action.runs.steps.find((s) => s.id === 'gate')!;
    for (const name of Object.keys(action.inputs))
      expect(gate.env?.[`INPUT_${name.toUpperCase().replaceAll('-', '_')}`]).toBe(`\${{ inputs.${name} }}`);
  });

  it(
    'a failing gate: exit 8, one ::error per failed timeframe and no plain line, one table in the summary, verdict fail',
    async () => {
      const rows = await record();
      const failing = rows.filter((r) => r.n_settled < 500);
      const r = await run({
        command: 'accuracy',
        symbol: 'BTC/USD',
        'min-settled': '500',
        'base-url': emu.server.url,
      });
      expect(r.code).toBe(8);
      const lines = r.stderr.split('\n');
      expect(lines.filter((l) => l.startsWith('::error'))).toEqual(
        failing.map(
          (f) =>
            `::error title=fcast accuracy%3A gate failed (${f.timeframe})::gate failed: ${f.timeframe}: n_settled ${f.n_settled} is below --min-settled 500`,
        ),
      );
      expect(lines.filter((l) => !l.startsWith('::'))).toEqual([
        `fcast: check failed: ${failing.length} gate failures`,
        '',
      ]);
      expect(r.summary.match(/^\| TF \| Settled \|/gm)).toHaveLength(1);
      expect(r.summary.match(/\*\*Verdict: failed\*\*/g)).toHaveLength(1);
      expect(r.outputs.verdict).toBe('fail');
      expect(r.outputs.failures!.split('\n')).toHaveLength(failing.length);
      expect(r.outputs.settled).toBe(String(rows.reduce((sum, row) => sum + row.n_settled, 0)));
      for (const row of rows) expect(r.outputs[`maturity-${row.timeframe}`]).toBe(row.maturity);
    },
    ACTION_TIMEOUT,
  );

  it(
    'a passing gate on one timeframe: exit 0, verdict pass, its win rate, settled count and maturity',
    async () => {
      const row = (await record()).find((r) => r.timeframe === '1h')!;
      const r = await run({
        command: 'accuracy',
        symbol: 'BTC/USD',
        tf: '1h',
        'min-settled': '1',
        format: 'csv',
        'base-url': emu.server.url,
      });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout.split('\n')[0]).toMatch(/^\d+\.\d+\.\d+$/);
      expect(r.summary.match(/^\| TF \| Settled \|/gm)).toHaveLength(1);
      expect(r.summary).toContain('**Verdict: passed.** fcast accuracy: every check held.');
      expect(r.outputs).toMatchObject({
        verdict: 'pass',
        failures: '',
        timeframes: '1h',
        'win-rate': String(row.resolved_win_rate),
        settled: String(row.n_settled),
        maturity: row.maturity,
        'maturity-1h': row.maturity,
        'maturity-4h': '',
      });
    },
    ACTION_TIMEOUT,
  );

  it(
    'refuses a command other than the two gates, exit 2',
    async () => {
      const r = await run({ command: 'demo', 'base-url': emu.server.url });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe('fcast action: the input command must be track-record or accuracy\n');
      expect(r.outputs.verdict).toBe('');
    },
    ACTION_TIMEOUT,
  );
});
