// action.yml run the way the runner runs a composite action: each step's `run:` in
// `bash --noprofile --norc -eo pipefail FILE`, its `env:` with `${{ inputs.NAME }}` filled from
// the inputs (or their defaults), GITHUB_ACTION_PATH at this checkout (built, as `npm test`
// leaves it), and GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_ACTIONS=true set; then the
// action's outputs read from the gate step's outputs. Against the emulator.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { REPO } from '../helpers/docs.js';
import { useEmulator } from '../helpers/emulator.js';
import { type Log, readAction, runAction } from '../helpers/github.js';

const emu = useEmulator();
const action = readAction();

/** The action run alone in a job, with these inputs: its exit code, what it printed, the summary and its outputs. */
async function run(
  given: Record<string, string>,
  more: Record<string, string> = {},
  vars: Record<string, string> = {},
) {
  const dir = tempDir('fcast-action-');
  const summary = join(dir, 'summary.md');
  writeFileSync(summary, '');
  const log: Log = { stdout: '', stderr: '', ran: [] };
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    FCAST_CONFIG_DIR: join(dir, 'config'),
    TMPDIR: tmpdir(),
    RUNNER_TEMP: dir,
    ...more,
  };
  const { code, outputs } = await runAction(given, { env, cwd: dir, summary, log, vars });
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

  it(
    "cannot reach the service: exit 6, fcast's line, one ::error saying why, and a summary line",
    async () => {
      const r = await run({ command: 'track-record', 'base-url': 'http://127.0.0.1:9' }, { FCAST_RETRIES: '0' });
      expect(r.code).toBe(6);
      const errors = r.stderr.split('\n').filter((l) => l.startsWith('::error'));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(
        /^::error title=fcast track-record \(exit 6\)::connection to 127\.0\.0\.1:9 refused; .+/,
      );
      expect(r.stderr).toContain('fcast: connection to 127.0.0.1:9 refused');
      expect(r.summary).toMatch(
        /^\*\*fcast track-record did not run its checks\*\* \(exit 6\): connection to 127\.0\.0\.1:9 refused; .+\n$/,
      );
      expect(r.outputs.verdict).toBe('');
    },
    ACTION_TIMEOUT,
  );

  describe('from a release, with no npm ci', () => {
    /** npm anywhere on PATH fails the run: the action must not need it. */
    function noNpm(): string {
      const bin = tempDir('fcast-action-bin-');
      writeFileSync(join(bin, 'npm'), '#!/bin/sh\necho "npm was run: $*" >&2\nexit 97\n');
      chmodSync(join(bin, 'npm'), 0o755);
      return bin;
    }

    /** The release's tarball and SHA256SUMS, as the release workflow uploads them (scripts/pack.js packs it). */
    function releaseAssets(): { dir: string; version: string } {
      const dir = tempDir('fcast-action-release-');
      const packed = spawnSync(process.execPath, ['scripts/pack.js', dir], { cwd: REPO, encoding: 'utf8' });
      expect(packed.status, packed.stderr).toBe(0);
      const file = packed.stdout.trim();
      const sums = spawnSync('sha256sum', [file], { cwd: dir, encoding: 'utf8' });
      writeFileSync(join(dir, 'SHA256SUMS'), sums.stdout);
      return { dir, version: /^fcast-(.+)\.tgz$/.exec(file)![1]! };
    }

    it(
      'at a release tag (v0 here, a major tag): fetches its release tarball, checks it against SHA256SUMS, runs it, within 10 s',
      async () => {
        const { dir: assets, version } = releaseAssets();
        const bin = noNpm();
        // curl as the runner's, serving the release's assets from a directory: -o FILE URL.
        writeFileSync(
          join(bin, 'curl'),
          `#!/bin/sh\nwhile [ $# -gt 1 ]; do case "$1" in -o) out="$2"; shift;; esac; shift; done\n` +
            `echo "$1" >> ${JSON.stringify(join(assets, 'fetched'))}\ncp ${JSON.stringify(assets)}/"$(basename "$1")" "$out"\n`,
        );
        chmodSync(join(bin, 'curl'), 0o755);
        // The action's own directory is the tag's tree: no dist/ (gitignored), no node_modules.
        const tree = tempDir('fcast-action-tree-');
        for (const file of ['action.yml', 'package.json']) copyFileSync(join(REPO, file), join(tree, file));
        const started = Date.now();
        const r = await run(
          { command: 'accuracy', symbol: 'BTC/USD', tf: '1h', 'min-settled': '1', 'base-url': emu.server.url },
          { PATH: `${bin}:${process.env.PATH}`, GITHUB_ACTION_PATH: tree },
          { 'github.action_ref': 'v0', 'github.action_repository': 'OWNER/fcast' },
        );
        expect(r.stderr).toBe('');
        expect(r.code).toBe(0);
        expect(Date.now() - started).toBeLessThan(10_000);
        expect(r.stdout.split('\n')[0]).toBe(version);
        expect(readFileSync(join(assets, 'fetched'), 'utf8')).toBe(
          `https://github.com/OWNER/fcast/releases/download/v${version}/fcast-${version}.tgz\n` +
            `https://github.com/OWNER/fcast/releases/download/v${version}/SHA256SUMS\n`,
        );
        expect(r.outputs.verdict).toBe('pass');
      },
      ACTION_TIMEOUT,
    );

    it(
      'refuses a tarball that does not match SHA256SUMS, before running anything of it',
      async () => {
        const { dir: assets, version } = releaseAssets();
        writeFileSync(join(assets, 'SHA256SUMS'), `${'0'.repeat(64)}  fcast-${version}.tgz\n`);
        const bin = noNpm();
        writeFileSync(
          join(bin, 'curl'),
          `#!/bin/sh\nwhile [ $# -gt 1 ]; do case "$1" in -o) out="$2"; shift;; esac; shift; done\n` +
            `cp ${JSON.stringify(assets)}/"$(basename "$1")" "$out"\n`,
        );
        chmodSync(join(bin, 'curl'), 0o755);
        const tree = tempDir('fcast-action-tree-');
        for (const file of ['action.yml', 'package.json']) copyFileSync(join(REPO, file), join(tree, file));
        const r = await run(
          { command: 'accuracy', 'base-url': emu.server.url },
          { PATH: `${bin}:${process.env.PATH}`, GITHUB_ACTION_PATH: tree },
          { 'github.action_ref': `v${version}`, 'github.action_repository': 'OWNER/fcast' },
        );
        expect(r.code).not.toBe(0);
        expect(r.stderr).toMatch(/sha256sum: WARNING: 1 computed checksum did NOT match/);
        expect(r.stdout).toBe(`fcast-${version}.tgz: FAILED\n`);
        expect(r.outputs.verdict).toBe('');
      },
      ACTION_TIMEOUT,
    );

    it(
      'in a release directory (the unpacked package): runs it as it is',
      async () => {
        const { dir: assets, version } = releaseAssets();
        const unpacked = join(assets, 'unpacked');
        mkdirSync(unpacked);
        spawnSync('tar', ['xzf', join(assets, `fcast-${version}.tgz`), '-C', unpacked, '--strip-components=1']);
        copyFileSync(join(REPO, 'action.yml'), join(unpacked, 'action.yml'));
        const r = await run(
          { command: 'accuracy', symbol: 'BTC/USD', tf: '1h', 'min-settled': '1', 'base-url': emu.server.url },
          { PATH: `${noNpm()}:${process.env.PATH}`, GITHUB_ACTION_PATH: unpacked },
        );
        expect(r.stderr).toBe('');
        expect(r.code).toBe(0);
        expect(r.outputs.verdict).toBe('pass');
      },
      ACTION_TIMEOUT,
    );
  });
});
