// The README and docs/ are used by pasting: every block marked `<!-- paste: NAME -->` runs here
// as written, in bash (or the shell its marker names), with `fcast` on the PATH, the
// emulator's base URL and key, and a fresh HOME, config and data directory, as a new user's
// terminal would have them. The blocks' form is checked too: no comments (interactive zsh runs
// `#` as a command), no `exit` (it would close the reader's terminal), no shell block
// without a marker. CONTRIBUTING.md, "Documentation that runs", has the convention.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SEED } from '../../src/mock/index.js';
import { BIN, tempDir } from '../helpers/cli.js';
import {
  danglingMarkers,
  documentationFiles,
  fencedBlocks,
  hasComment,
  hasExit,
  type PasteBlock,
  pasteBlocks,
  REPO,
  readDoc,
  SHELL_LANGUAGES,
} from '../helpers/docs.js';
import { useEmulator } from '../helpers/emulator.js';

const installed = (tool: string) => spawnSync(tool, ['--version'], { stdio: 'ignore' }).status === 0;
const TOOLS = { jq: installed('jq'), curl: installed('curl'), zsh: installed('zsh'), fish: installed('fish') };

const files = documentationFiles();
const blocks = files.flatMap((file) => pasteBlocks(readDoc(file), file));
const runnable = blocks.filter((b) => b.run);

// The same data as `fcast mock` with no --seed, as the outputs in the docs show.
const emu = useEmulator({ seed: DEFAULT_SEED });

/** A directory holding `fcast`, a script that runs this checkout's bin/fcast.js. */
function shimDir(): string {
  const dir = tempDir('fcast-docs-bin-');
  const shim = join(dir, 'fcast');
  writeFileSync(shim, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`);
  chmodSync(shim, 0o755);
  return dir;
}

/** A new user's environment: this one's, without anything that would steer fcast or a shell elsewhere. */
function freshEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(FCAST_|NO_COLOR$|FORCE_COLOR$|XDG_|ZDOTDIR$|BASH_ENV$|ENV$|(https?|no|all)_proxy$)/i.test(name)) continue;
    env[name] = value;
  }
  return {
    ...env,
    HOME: tempDir('fcast-docs-home-'),
    PATH: [shimDir(), process.env.PATH ?? ''].join(delimiter),
    FCAST_BASE_URL: emu.server.url,
    FCAST_API_KEY: emu.server.testKey,
    FCAST_CONFIG_DIR: tempDir('fcast-docs-config-'),
    FCAST_DATA_DIR: tempDir('fcast-docs-data-'),
    // fish keeps its runtime files there, else in /tmp/fish.$USER.
    XDG_RUNTIME_DIR: tempDir('fcast-docs-run-'),
  };
}

const SHELL_ARGS: Record<PasteBlock['shell'], string[]> = {
  // -e: a line that fails stops the block, as it would stop a reader reading its output.
  bash: ['-e', '-o', 'pipefail', '-c'],
  zsh: ['-e', '-o', 'pipefail', '-c'],
  fish: ['--no-config', '-c'],
};

let packed: string | undefined;

/** A directory holding the package's tarball and SHA256SUMS, as a user who downloaded them has (packed once, from the build). */
function packedDir(): string {
  if (packed) return packed;
  const dir = tempDir('fcast-docs-pack-');
  // As a release has it (scripts/release.js packs through scripts/pack.js), with its SHA256SUMS.
  const r = spawnSync(process.execPath, ['scripts/pack.js', dir], { cwd: REPO, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm run pack failed:\n${r.stderr}`);
  const sums = spawnSync('sha256sum', [r.stdout.trim()], { cwd: dir, encoding: 'utf8' });
  writeFileSync(join(dir, 'SHA256SUMS'), sums.stdout);
  packed = dir;
  return dir;
}

const BLOCK_CWD = { repo: () => REPO, temp: () => tempDir('fcast-docs-cwd-'), pack: packedDir };

// Asynchronous on purpose: the emulator answers from this very process.
async function runBlock(block: PasteBlock): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(block.shell, [...SHELL_ARGS[block.shell], block.script], {
    env: freshEnv(),
    cwd: BLOCK_CWD[block.cwd](),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr };
}

