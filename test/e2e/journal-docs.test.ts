// docs/journal.md's paste blocks in order, as one user's session sharing one journal (the
// docs test, test/e2e/docs.test.ts, runs each alone on a fresh one): each exits as its marker
// says, and says what the page says it does.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, tempDir } from '../helpers/cli.js';
import { pasteBlocks, readDoc } from '../helpers/docs.js';
import { useEmulator } from '../helpers/emulator.js';

const blocks = pasteBlocks(readDoc('docs/journal.md'), 'docs/journal.md');
const emu = useEmulator({ seed: 'journal-docs' });

function run(script: string, env: NodeJS.ProcessEnv, cwd: string) {
  const child = spawn('bash', ['-euo', 'pipefail', '-c', script], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('docs/journal.md', () => {
  it('has its blocks', () => {
    expect(blocks.map((b) => b.name)).toEqual([
      'journal-record-on',
      'journal-jq',
      'journal-session',
      'journal-json',
      'journal-gate',
      'journal-export',
    ]);
  });

  it('every block runs as written, in order, and ends with its exit code', async () => {
    const bin = tempDir('fcast-docs-bin-');
    writeFileSync(
      join(bin, 'fcast'),
      `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`,
    );
    chmodSync(join(bin, 'fcast'), 0o755);
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env))
      if (!/^(FCAST_|NO_COLOR$|FORCE_COLOR$|GITHUB_)/i.test(k)) env[k] = v;
    Object.assign(env, {
      PATH: [bin, process.env.PATH ?? ''].join(delimiter),
      FCAST_BASE_URL: emu.server.url,
      FCAST_API_KEY: emu.server.testKey,
      FCAST_CONFIG_DIR: tempDir(),
      FCAST_DATA_DIR: tempDir(),
    });
    const cwd = tempDir('fcast-docs-cwd-');
    const clockBefore = emu.server.clock.now();
    // The user's own journal (FCAST_DATA_DIR as set before the page): what it holds, to see the walk-through leave it alone.
    const ownJournal = () => {
      const dir = join(env.FCAST_DATA_DIR!, 'journal');
      if (!existsSync(dir)) return '';
      return readdirSync(dir)
        .filter((f) => f.endsWith('.jsonl'))
        .sort()
        .map((f) => readFileSync(join(dir, f), 'utf8'))
        .join('');
    };
    let before = '';
    for (const b of blocks) {
      if (b.name === 'journal-session') {
        before = ownJournal();
        expect(before).not.toBe('');
      }
      const r = await run(b.script, env, cwd);
      expect(r.code, `${b.name}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`).toBe(b.exit);
      if (b.name === 'journal-session') {
        expect(r.stdout).toMatch(/^settled\s+\d+ \(\d+ from candles, \d+ from recorded prices\)/);
        expect(r.stdout).toMatch(/^1min\s+\d+/m);
        // The block puts the emulator's clock back where it found it.
        expect(Math.abs(emu.server.clock.now() - clockBefore)).toBeLessThan(60_000);
      }
      if (b.name === 'journal-json') expect(r.stdout).toMatch(/^\{"tf":"1min","n_settled":[1-9]\d*,"open":\d+/);
      if (b.name === 'journal-gate')
        expect(r.stderr).toMatch(/gate failed: 1min: n_settled \d+ is below --min-settled 1000/);
      if (b.name === 'journal-export') expect(r.stdout).toMatch(/^read\s+\d+ rows of journal.csv \(csv\)/m);
    }
    // The walk-through's emulator forecasts went to a journal of its own, none to the user's.
    expect(ownJournal()).toBe(before);
    expect(readdirSync(join(cwd, 'fcast-walkthrough', 'journal')).some((f) => f.endsWith('.jsonl'))).toBe(true);
  }, 240_000); // a page of blocks, each a few CLI runs: ~10 s quiet, past 60 s at load 10
});
