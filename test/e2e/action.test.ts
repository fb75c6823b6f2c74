// action.yml run the way the runner runs a composite action: each step's `run:` in
// `bash --noprofile --norc -eo pipefail FILE`, its `env:` with `${{ inputs.NAME }}` filled from
// the inputs (or their defaults), GITHUB_ACTION_PATH at this checkout (built, as `npm test`
// leaves it), and GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_ACTIONS=true set; then the
// action's outputs read from the gate step's outputs. Against the emulator.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { REPO } from '../helpers/docs.js';
import { useEmulator } from '../helpers/emulator.js';
import { readOutputs } from '../helpers/github.js';
import { parseYaml } from '../helpers/yaml.js';

const emu = useEmulator();

interface Step {
  name: string;
  id?: string;
  shell: string;
  run: string;
  env?: Record<string, string>;
}
interface Action {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

const action = parseYaml(readFileSync(join(REPO, 'action.yml'), 'utf8')) as unknown as Action;

/** `${{ inputs.NAME }}` or `${{ steps.ID.outputs.NAME }}`, filled as the runner would; any other expression throws. */
function expand(
  text: string,
  context: { inputs: Record<string, string>; steps: Record<string, Record<string, string>> },
) {
  return text.replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_, expr: string) => {
    const input = /^inputs\.([\w-]+)$/.exec(expr);
    if (input) return context.inputs[input[1]!] ?? '';
    const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expr);
    if (output) return context.steps[output[1]!]?.[output[2]!] ?? '';
    throw new Error(`an expression this test does not know: ${expr}`);
  });
}

interface ActionRun {
  code: number | null;
  stdout: string;
  stderr: string;
  summary: string;
  outputs: Record<string, string>;
}

async function runAction(given: Record<string, string>): Promise<ActionRun> {
  const inputs = Object.fromEntries(Object.entries(action.inputs).map(([name, i]) => [name, i.default ?? '']));
  Object.assign(inputs, given);
  const dir = tempDir('fcast-action-');
  const summary = join(dir, 'summary.md');
  writeFileSync(summary, '');
  const steps: Record<string, Record<string, string>> = {};
  let stdout = '';
  let stderr = '';
  let code: number | null = 0;
  for (const [n, step] of action.runs.steps.entries()) {
    const script = join(dir, `step${n}.sh`);
    const output = join(dir, `output${n}`);
    writeFileSync(script, step.run);
    writeFileSync(output, '');
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      FCAST_CONFIG_DIR: join(dir, 'config'),
      GITHUB_ACTIONS: 'true',
      GITHUB_ACTION_PATH: REPO,
      GITHUB_OUTPUT: output,
      GITHUB_STEP_SUMMARY: summary,
    };
    for (const [name, value] of Object.entries(step.env ?? {})) env[name] = expand(value, { inputs, steps });
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    [code] = (await once(child, 'close')) as [number | null];
    if (step.id) steps[step.id] = readOutputs(readFileSync(output, 'utf8'));
    if (code !== 0) break;
  }
  const outputs = Object.fromEntries(
    Object.entries(action.outputs).map(([name, o]) => [name, expand(o.value, { inputs, steps })]),
  );
  return { code, stdout, stderr, summary: readFileSync(summary, 'utf8'), outputs };
}

async function record(): Promise<
  Array<{ timeframe: string; n_settled: number; resolved_win_rate: number; maturity: string }>
> {
  return JSON.parse((await emu.run(['accuracy', '--symbol', 'BTC/USD', '--json'])).stdout).results;
}

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

  it('a failing gate: exit 8, one ::error per failed timeframe and no plain line, one table in the summary, verdict fail', async () => {
    const rows = await record();
    const failing = rows.filter((r) => r.n_settled < 500);
    const r = await runAction({
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
  });

  it('a passing gate on one timeframe: exit 0, verdict pass, its win rate, settled count and maturity', async () => {
    const row = (await record()).find((r) => r.timeframe === '1h')!;
    const r = await runAction({
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
  });

  it('refuses a command other than the two gates, exit 2', async () => {
    const r = await runAction({ command: 'demo', 'base-url': emu.server.url });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('fcast action: the input command must be track-record or accuracy\n');
    expect(r.outputs.verdict).toBe('');
  });
});
