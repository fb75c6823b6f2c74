// The journal under real processes (bin/fcast.js): eight recorders at once lose and duplicate
// nothing, and recorders killed with SIGKILL at any moment leave a journal in which every
// forecast recorded (then or by a later run) appears exactly once, torn lines aside.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnFcast, tempDir } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { SESSION_START, served } from '../helpers/journal-session.js';

const emu = useEmulator({ seed: 'durable' });

function journalLines(data: string): { records: any[]; damaged: number } {
  const dir = join(data, 'journal');
  const records: any[] = [];
  let damaged = 0;
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.jsonl'))) {
    const text = readFileSync(join(dir, f), 'utf8');
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        records.push(JSON.parse(line));
      } catch {
        damaged++;
      }
    }
  }
  return { records, damaged };
}

const keyOf = (r: any) => (r.kind === 'price' ? `price ${r.symbol} ${r.t}` : `${r.kind} ${r.symbol} ${r.tf} ${r.ts}`);

/** The keys the emulator serves now for these symbols: forecasts and the price. */
async function servedKeys(symbols: string[]): Promise<string[]> {
  const keys: string[] = [];
  for (const symbol of symbols) {
    const body = await served(emu, `predictions.php?symbol=${encodeURIComponent(symbol)}`);
    for (const f of Object.values<any>(body.predictions)) keys.push(`forecast ${symbol} ${f.tf} ${f.ts}`);
    keys.push(`price ${symbol} ${body.price.t}`);
  }
  return keys;
}

const SYMBOLS = ['BTC/USD', 'ETH/USD', 'EUR/USD', 'SOL/USD', 'XAU/USD', 'GBP/USD', 'AAPL/USD', 'SPX/USD'];

describe('concurrent recorders', () => {
  it('eight processes recording overlapping symbols at once: every record once', async () => {
    const data = tempDir();
    const env = () => ({ FCAST_BASE_URL: emu.server.url, FCAST_API_KEY: emu.server.testKey, FCAST_DATA_DIR: data });
    const expected = new Set<string>();
    emu.server.clock.set({ start: SESSION_START, speed: 0 });
    for (let round = 0; round < 3; round++) {
      // Process i records symbols i and i + 1: each symbol is shown by two processes at once.
      const runs = SYMBOLS.map((_, i) =>
        spawnFcast(['predict', SYMBOLS[i]!, SYMBOLS[(i + 1) % SYMBOLS.length]!, '--record', '--json'], env()),
      );
      const done = await Promise.all(runs);
      for (const r of done) {
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr).toBe('');
      }
      for (const k of await servedKeys(SYMBOLS)) expected.add(k);
      emu.server.clock.advance(20 * 60_000);
    }
    const { records, damaged } = journalLines(data);
    expect(damaged).toBe(0);
    const keys = records.filter((r) => r.kind !== 'settlement').map(keyOf);
    expect(keys.length).toBe(new Set(keys).size);
    expect(new Set(keys)).toEqual(expected);
    const settlements = records.filter((r) => r.kind === 'settlement').map(keyOf);
    expect(settlements.length).toBe(new Set(settlements).size);
  }, 60_000);
});

describe('recorders killed with SIGKILL', () => {
  it('leave every record once: a later run writes what a killed one did not, nothing twice', async () => {
    const data = tempDir();
    const env = { FCAST_BASE_URL: emu.server.url, FCAST_API_KEY: emu.server.testKey, FCAST_DATA_DIR: data };
    const symbols = ['BTC/USD', 'ETH/USD', 'SOL/USD'];
    const steps = 16;
    let seed = 42;
    const nextDelay = () => {
      seed = (seed * 48_271) % 2_147_483_647;
      // From before the process has started to well after it has usually finished its write.
      return 40 + (seed % 360);
    };
    let killed = 0;
    for (let step = 0; step < steps; step++) {
      emu.server.clock.set({ start: SESSION_START + step * 10 * 60_000, speed: 0 });
      const delay = nextDelay();
      const r = await spawnFcast(['predict', ...symbols, '--record', '--json'], env, {
        onSpawn: (child) => {
          setTimeout(() => child.kill('SIGKILL'), delay);
        },
      });
      if (r.signal === 'SIGKILL') killed++;
    }
    expect(killed).toBeGreaterThan(0);
    // Then the same steps once more, unkilled: they fill in what the killed runs never wrote.
    const expected = new Set<string>();
    for (let step = 0; step < steps; step++) {
      emu.server.clock.set({ start: SESSION_START + step * 10 * 60_000, speed: 0 });
      const r = await spawnFcast(['predict', ...symbols, '--record', '--json'], env);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
      for (const k of await servedKeys(symbols)) expected.add(k);
    }
    const { records, damaged } = journalLines(data);
    // A kill mid-write can tear at most the line being written: never more lines than kills.
    expect(damaged).toBeLessThanOrEqual(killed);
    const keys = records.filter((r) => r.kind !== 'settlement').map(keyOf);
    expect(keys.length).toBe(new Set(keys).size);
    expect(new Set(keys)).toEqual(expected);
    const settlements = records.filter((r) => r.kind === 'settlement').map(keyOf);
    expect(settlements.length).toBe(new Set(settlements).size);
    // The journal still reads: list sees every forecast.
    const list = await spawnFcast(['journal', 'list', '--json'], env);
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toHaveLength(keys.filter((k) => k.startsWith('forecast')).length);
  }, 90_000);
});