/** Why a block cannot run here (a tool it uses is not installed), or undefined. */
function missingTool(block: PasteBlock): string | undefined {
  if (block.shell !== 'bash' && !TOOLS[block.shell]) return block.shell;
  if (/\bjq\b/.test(block.script) && !TOOLS.jq) return 'jq';
  if (/\bcurl\b/.test(block.script) && !TOOLS.curl) return 'curl';
  return undefined;
}

describe('the documentation', () => {
  it('keeps the two quick-start commands in the README', () => {
    const readme = readDoc('README.md');
    expect(readme).toContain('npm install && npm run demo');
    expect(readme).toContain('npm install && npm test');
  });

  it('says what fcast is and how to try it in the first 40 lines, in a README of at most ~600', () => {
    const lines = readDoc('README.md').split('\n');
    expect(lines.length).toBeLessThanOrEqual(620);
    const top = lines.slice(0, 40).join('\n');
    expect(top).toMatch(/command-line client of the \*\*Market Forecast Agent API\*\*/);
    expect(top).toContain('npm install && npm run demo');
    expect(top).toMatch(/npm run demo -- predict /);
  });

  it.each(files)('%s: every shell block is a paste block; every marker marks one, by a unique name', (file) => {
    const markdown = readDoc(file);
    const unmarked = fencedBlocks(markdown, file).filter((b) => SHELL_LANGUAGES.has(b.lang) && b.marker === undefined);
    expect(unmarked.map((b) => `${file}:${b.line}`)).toEqual([]);
    expect(danglingMarkers(markdown).map((line) => `${file}:${line}`)).toEqual([]);
    const names = pasteBlocks(markdown, file).map((b) => b.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
    expect(names.every((n) => /^[\w-]+$/.test(n))).toBe(true);
    expect(pasteBlocks(markdown, file).flatMap((b) => b.unknown)).toEqual([]);
  });

  it('paste blocks hold no comment and no exit, and run=no blocks only set up a clone', () => {
    const problems: string[] = [];
    for (const block of blocks) {
      for (const [i, line] of block.script.split('\n').entries()) {
        const where = `${block.file}:${block.line + 1 + i} (${block.name})`;
        if (hasComment(line)) problems.push(`${where}: a comment: ${line}`);
        if (hasExit(line)) problems.push(`${where}: an exit: ${line}`);
        if (!block.run && line.trim() !== '') {
          for (const command of line.split('&&').map((c) => c.trim()))
            if (!/^(git clone \S+( \S+)?|cd \S+|npm (install|ci|test|run pack|run demo( -- .+)?))$/.test(command))
              problems.push(`${where}: run=no, yet not a step of a fresh clone: ${command}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('tells comments and exits apart from what only looks like them', () => {
    expect(hasComment('fcast demo  # a table')).toBe(true);
    expect(hasComment('# alone')).toBe(true);
    expect(hasComment(`jq -r '.a # not a comment'`)).toBe(false);
    expect(hasComment('echo "${#x}" $# a#b')).toBe(false);
    expect(hasExit('exit "$status"')).toBe(true);
    expect(hasExit('fcast demo || exit 1')).toBe(true);
    expect(hasExit('if true; then exit 3; fi')).toBe(true);
    expect(hasExit(`echo 'exit here' --exit-code`)).toBe(false);
  });

  it.skipIf(!TOOLS.fish)('a block fish cannot read says, just above it, that it is for bash or zsh', () => {
    const problems: string[] = [];
    for (const block of blocks.filter((b) => b.shell !== 'fish')) {
      const file = join(tempDir('fcast-docs-fish-'), 'block');
      writeFileSync(file, block.script);
      // fish keeps its runtime files there, else in /tmp/fish.$USER.
      const env = { ...process.env, XDG_RUNTIME_DIR: tempDir('fcast-docs-run-') };
      if (spawnSync('fish', ['--no-config', '--no-execute', file], { stdio: 'ignore', env }).status === 0) continue;
      // The prose a reader sees right above the block (its fence's language is not shown).
      const above = readDoc(block.file)
        .split('\n')
        .slice(Math.max(0, block.line - 8), block.line - 2)
        .join(' ');
      if (!/\bbash\b/.test(above)) problems.push(`${block.file}:${block.line} (${block.name})`);
    }
    expect(problems).toEqual([]);
  });

  it('has the README completion blocks the pty test pastes, one per shell', () => {
    const names = blocks.filter((b) => b.file === 'README.md').map((b) => b.name);
    expect(names).toEqual(expect.arrayContaining(['completion-bash', 'completion-zsh', 'completion-fish']));
  });
});

/** Longer than the default 20 s: docs/journal.md's journal-session block alone runs fcast ~24 times, which a loaded CI machine took more than 20 s for. */
const BLOCK_TIMEOUT = 120_000;

describe('paste blocks, run as written against the emulator', () => {
  it.for(runnable.map((b) => [`${b.file} ${b.name}`, b] as const))(
    '%s',
    { timeout: BLOCK_TIMEOUT },
    async ([, block], { skip }) => {
      const missing = missingTool(block);
      if (missing) skip(`${missing} is not installed`);
      const r = await runBlock(block);
      const context = `${block.file}:${block.line} ${block.name}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;
      expect(r.code, context).toBe(block.exit);
      expect(r.stderr, context).not.toMatch(/command not found|syntax error|Unknown command|No such file or directory/);
      if (/\bjq\b/.test(block.script)) {
        expect(r.stdout.trim(), context).not.toBe('');
        expect(r.stdout, context).not.toMatch(/^null$/m);
      }
    },
  );

  it('the link of the install section points at this clone', async () => {
    const block = blocks.find((b) => b.file === 'README.md' && b.name === 'install-link')!;
    const env = freshEnv();
    const child = spawn('bash', ['-e', '-c', block.script], { env, cwd: REPO, stdio: 'ignore' });
    await once(child, 'close');
    const link = join(env.HOME!, '.local/bin/fcast');
    expect(existsSync(link)).toBe(true);
    const version = spawnSync(link, ['--version'], { encoding: 'utf8' });
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("`npm run demo -- predict` (the try-it block's second line) runs predict against a fresh emulator", async () => {
    const child = spawn(process.execPath, [join(REPO, 'scripts/demo.js'), 'predict', 'BTC/USD', 'ETH/USD'], {
      env: { PATH: process.env.PATH ?? '', HOME: tempDir(), FCAST_CONFIG_DIR: tempDir() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    const [code] = (await once(child, 'close')) as [number];
    expect(code).toBe(0);
    expect(stdout).toMatch(/^BTC\/USD +[\d,.]+ /m);
    expect(stdout).toMatch(/^ETH\/USD +[\d,.]+ /m);
  });
});

describe("the emulator's banner and the docs", () => {
  it('agree on the keys shown and what each can do', async () => {
    const mock = spawn(process.execPath, [BIN, 'mock', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    mock.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
    mock.stderr!.setEncoding('utf8').on('data', (d: string) => (out += d));
    try {
      while (!out.includes('FCAST_GATEWAY_KEY=')) await once(mock.stderr!, 'data');
    } finally {
      mock.kill('SIGTERM');
      await once(mock, 'exit');
    }
    const port = /127\.0\.0\.1:(\d+)/.exec(out)![1]!;
    const printed = out
      .replaceAll(`127.0.0.1:${port}`, '127.0.0.1:8787')
      .split('\n')
      .filter((l) => l.trim() !== '' && !l.startsWith('fcast mock: stopped'));
    for (const file of ['README.md', 'docs/reference.md']) {
      const shown = fencedBlocks(readDoc(file), file).find((b) => b.body.startsWith('$ fcast mock --port 8787\n'));
      expect(shown, file).toBeDefined();
      const lines = shown!.body
        .split('\n')
        .slice(1)
        .filter((l) => !l.startsWith('mock '));
      expect(lines, file).toEqual(printed);
    }
  });
});
