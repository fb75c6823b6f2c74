// Ctrl-C always ends a journal command (exit 130), a long import too. Before, `journal import`
// read, de-duplicated and wrote its whole file without once returning to the event loop, so
// a SIGINT was only heard when the import had ended (300,000 rows: seconds). It now yields
// every few thousand lines; the batches already written stay whole, the one being gathered is
// not written, and the journal reads back undamaged.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
// @ts-expect-error: the bench's generator is plain JavaScript, without types
import { writeJournalExport } from '../../scripts/bench-journal.js';
import { spawnFcast, tempDir } from '../helpers/cli.js';

const ROWS = 300_000;
/** Time from the signal to the exit: the yield comes every few thousand lines (a few ms). */
const PROMPT_MS = 3000;

it('SIGINT ends a long journal import with 130, the journal whole', async () => {
  const file = join(tempDir(), 'big.csv');
  (writeJournalExport as (p: string, n: number, end: number, o: { varied: boolean }) => void)(
    file,
    ROWS,
    Date.UTC(2026, 10, 1) / 1000,
    { varied: true },
  );
  const data = tempDir();
  const dir = join(data, 'journal');
  const written = () => {
    try {
      return readdirSync(dir).some((f) => f.endsWith('.jsonl') && statSync(join(dir, f)).size > 0);
    } catch {
      return false;
    }
  };
  // Signalled once the import has written its first batch: it is under way, not starting.
  await importInterrupted(file, data, written);

  // Whole lines only, each a record, and every settlement after its forecast: no batch half written.
  const forecasts = new Set<string>();
  let lines = 0;
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.jsonl'))) {
    const text = readFileSync(join(dir, f), 'utf8');
    expect(text === '' || text.endsWith('\n')).toBe(true);
    for (const line of text.split('\n').slice(0, -1)) {
      const rec = JSON.parse(line);
      const key = `${rec.symbol}\t${rec.tf}\t${rec.ts}`;
      if (rec.kind === 'forecast') forecasts.add(key);
      else expect(forecasts.has(key), line).toBe(true);
      lines++;
    }
  }
  expect(lines).toBeGreaterThan(0);
  expect(forecasts.size).toBeLessThan(ROWS);
  // And fcast reads it back without a warning.
  const list = await spawnFcast(['journal', 'report', '--offline', '--json'], { FCAST_DATA_DIR: data });
  expect(list.code, list.stderr).toBe(0);
  expect(list.stderr).toBe('');
}, 60_000);

const BIN = fileURLToPath(new URL('../../bin/fcast.js', import.meta.url));

// `journal import -` copies stdin to $TMPDIR/fcast-import-XXXX/stdin first. Ctrl-C while stdin
// was still open ended the run with 130 but left that copy behind.
it('SIGINT during a piped import, stdin still open, leaves nothing in the temporary directory', async () => {
  const tmp = tempDir();
  const child = spawn(process.execPath, [BIN, 'journal', 'import', '-'], {
    env: { PATH: process.env.PATH ?? '', FCAST_CONFIG_DIR: tempDir(), FCAST_DATA_DIR: tempDir(), TMPDIR: tmp },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d) => (stderr += d));
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  // Part of an export, and stdin left open: the copy is under way, not finished.
  child.stdin!.write('symbol,tf,ts,kind\n'.repeat(1000));
  const copied = () =>
    readdirSync(tmp).some((d) => {
      try {
        return d.startsWith('fcast-import-') && statSync(join(tmp, d, 'stdin')).size > 0;
      } catch {
        return false;
      }
    });
  const deadline = Date.now() + 10_000;
  while (!copied() && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 10));
  expect(copied(), stderr).toBe(true);
  child.kill('SIGINT');
  const code = await closed;
  child.stdin!.destroy();
  expect(code, stderr).toBe(130);
  expect(stdout).toBe('');
  expect(stderr).toBe('fcast: interrupted\n');
  expect(readdirSync(tmp).filter((d) => d.startsWith('fcast-import-'))).toEqual([]);
}, 30_000);

it('SIGINT while another process holds the lock ends the import with 130, nothing written', async () => {
  const file = join(tempDir(), 'small.csv');
  (writeJournalExport as (p: string, n: number, end: number, o: { varied: boolean }) => void)(
    file,
    100,
    Date.UTC(2026, 10, 1) / 1000,
    { varied: false },
  );
  const data = tempDir();
  const dir = join(data, 'journal');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Held by this (live) process: the import waits for it, up to its 10 s.
  writeFileSync(join(dir, 'journal.lock'), JSON.stringify({ pid: process.pid, host: hostname(), token: 'held' }));
  // Signalled once it is waiting: its claim on the lock sits beside the lock file.
  await importInterrupted(file, data, () => readdirSync(dir).some((f) => f.startsWith('journal.lock.claim-')));
  expect(readdirSync(dir).filter((f) => f.endsWith('.jsonl'))).toEqual([]);
  // Its claim went with it: only the other process's lock is left.
  expect(readdirSync(dir)).toEqual(['journal.lock']);
}, 60_000);

/**
 * `journal import FILE` into `data`, sent one SIGINT as soon as `ready()` holds (polled every
 * 10 ms): it ends with 130 within PROMPT_MS, says only that it was interrupted, prints nothing.
 */
async function importInterrupted(file: string, data: string, ready: () => boolean): Promise<void> {
  let sentAt = 0;
  const r = await spawnFcast(
    ['journal', 'import', file],
    { FCAST_DATA_DIR: data },
    {
      onSpawn: (child) => {
        const poll = setInterval(() => {
          if (child.exitCode !== null || child.signalCode !== null) return clearInterval(poll);
          if (!ready()) return;
          clearInterval(poll);
          sentAt = Date.now();
          child.kill('SIGINT');
        }, 10);
      },
    },
  );
  expect(sentAt, r.stderr).toBeGreaterThan(0);
  expect(r.code, r.stderr).toBe(130);
  expect(Date.now() - sentAt).toBeLessThan(PROMPT_MS);
  expect(r.stdout).toBe('');
  expect(r.stderr).toBe('fcast: interrupted\n');
}
