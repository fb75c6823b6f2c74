// The files a GitHub Actions runner hands a step, read as the runner reads them, and a small
// runner of our own for action.yml and the docs' workflows: each `run:` in
// `bash --noprofile --norc -eo pipefail FILE` (what `shell: bash` means, and the default on
// ubuntu), `${{ ... }}` filled from inputs, vars, step outputs and github.run_id, GITHUB_OUTPUT
// a fresh file per step, GITHUB_STEP_SUMMARY one file for the job, GITHUB_ACTIONS=true.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './cli.js';
import { REPO } from './docs.js';
import { parseYaml } from './yaml.js';

/** $GITHUB_OUTPUT read as the runner reads it: `name=value`, or `name<<DELIMITER` lines up to DELIMITER. */
export function readOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '') continue;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2]!, i + 1);
      if (end < 0) throw new Error(`no closing ${heredoc[2]}`);
      outputs[heredoc[1]!] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else {
      const eq = line.indexOf('=');
      outputs[line.slice(0, eq)] = line.slice(eq + 1);
    }
  }
  return outputs;
}

export interface Step {
  name?: string;
  id?: string;
  if?: string;
  shell?: string;
  run?: string;
  uses?: string;
  with?: Record<string, string>;
  env?: Record<string, string>;
}

export interface Action {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

export const readAction = (): Action => parseYaml(readFileSync(join(REPO, 'action.yml'), 'utf8')) as unknown as Action;

export interface Context {
  inputs: Record<string, string>;
  vars: Record<string, string>;
  steps: Record<string, { outputs: Record<string, string>; outcome: 'success' | 'failure' }>;
}

/** `${{ EXPR }}` filled as the runner would; an expression this runner does not know throws. */
export function expand(text: string, ctx: Context): string {
  return String(text).replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_, expr: string) => {
    let m = /^inputs\.([\w-]+)$/.exec(expr);
    if (m) return ctx.inputs[m[1]!] ?? '';
    m = /^vars\.(\w+)$/.exec(expr);
    if (m) return ctx.vars[m[1]!] ?? '';
    m = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expr);
    if (m) return ctx.steps[m[1]!]?.outputs[m[2]!] ?? '';
    if (expr === 'github.run_id') return '1';
    m = /^github\.(action_ref|action_repository)$/.exec(expr);
    if (m) return ctx.vars[`github.${m[1]}`] ?? '';
    throw new Error(`an expression this runner does not know: ${expr}`);
  });
}

/** What a job printed and ran, shared by the steps of an action it uses. */
export interface Log {
  stdout: string;
  stderr: string;
  /** Names (or `uses:`, or a script's first line) of the steps run, in order. */
  ran: string[];
}

export interface StepsOptions {
  env: Record<string, string>;
  cwd: string;
  /** The job's step summary file, shared with an action it runs. */
  summary: string;
  log: Log;
  vars?: Record<string, string>;
  inputs?: Record<string, string>;
  /** What a `uses:` step does here; undefined skips it (checkout, setup-node, cache: the test's setup did that). */
  uses?: (step: Step, ctx: Context) => Promise<{ code: number; outputs: Record<string, string> } | undefined>;
}

/** Runs steps in order as the runner does: after a failure, only `if: always()` (or `failure()`) steps. */
export async function runSteps(steps: Step[], opts: StepsOptions): Promise<{ code: number; ctx: Context }> {
  const dir = tempDir('fcast-runner-');
  const ctx: Context = { inputs: opts.inputs ?? {}, vars: opts.vars ?? {}, steps: {} };
  let code = 0;
  for (const [n, step] of steps.entries()) {
    const condition = step.if?.replace(/^\$\{\{\s*|\s*\}\}$/g, '');
    if (condition !== undefined && !/^(always|failure|success)\(\)$/.test(condition))
      throw new Error(`an if: this runner does not know: ${condition}`);
    if (code !== 0 ? !/^(always|failure)\(\)$/.test(condition ?? '') : condition === 'failure()') continue;
    opts.log.ran.push(step.name ?? step.uses ?? step.run!.split('\n')[0]!);
    let result: { code: number; outputs: Record<string, string> };
    if (step.uses !== undefined) result = (await opts.uses?.(step, ctx)) ?? { code: 0, outputs: {} };
    else {
      const script = join(dir, `step${n}.sh`);
      const output = join(dir, `output${n}`);
      writeFileSync(script, step.run!);
      writeFileSync(output, '');
      const env: Record<string, string> = {
        ...opts.env,
        GITHUB_ACTIONS: 'true',
        GITHUB_OUTPUT: output,
        GITHUB_STEP_SUMMARY: opts.summary,
      };
      for (const [name, value] of Object.entries(step.env ?? {})) env[name] = expand(value, ctx);
      const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
        env,
        cwd: opts.cwd,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout.setEncoding('utf8').on('data', (d: string) => (opts.log.stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (opts.log.stderr += d));
      const [exit] = (await once(child, 'close')) as [number];
      result = { code: exit, outputs: readOutputs(readFileSync(output, 'utf8')) };
    }
    if (step.id) ctx.steps[step.id] = { outputs: result.outputs, outcome: result.code === 0 ? 'success' : 'failure' };
    if (result.code !== 0 && code === 0) code = result.code;
  }
  return { code, ctx };
}

/** action.yml's steps with these inputs (defaults for the rest); its outputs filled from its steps'. */
export async function runAction(
  given: Record<string, string>,
  opts: Pick<StepsOptions, 'env' | 'cwd' | 'summary' | 'log' | 'vars'>,
): Promise<{ code: number; outputs: Record<string, string> }> {
  const action = readAction();
  const inputs = Object.fromEntries(Object.entries(action.inputs).map(([name, i]) => [name, i.default ?? '']));
  Object.assign(inputs, given);
  // The action's directory: this checkout, unless the test gives another (a release's).
  const env = { GITHUB_ACTION_PATH: REPO, ...opts.env };
  const { code, ctx } = await runSteps(action.runs.steps, { ...opts, env, inputs });
  const outputs = Object.fromEntries(Object.entries(action.outputs).map(([name, o]) => [name, expand(o.value, ctx)]));
  return { code, outputs };
}

/** A job's steps, with a fresh summary and log; `uses: OWNER/fcast@v0` (or `./`) runs action.yml. */
export async function runJob(
  steps: Step[],
  opts: Omit<StepsOptions, 'summary' | 'log'>,
): Promise<Log & { code: number; summary: string; ctx: Context }> {
  const summary = join(tempDir('fcast-runner-'), 'summary.md');
  writeFileSync(summary, '');
  const log: Log = { stdout: '', stderr: '', ran: [] };
  const { code, ctx } = await runSteps(steps, {
    ...opts,
    summary,
    log,
    uses: async (step, c) => {
      if (/^OWNER\/fcast@|^\.\/?$/.test(step.uses!)) {
        const given = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, expand(String(v), c)]));
        return runAction(given, { env: opts.env, cwd: opts.cwd, summary, log });
      }
      return opts.uses?.(step, c);
    },
  });
  return { ...log, code, summary: readFileSync(summary, 'utf8'), ctx };
}
