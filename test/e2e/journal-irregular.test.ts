// Only regular files are opened in the journal: a FIFO, a directory or a symbolic link where a
// month file, the index or the lock belongs is exit 3 naming it, and no command waits on it.
// Measured before: `mkfifo journal/2026-10.jsonl` made list, export, report, settle, prune and
// `import --dry-run` block in open() for good; a directory named as a month file made
// `journal list` exit 1 (EISDIR).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_LINE } from '../../src/journal/lines.js';
import { spawnFcast, tempDir } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';

const emu = useEmulator({ seed: 'irregular' });

/** A data directory whose journal holds one good month file, and `plant` where another belongs. */
function journalWith(plant: (path: string) => void, name = '2026-10.jsonl'): { data: string; path: string } {
  const data = tempDir();
  const dir = join(data, 'journal');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(join(dir, '2026-09.jsonl'), '', { mode: 0o600 });
  const path = join(dir, name);
  plant(path);
  return { data, path };
}

const COMMANDS = [
  ['journal', 'list'],
  ['journal', 'export'],
  ['journal', 'report', '--offline'],
  ['journal', 'settle'],
  ['journal', 'prune', '--before', '2026-01-01'],
  ['journal', 'prune', '--before', '2026-01-01', '--dry-run'],
];

/** Runs fcast, killed after 15 s: a command that hangs fails the test instead of the suite. */
async function runBounded(args: string[], env: Record<string, string>) {
  let timer: NodeJS.Timeout | undefined;
  const r = await spawnFcast(args, env, {
    onSpawn: (child) => {
      timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    },
  });
  clearTimeout(timer);
  return r;
}

describe('only regular files', () => {
  const plants: Array<[string, (path: string) => void, string]> = [
    ['a FIFO', (path) => execFileSync('mkfifo', [path]), 'a FIFO (named pipe)'],
    ['a directory', (path) => mkdirSync(path), 'a directory'],
  ];
  for (const [what, plant, said] of plants) {
    it(`${what} named as a month file: every journal command exits 3 naming it, none hangs`, async () => {
      const { data, path } = journalWith(plant);
      const env = { FCAST_DATA_DIR: data, FCAST_BASE_URL: emu.server.url, FCAST_API_KEY: emu.server.testKey };
      const file = join(tempDir(), 'import.csv');
      writeFileSync(file, 'symbol,tf\n');
      for (const args of [...COMMANDS, ['journal', 'import', file, '--dry-run']]) {
        const r = await runBounded(args, env);
        expect(r.signal, args.join(' ')).toBe(null);
        expect(r.stdout, args.join(' ')).toBe('');
        expect(r.stderr, args.join(' ')).toBe(
          `fcast: journal: ${path} is ${said}, not a regular file; fcast reads and writes only regular files there\n  hint: move it out of the journal directory\n`,
        );
        expect(r.code, args.join(' ')).toBe(3);
      }
      // A recorder warns and still shows its forecasts.
      const shown = await runBounded(['predict', 'BTC/USD', '--record', '--json'], env);
      expect(shown.code).toBe(0);
      expect(JSON.parse(shown.stdout).symbol).toBe('BTC/USD');
      expect(shown.stderr).toContain(`warning: journal: not recorded: ${path} is ${said}, not a regular file`);
    }, 120_000);
  }

  it('a FIFO as the index or the lock: a recorder warns naming it, and ends', async () => {
    for (const name of ['index.json', 'journal.lock']) {
      const { data, path } = journalWith((p) => execFileSync('mkfifo', [p]), name);
      const env = { FCAST_DATA_DIR: data, FCAST_BASE_URL: emu.server.url, FCAST_API_KEY: emu.server.testKey };
      const r = await runBounded(['predict', 'BTC/USD', '--record'], env);
      expect(r.stderr).toBe(
        `warning: journal: not recorded: ${path} is a FIFO (named pipe), not a regular file; fcast reads and writes only regular files there\n`,
      );
      expect(r.code).toBe(0);
    }
  }, 60_000);

  it('a symbolic link as a month file is still refused as a link', async () => {
    const target = join(tempDir(), 'elsewhere.jsonl');
    writeFileSync(target, '');
    const { data, path } = journalWith((p) => symlinkSync(target, p));
    const r = await runBounded(['journal', 'list'], { FCAST_DATA_DIR: data });
    expect(r.stderr).toBe(
      `fcast: journal: ${path} is a symbolic link (to ${target}); fcast does not read or write the journal through links\n  hint: replace the link with the file itself\n`,
    );
    expect(r.code).toBe(3);
  });
});

describe('a line longer than any record (past MAX_LINE, 4 MiB)', () => {
  it('prune leaves its month file byte for byte and exits 3 naming it; a reader counts it damaged', async () => {
    const forecast = (ts: number) =>
      `${JSON.stringify({ v: 2, kind: 'forecast', origin: emu.server.url, symbol: 'BTC/USD', tf: '1h', ts, horizon_min: 60, target_t: ts + 3600, anchor_price: 100, target_price: null, direction: 'long', p_long: 0.5, p_short: 0.4, p_flat: 0.1, tier: null, delay_min: null, server_t: null, recorded_at: ts + 5 })}\n`;
    const { data, path } = journalWith((p) =>
      writeFileSync(p, `${forecast(1_790_000_000)}${'x'.repeat(MAX_LINE + 10)}\n${forecast(1_791_000_000)}`, {
        mode: 0o600,
      }),
    );
    const before = readFileSync(path);
    const env = { FCAST_DATA_DIR: data, FCAST_BASE_URL: emu.server.url };
    for (const args of [
      ['journal', 'prune', '--before', '2026-10-20'],
      ['journal', 'prune', '--before', '2026-10-20', '--dry-run'],
    ]) {
      const r = await runBounded(args, env);
      expect(r.stdout, args.join(' ')).toBe('');
      expect(r.stderr, args.join(' ')).toBe(
        `fcast: journal: ${path} holds a line longer than 4 MiB; prune leaves the file as it is\n  hint: remove that line by hand, then prune again\n`,
      );
      expect(r.code, args.join(' ')).toBe(3);
      expect(readFileSync(path).equals(before)).toBe(true);
    }
    const list = await runBounded(['journal', 'list', '--json'], env);
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toHaveLength(2);
    expect(list.stderr).toContain('1 damaged line(s) skipped');
  }, 60_000);
});
