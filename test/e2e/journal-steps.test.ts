// The journal's long writers work in short locked steps, under real processes (bin/fcast.js):
// - `journal prune` reads and decides without the lock and rewrites each month file in a step
//   of its own. Before, it held the lock for its whole run, so a recorder started meanwhile
//   waited for all of it (and past 10 s gave up: "not recorded").
// - Two imports of overlapping files into one journal at once: each catches up on what the
//   other appended before each batch, so every record is there once.
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordLine, settledRecord, type ForecastRecord, type JournalRecord } from '../../src/journal/record.js';
import { spawnFcast, tempDir, type Spawned } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { forecastAt } from '../helpers/journal-round-trip.js';
import { journalLines } from '../helpers/journal-rows.js';
import { SESSION_START } from '../helpers/journal-session.js';

const emu = useEmulator({ seed: 'journal-steps' });

const ORIGIN = 'https://import.example';

/** The forecast of series `k % 40` at hour `Math.floor(k / 40)` from `from`. */
function forecastOf(k: number, from: number): ForecastRecord {
  const ts = from + Math.floor(k / 40) * 3600;
  const direction = k % 2 ? 'long' : 'short';
  const fields = { origin: ORIGIN, symbol: `S${k % 40}/USD`, anchor_price: 100 + (k % 7), direction } as const;
  return forecastAt(0, { ...fields, ts, target_t: ts + 3600, recorded_at: ts });
}

const keyOf = (r: any) => `${r.kind} ${r.origin} ${r.symbol} ${r.tf} ${r.ts ?? r.t}`;

describe('a prune in short steps', () => {
  it('lets a recorder started during it record before it ends, and removes what is dated before', async () => {
    const data = tempDir();
    const dir = join(data, 'journal');
    mkdirSync(dir, { mode: 0o700 });
    // Six months of 40 series, hourly: 40,000 lines a month, read in full by the prune.
    const months = ['2025-01', '2025-02', '2025-03', '2025-04', '2025-05', '2025-06'];
    let written = 0;
    for (const month of months) {
      const from = Date.parse(`${month}-01T00:00:00Z`) / 1000;
      const lines: string[] = [];
      for (let k = 0; k < 40 * 24 * 28; k++) lines.push(recordLine(forecastOf(k, from)));
      writeFileSync(join(dir, `${month}.jsonl`), lines.join(''), { mode: 0o600 });
      written += lines.length;
    }
    const env = { FCAST_BASE_URL: emu.server.url, FCAST_API_KEY: emu.server.testKey, FCAST_DATA_DIR: data };
    emu.server.clock.set({ start: SESSION_START, speed: 0 });
    // A first recording builds the index (from the two newest months) before the prune begins.
    const first = await spawnFcast(['predict', 'SOL/USD', '--record', '--json'], env);
    expect(first.code, first.stderr).toBe(0);
    emu.server.clock.advance(60_000);
    const before = '2025-06-15';
    let pruning = true;
    let prune: ChildProcess | undefined;
    const pruned = spawnFcast(['journal', 'prune', '--before', before, '--json'], env, {
      onSpawn: (child) => (prune = child),
    }).finally(() => (pruning = false));
    const runs: Spawned[] = [];
    const during: Spawned[] = [];
    const shown = new Set<string>();
    const record = async (symbol: string) => {
      const r = await spawnFcast(['predict', symbol, '--record', '--json', '--verbose'], env);
      runs.push(r);
      if (pruning) during.push(r);
      if (r.code === 0)
        for (const f of Object.values<any>(JSON.parse(r.stdout).predictions))
          shown.add(`forecast ${new URL(emu.server.url).origin} ${symbol} ${f.tf} ${f.ts}`);
      emu.server.clock.advance(60_000);
    };
    // The recorders start once the prune is under way: its first month is gone.
    while (pruning && readdirSync(dir).includes('2025-01.jsonl')) await new Promise((r) => setTimeout(r, 1));
    expect(pruning, 'the prune ended before its first step was seen').toBe(true);
    // One recorder runs while the prune is stopped between two steps, holding no lock and
    // waiting for none: so it ends before the prune does however fast the machine is (on a
    // quiet one the rest of the prune can take less time than a recorder's start).
    for (;;) {
      prune!.kill('SIGSTOP');
      if (!readdirSync(dir).some((name) => name.startsWith('journal.lock'))) break;
      prune!.kill('SIGCONT');
      await new Promise((r) => setTimeout(r, 1));
    }
    try {
      await record('SOL/USD');
    } finally {
      prune!.kill('SIGCONT');
    }
    const recorder = async (symbol: string) => {
      while (pruning) await record(symbol);
    };
    await Promise.all([pruned, recorder('BTC/USD'), recorder('ETH/USD')]);
    const done = await pruned;
    expect(done.code, done.stderr).toBe(0);
    const summary = JSON.parse(done.stdout);
    expect(summary.files_removed).toEqual(months.slice(0, 5).map((m) => `${m}.jsonl`));
    expect(summary.files_rewritten).toEqual(['2025-06.jsonl']);
    const cut = Date.parse(`${before}T00:00:00Z`) / 1000;
    const keptOfJune = 40 * 24 * 28 - ((cut - Date.parse('2025-06-01T00:00:00Z') / 1000) / 3600) * 40;
    expect(summary.removed).toBe(written - keptOfJune);
    for (const r of runs) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toContain('not recorded');
    }
    // A recorder that waited for the lock until the prune's end could not have ended before it.
    expect(during.length).toBeGreaterThan(0);
    const records = journalLines(data);
    const keys = records.map(keyOf);
    expect(new Set(keys).size).toBe(keys.length);
    expect(records.filter((r) => r.origin === ORIGIN && r.ts < cut)).toEqual([]);
    expect(records.filter((r) => r.origin === ORIGIN)).toHaveLength(keptOfJune);
    for (const key of shown) expect(keys).toContain(key);
  }, 180_000);
});

