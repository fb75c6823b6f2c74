// The weekly CI recipe of docs/reference.md (`<!-- workflow: ci-baseline -->`) over eight
// emulated weeks: its steps as pasted (the install left out: `fcast` is this checkout's
// bin/fcast.js on the PATH; the cache step left out: the working directory keeps tr.json from
// one run to the next, as the cache restores it), the emulator's clock moved a week between runs
// by its admin route. An honest record passes every week; a rewritten one (the `shrink` fault:
// 1h losses dropped) fails, and the baseline that caught it is kept.
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, tempDir } from '../helpers/cli.js';
import { documentationFiles, readDoc, workflowBlocks } from '../helpers/docs.js';
import { useEmulator } from '../helpers/emulator.js';
import { runJob, type Step } from '../helpers/github.js';
import { parseYaml } from '../helpers/yaml.js';

const emu = useEmulator();
const WEEK_S = 7 * 86_400;

const block = documentationFiles()
  .flatMap((file) => workflowBlocks(readDoc(file), file))
  .find((b) => b.name === 'ci-baseline')!;

interface Workflow {
  jobs: Record<string, { env?: Record<string, string>; steps: Step[] }>;
}

/** A directory holding `fcast`, a script that runs this checkout's bin/fcast.js. */
function shimDir(): string {
  const dir = tempDir('fcast-weekly-bin-');
  const shim = join(dir, 'fcast');
  writeFileSync(shim, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`);
  chmodSync(shim, 0o755);
  return dir;
}

const advanceClock = async (seconds: number) => {
  const r = await fetch(`${emu.server.url}/__mock/clock`, {
    method: 'POST',
    body: JSON.stringify({ advance: seconds }),
  });
  expect(r.status).toBe(200);
};

describe('the weekly recipe, eight emulated weeks', () => {
  it('passes an honest record every week and fails a rewritten one, keeping its baseline', async () => {
    expect(block, 'docs/reference.md: <!-- workflow: ci-baseline -->').toBeDefined();
    const job = Object.values((parseYaml(block.body) as unknown as Workflow).jobs)[0]!;
    const steps = job.steps.filter((s) => s.uses === undefined && !/npm install/.test(s.run ?? ''));
    expect(steps.map((s) => s.run).join('\n')).toMatch(/--baseline tr\.json --save tr\.json --min-new-settled/);
    const cwd = tempDir('fcast-weekly-cwd-');
    const home = tempDir('fcast-weekly-home-');
    const env = {
      PATH: [shimDir(), process.env.PATH ?? ''].join(delimiter),
      HOME: home,
      FCAST_CONFIG_DIR: join(home, 'config'),
      FCAST_BASE_URL: emu.server.url,
    };
    const week = () => runJob(steps, { env, cwd, vars: { FCAST_BASE_URL: emu.server.url } });

    const first = await week();
    expect(first.code, first.stderr).toBe(0);
    for (let n = 1; n <= 8; n++) {
      await advanceClock(WEEK_S);
      const r = await week();
      expect(r.code, `week ${n}:\n${r.stderr}`).toBe(0);
      expect(r.stderr, `week ${n}`).not.toMatch(/::error/);
    }
    const kept = readFileSync(join(cwd, 'tr.json'), 'utf8');
    await advanceClock(WEEK_S);
    emu.server.setFaults([{ kind: 'shrink' }]);
    const rewritten = await week();
    expect(rewritten.code, rewritten.stderr).toBe(8);
    expect(rewritten.stderr).toMatch(/^::error .*1h: counts went down since tr\.json: .*loss/m);
    expect(readFileSync(join(cwd, 'tr.json'), 'utf8')).toBe(kept);
  }, 120_000);

  it('the one-timeframe recipe of its prose, accuracy --tf 1h, passes the same weeks', async () => {
    const dir = tempDir();
    const file = join(dir, '1h.json');
    const argv = ['accuracy', '--tf', '1h', '--baseline', file, '--save', file, '--min-new-settled', '500'];
    expect(readDoc('docs/reference.md')).toContain(
      'fcast accuracy --tf 1h --baseline 1h.json --save 1h.json --min-new-settled 500',
    );
    // A clock of the test's own: the file's emulator has moved on by the test above.
    const saved = await emu.run(['accuracy', '--tf', '1h', '--save', file]);
    expect(saved.code, saved.stderr).toBe(0);
    for (let n = 1; n <= 8; n++) {
      await advanceClock(WEEK_S);
      const r = await emu.run(argv);
      expect(r.code, `week ${n}:\n${r.stderr}`).toBe(0);
    }
  });
});
