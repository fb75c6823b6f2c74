// The docs' GitHub Actions workflows (each ```yaml block marked `<!-- workflow: NAME -->`) run
// as pasted, by the runner of test/helpers/github.ts, against the emulator: `vars.FCAST_BASE_URL`
// is its address, `uses: OWNER/fcast@v0` runs this checkout's action.yml, checkout, setup-node
// and cache are the test's own setup (this checkout's Node), and the release's package URL is
// `npm pack`'s tarball of this checkout, installed with the registry unreachable.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { documentationFiles, REPO, readDoc, workflowBlocks } from '../helpers/docs.js';
import { useEmulator } from '../helpers/emulator.js';
import { expand, runJob, type Step } from '../helpers/github.js';
import { parseYaml } from '../helpers/yaml.js';

const emu = useEmulator();
const { version } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string };
const blocks = documentationFiles().flatMap((file) => workflowBlocks(readDoc(file), file));
const RELEASE = /https:\/\/github\.com\/OWNER\/fcast\/releases\/download\/v([^/\s]+)\/fcast-([^/\s]+)\.tgz/g;

let packed: string | undefined;
function tarball(): string {
  if (packed) return packed;
  const dir = tempDir('fcast-workflow-pack-');
  const r = spawnSync(process.execPath, ['scripts/pack.js', dir], { cwd: REPO, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm run pack failed:\n${r.stderr}`);
  packed = join(dir, r.stdout.trim());
  return packed;
}

interface Workflow {
  jobs: Record<string, { env?: Record<string, string>; steps: Step[] }>;
}

describe('the docs workflows', () => {
  it('every YAML block with steps is a marked workflow, by a unique name', () => {
    const unmarked = blocks.filter((b) => b.name === undefined && /\b(run|uses):/.test(b.body));
    expect(unmarked.map((b) => `${b.file}:${b.line}`)).toEqual([]);
    const names = blocks.flatMap((b) => (b.name ? [b.name] : []));
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
    expect(names).toEqual(expect.arrayContaining(['ci-action', 'ci-run', 'ci-baseline', 'readme-ci']));
  });

  it('install the package of this version', () => {
    for (const b of blocks)
      for (const [, tag, file] of b.body.matchAll(RELEASE))
        expect([tag, file], `${b.file}:${b.line}`).toEqual([version, version]);
  });

  it.each(blocks.filter((b) => b.name).map((b) => [`${b.file} ${b.name}`, b] as const))(
    '%s runs as pasted',
    async (_, block) => {
      const doc = parseYaml(block.body) as unknown as Workflow | Step[];
      const job = Array.isArray(doc) ? { steps: doc } : Object.values(doc.jobs)[0]!;
      const steps = job.steps.map((s) => (s.run ? { ...s, run: s.run.replaceAll(RELEASE, tarball) } : s));
      const home = tempDir('fcast-workflow-');
      const prefix = join(home, 'prefix');
      const vars = { FCAST_BASE_URL: emu.server.url };
      const jobEnv = Object.fromEntries(
        Object.entries(job.env ?? {}).map(([k, v]) => [k, expand(v, { inputs: {}, vars, steps: {} })]),
      );
      const env = {
        PATH: [join(prefix, 'bin'), process.env.PATH ?? ''].join(delimiter),
        HOME: home,
        FCAST_CONFIG_DIR: join(home, 'config'),
        npm_config_prefix: prefix,
        npm_config_cache: join(home, 'npm-cache'),
        npm_config_registry: 'http://127.0.0.1:9/',
        npm_config_update_notifier: 'false',
        npm_config_audit: 'false',
        npm_config_fund: 'false',
        // The installed package writes Node's compile cache (22.1+) in os.tmpdir(): the run's own.
        TMPDIR: tmpdir(),
        ...jobEnv,
      };
      const cwd = tempDir('fcast-workflow-cwd-');
      const r = await runJob(steps, { env, cwd, vars });
      const context = `${block.file}:${block.line}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}\n--- ran\n${r.ran.join('\n')}`;
      expect(r.stderr, context).not.toMatch(/command not found|syntax error|No such file/);
      // Every step ran: a failed gate is exit 8, and the steps after it say `if: always()`.
      const label = (s: Step) => s.name ?? s.uses ?? s.run!.split('\n')[0]!;
      expect(
        r.ran.filter((name) => steps.some((s) => label(s) === name)),
        context,
      ).toEqual(steps.map(label));
      if (block.name === 'ci-baseline') {
        expect(r.code, context).toBe(0);
        expect(existsSync(join(cwd, 'tr.json'))).toBe(true);
        return;
      }
      // The emulator's 1h record is not yet growing_sample: the gate says no, once.
      expect(r.code, context).toBe(8);
      expect(r.stderr.match(/^::error /gm), context).toHaveLength(1);
      expect(r.stderr, context).not.toMatch(/^gate failed/m);
      expect(r.summary.match(/^\| TF \| Settled \|/gm), context).toHaveLength(1);
      if (r.ctx.steps.gate) {
        expect(r.ctx.steps.gate.outputs.verdict).toBe('fail');
        expect(r.stdout, context).toMatch(/^verdict fail, win rate 0\.\d+ on \d+ settled/m);
      }
    },
    // npm pack (the first time) and an offline npm install -g: far more than the default 20 s on a loaded machine.
    120_000,
  );
});
