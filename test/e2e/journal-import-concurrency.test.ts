// An import never starves the recorders: it reads and de-duplicates without the journal's lock
// and takes it for one short batch at a time. Before, `journal import` held the lock for its
// whole run (1,000,000 rows: 17-26 s) and a `predict --record` started meanwhile gave up after
// 10 s ("not recorded"). Here 200,000 lines (the million is in `npm run bench`) beside four
// recorder loops of real processes: every recorder records, none waits 1 s for the lock, and
// every forecast, imported or recorded, is in the journal once.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnFcast, tempDir } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { forecastAt } from '../helpers/journal-round-trip.js';
import { SESSION_START } from '../helpers/journal-session.js';

const emu = useEmulator({ seed: 'import-beside-recorders' });

const IMPORTED = 100_000;
const IMPORT_ORIGIN = 'https://import.example';

/** An import file of journal lines: IMPORTED forecasts and a settlement of each, 200,000 lines. */
function importFile(): string {
  const path = join(tempDir(), 'import.jsonl');
  const lines: string[] = [];
  const from = Date.UTC(2026, 0, 1) / 1000;
  for (let i = 0; i < IMPORTED; i++) {
    const symbol = `S${i % 50}/USD`;
    const ts = from + Math.floor(i / 50) * 3600;
    lines.push(
      JSON.stringify(
        forecastAt(0, {
          origin: IMPORT_ORIGIN,
          symbol,
          ts,
          target_t: ts + 3600,
          anchor_price: 100 + (i % 7),
          direction: i % 2 ? 'long' : 'short',
          recorded_at: ts,
        }),
      ),
      JSON.stringify({
        v: 2,
        kind: 'settlement',
        origin: IMPORT_ORIGIN,
        symbol,
        tf: '1h',
        ts,
        direction: i % 2 ? 'long' : 'short',
        p_long: 0.5,
        p_short: 0.4,
        p_flat: 0.1,
        anchor_price: 100 + (i % 7),
        status: 'settled',
        settle_price: 101,
        settle_t: ts + 3600,
        settle_source: 'candles',
        return_pct: 0,
        outcome: 'win',
        move: 'up',
        flat_band_pct: 0.01,
        settled_at: ts + 3700,
      }),
    );
  }
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

function journal(data: string): any[] {
  const dir = join(data, 'journal');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .flatMap((f) =>
      readFileSync(join(dir, f), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l)),
    );
}

describe('an import beside recorders', () => {
  it('every recorder records, none waits 1 s for the lock, every forecast is in the journal once', async () => {
    const data = tempDir();
    const file = importFile();
    const env = { FCAST_BASE_URL: emu.server.url, FCAST_API_KEY: emu.server.testKey, FCAST_DATA_DIR: data };
    emu.server.clock.set({ start: SESSION_START, speed: 0 });
    let importing = true;
    const imported = spawnFcast(['journal', 'import', file, '--json'], env).finally(() => (importing = false));
    const shown = new Set<string>();
    const waits: number[] = [];
    const runs: Array<{ code: number | null; stderr: string }> = [];
    const recorder = async (symbol: string) => {
      // At least one run each, and on while the import runs.
      do {
        const r = await spawnFcast(['predict', symbol, '--record', '--json', '--verbose'], env);
        runs.push(r);
        if (r.code === 0) {
          for (const f of Object.values<any>(JSON.parse(r.stdout).predictions)) shown.add(`${symbol} ${f.tf} ${f.ts}`);
          const waited = /journal: recorded .* waited (\d+) ms for the lock/.exec(r.stderr);
          if (waited) waits.push(Number(waited[1]));
        }
        emu.server.clock.advance(60_000);
      } while (importing);
    };
    await Promise.all([recorder('BTC/USD'), recorder('ETH/USD'), recorder('EUR/USD'), recorder('SOL/USD')]);
    const done = await imported;
    expect(done.code, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ rows: 2 * IMPORTED, forecasts: IMPORTED, settlements: IMPORTED });
    expect(runs.length).toBeGreaterThanOrEqual(4);
    for (const r of runs) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toContain('not recorded');
    }
    // Each run said how long it waited: all of them, and none as long as a second.
    expect(waits).toHaveLength(runs.length);
    expect(Math.max(...waits), `waits: ${waits.sort((a, b) => a - b).join(', ')}`).toBeLessThan(1000);
    const records = journal(data);
    const forecasts = records.filter((r) => r.kind === 'forecast');
    const keys = forecasts.map((r) => `${r.origin} ${r.symbol} ${r.tf} ${r.ts}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(forecasts.filter((r) => r.origin === IMPORT_ORIGIN)).toHaveLength(IMPORTED);
    const recorded = new Set(
      forecasts.filter((r) => r.origin === new URL(emu.server.url).origin).map((r) => `${r.symbol} ${r.tf} ${r.ts}`),
    );
    expect(recorded).toEqual(shown);
  }, 180_000);
});
