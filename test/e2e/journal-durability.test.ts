// The journal under real processes (bin/fcast.js): eight recorders at once lose and duplicate
// nothing, and recorders killed with SIGKILL at any moment leave a journal in which every
// forecast recorded (then or by a later run) appears exactly once, torn lines aside.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
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

describe('the lock of a writer stopped or killed at any moment', () => {
  const lockModule = new URL('../../dist/config/file-lock.js', import.meta.url).href;

  it('never exists without its owner in it: a kill at any moment leaves a lock the next writer can judge', async () => {
    // A writer taking and releasing the lock as fast as it can, stopped (SIGSTOP) at random
    // moments: whenever the lock exists, it names its owner. A lock created empty and written
    // after was empty in about half of these stops; killed there, it left a lock of no one,
    // which every recorder waited 10 s for, then gave up on, for 30 s.
    const dir = tempDir();
    const lock = join(dir, 'journal.lock');
    const child = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { acquireLock } = await import(${JSON.stringify(lockModule)});` +
          `process.stdout.write('ready\\n');` +
          `for (;;) { const release = await acquireLock(${JSON.stringify(lock)}, 'the test lock'); release(); }`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await new Promise((ready) => child.stdout!.once('data', ready));
      let held = 0;
      for (let i = 0; i < 150; i++) {
        child.kill('SIGSTOP');
        // SIGSTOP is delivered asynchronously: wait until the kernel says the process is stopped.
        while (!/^State:\s+T/m.test(readFileSync(`/proc/${child.pid}/status`, 'utf8'))) await Promise.resolve();
        let text: string | undefined;
        try {
          text = readFileSync(lock, 'utf8');
        } catch {
          text = undefined;
        }
        if (text !== undefined) {
          held++;
          expect(JSON.parse(text)).toMatchObject({ pid: child.pid, host: hostname() });
        }
        child.kill('SIGCONT');
        await new Promise((resume) => setTimeout(resume, i % 3));
      }
      expect(held).toBeGreaterThan(0);
    } finally {
      child.kill('SIGKILL');
      await new Promise((exited) => child.once('exit', exited));
    }
    // Killed holding it or not: the next writer takes it at once, and sweeps the dead one's claim.
    const { acquireLock } = await import(lockModule);
    const started = Date.now();
    (await acquireLock(lock, 'the test lock'))();
    expect(Date.now() - started).toBeLessThan(2000);
  }, 30_000);

  it('a claim left by a dead writer is swept when its lock is broken, a live writer’s is not', async () => {
    const dir = tempDir();
    const dead = spawn(process.execPath, ['-e', '0']);
    await new Promise((exited) => dead.on('close', exited));
    const owner = JSON.stringify({ pid: dead.pid, host: hostname(), token: `${dead.pid}-1-1` });
    writeFileSync(join(dir, 'journal.lock'), owner);
    writeFileSync(join(dir, `journal.lock.claim-${dead.pid}-1-1`), owner);
    const live = `journal.lock.claim-${process.ppid}-1-1`;
    writeFileSync(
      join(dir, live),
      JSON.stringify({ pid: process.ppid, host: hostname(), token: `${process.ppid}-1-1` }),
    );
    const { acquireLock } = await import(lockModule);
    (await acquireLock(join(dir, 'journal.lock'), 'the test lock'))();
    expect(readdirSync(dir)).toEqual([live]);
  });
});
