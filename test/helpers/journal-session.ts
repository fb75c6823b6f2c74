// A recorded session against the emulator on its own clock: `predict --record` every few
// emulated minutes for a few emulated hours, as a user running it in a loop (or a watch) would.
// The emulated clock starts on 2 March 2026 while fcast's own clock says 22 November 2026, so a
// test passes only if fcast settles by the server's clock.
import { expect } from 'vitest';
import type { Emulator } from './emulator.js';
import { expectExit } from './cli.js';

/** 2026-03-02 10:00 UTC, emulated. */
export const SESSION_START = Date.UTC(2026, 2, 2, 10);

export interface SessionOptions {
  steps: number;
  /** Emulated seconds between two recordings. */
  stepS: number;
  symbols: string[];
  /** Ask for candles every this many steps (0: never). */
  candlesEvery?: number;
}

export async function recordSession(emu: Emulator, data: string, opts: SessionOptions): Promise<void> {
  emu.server.clock.set({ start: SESSION_START, speed: 0 });
  for (let i = 0; i < opts.steps; i++) {
    const candles = opts.candlesEvery && i % opts.candlesEvery === 0 ? ['--candles'] : [];
    const r = await emu.runWithKey(['predict', ...opts.symbols, '--record', '--json', ...candles], {
      env: { FCAST_DATA_DIR: data },
    });
    expectExit(r, 0);
    expect(r.stderr).toBe('');
    emu.server.clock.advance(opts.stepS * 1000);
  }
}

/** The emulator's own answer to a path, with the test key. */
export async function served<T = any>(emu: Emulator, path: string): Promise<T> {
  const res = await fetch(`${emu.server.url}/api/agent/v1/${path}`, {
    headers: { authorization: `Bearer ${emu.server.testKey}` },
  });
  return (await res.json()) as T;
}
