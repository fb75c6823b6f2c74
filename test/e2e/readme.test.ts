// The README is the manual: its jq recipes must run exactly as written, as a user's shell would
// run them, with `fcast` on the PATH and only FCAST_BASE_URL / FCAST_API_KEY in the environment.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SEED } from '../../src/mock/index.js';
import { tempDir } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';

const README = fileURLToPath(new URL('../../README.md', import.meta.url));
const BIN = fileURLToPath(new URL('../../bin/fcast.js', import.meta.url));

interface Recipe {
  name: string;
  script: string;
  expectedExit: number;
}

/** Every fenced block whose first line is `# recipe: NAME`; `# expect-exit: N` declares its exit code. */
function extractRecipes(markdown: string): Recipe[] {
  const recipes: Recipe[] = [];
  for (const match of markdown.matchAll(/^```[^\n]*\n(# recipe: ([^\n]+)\n[\s\S]*?)^```\s*$/gm)) {
    const script = match[1]!;
    const declared = /^# expect-exit: (\d+)\s*$/m.exec(script);
    recipes.push({ name: match[2]!.trim(), script, expectedExit: declared ? Number(declared[1]) : 0 });
  }
  return recipes;
}

const hasJq = spawnSync('jq', ['--version'], { stdio: 'ignore' }).status === 0;
const readme = readFileSync(README, 'utf8');
const recipes = extractRecipes(readme);

// The same data as `fcast mock` with no --seed, so the README's sample output is what runs here.
const emu = useEmulator({ seed: DEFAULT_SEED });

function shimDir(): string {
  const dir = tempDir('fcast-readme-bin-');
  const shim = join(dir, 'fcast');
  writeFileSync(shim, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`);
  chmodSync(shim, 0o755);
  return dir;
}

/** The caller's environment without anything that would steer fcast elsewhere. */
function recipeEnv(binDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(FCAST_|NO_COLOR$|FORCE_COLOR$|(https?|no|all)_proxy$)/i.test(name)) continue;
    env[name] = value;
  }
  return {
    ...env,
    PATH: [binDir, process.env.PATH ?? ''].join(delimiter),
    FCAST_BASE_URL: emu.server.url,
    FCAST_API_KEY: emu.server.testKey,
    FCAST_CONFIG_DIR: tempDir(),
    WATCH_ROUNDS: '2',
    WATCH_INTERVAL: '0',
  };
}

// Asynchronous on purpose: the emulator answers from this very process.
function runRecipe(
  script: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn('bash', ['-euo', 'pipefail', '-c', script], {
    env,
    cwd: tempDir('fcast-readme-cwd-'),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('README', () => {
  it('keeps the two quick-start commands', () => {
    expect(readme).toContain('npm install && npm run demo');
    expect(readme).toContain('npm install && npm test');
  });

  it('has the five jq recipes, each with a unique name', () => {
    expect(recipes.map((r) => r.name)).toEqual(['top-direction', 'symbols', 'ci-gate', 'opportunities', 'watch']);
    expect(recipes.find((r) => r.name === 'ci-gate')?.expectedExit).toBe(8);
  });

  it('finds recipes only in blocks that start with the marker', () => {
    const md = '```sh\necho not a recipe\n# recipe: late\n```\n\n```sh\n# recipe: one\n# expect-exit: 3\nexit 3\n```\n';
    expect(extractRecipes(md)).toEqual([
      { name: 'one', script: '# recipe: one\n# expect-exit: 3\nexit 3\n', expectedExit: 3 },
    ]);
  });
});

describe.skipIf(!hasJq)(
  `README jq recipes, run as written against the emulator${hasJq ? '' : ' (skipped: jq is not installed)'}`,
  () => {
    it.each(recipes.map((r) => [r.name, r] as const))('%s', async (_name, recipe) => {
      const r = await runRecipe(recipe.script, recipeEnv(shimDir()));
      const context = `recipe ${recipe.name}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;
      expect(r.code, context).toBe(recipe.expectedExit);
      expect(r.stdout.trim(), context).not.toBe('');
      expect(r.stdout, context).not.toMatch(/\bnull\b/);
      expect(emu.server.requests.length, context).toBeGreaterThan(0);
    });

    it('watch honours WATCH_ROUNDS: one line per round', async () => {
      const watch = recipes.find((r) => r.name === 'watch')!;
      const r = await runRecipe(watch.script, { ...recipeEnv(shimDir()), WATCH_ROUNDS: '3' });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.trimEnd().split('\n')).toHaveLength(3);
      expect(emu.server.requests.filter((q) => q.path.endsWith('/predictions.php'))).toHaveLength(3);
    });
  },
);