describe('two prunes at once', () => {
  it('both end with exit 0, whichever removes a month first, and the journal is pruned once', async () => {
    const data = tempDir();
    const dir = join(data, 'journal');
    mkdirSync(dir, { mode: 0o700 });
    // Months wholly before the date, each read in full by both prunes before either takes the lock.
    const months = ['2025-01', '2025-02', '2025-03', '2025-04'];
    for (const month of months) {
      const from = Date.parse(`${month}-01T00:00:00Z`) / 1000;
      const lines: string[] = [];
      for (let k = 0; k < 40 * 24 * 28; k++) lines.push(recordLine(forecastOf(k, from)));
      writeFileSync(join(dir, `${month}.jsonl`), lines.join(''), { mode: 0o600 });
    }
    const env = { FCAST_DATA_DIR: data };
    const prunes = await Promise.all(
      [1, 2, 3].map(() => spawnFcast(['journal', 'prune', '--before', '2025-05-01', '--json'], env)),
    );
    for (const r of prunes) expect(r.code, r.stderr).toBe(0);
    // Each month removed by exactly one of them.
    const removed = prunes.flatMap((r) => JSON.parse(r.stdout).files_removed as string[]).sort();
    expect(removed).toEqual(months.map((m) => `${m}.jsonl`));
    expect(readdirSync(dir).filter((f) => f.endsWith('.jsonl'))).toEqual([]);
  }, 120_000);
});

describe('two imports at once', () => {
  it('of overlapping files into one journal: every record once', async () => {
    const data = tempDir();
    const files = tempDir();
    const from = Date.UTC(2025, 11, 20) / 1000;
    const N = 20_000;
    /** Forecasts k in [lo, hi) and a settlement of each even one, as journal lines. */
    const exportOf = (name: string, lo: number, hi: number): string => {
      const lines: string[] = [];
      for (let k = lo; k < hi; k++) {
        const f = forecastOf(k, from);
        const records: JournalRecord[] = [f];
        if (k % 2 === 0)
          records.push(settledRecord(f, { price: 101, t: f.target_t, source: 'candles' }, 0.01, f.target_t + 60));
        lines.push(...records.map(recordLine));
      }
      const path = join(files, name);
      writeFileSync(path, lines.join(''));
      return path;
    };
    // Half of each file is in the other; the months they span (December, January) are shared too.
    const a = exportOf('a.jsonl', 0, N);
    const b = exportOf('b.jsonl', N / 2, N + N / 2);
    const env = { FCAST_DATA_DIR: data, FCAST_BASE_URL: emu.server.url, FCAST_API_KEY: emu.server.testKey };
    const [ra, rb] = await Promise.all([
      spawnFcast(['journal', 'import', a, '--json'], env),
      spawnFcast(['journal', 'import', b, '--json'], env),
    ]);
    expect(ra.code, ra.stderr).toBe(0);
    expect(rb.code, rb.stderr).toBe(0);
    const records = journalLines(data);
    const keys = records.map(keyOf);
    expect(new Set(keys).size).toBe(keys.length);
    const forecasts = records.filter((r) => r.kind === 'forecast');
    expect(forecasts).toHaveLength(N + N / 2);
    expect(records.filter((r) => r.kind === 'settlement')).toHaveLength((N + N / 2) / 2);
    // What the two summaries say they added is what the journal holds.
    const sa = JSON.parse(ra.stdout);
    const sb = JSON.parse(rb.stdout);
    expect(sa.forecasts + sb.forecasts).toBe(N + N / 2);
    expect(sa.settlements + sb.settlements).toBe((N + N / 2) / 2);
  }, 180_000);
});
