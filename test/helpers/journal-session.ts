// A recorded session against the emulator on its own clock: `predict --record` every few
// emulated minutes for a few emulated hours, as a user running it in a loop (or a watch) would.
// The emulated clock starts on 2 March 2026 while fcast's own clock says 22 November 2026, so a
// test passes only if fcast settles by the server's clock.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Emulator } from './emulator.js';
import { expectExit, tempDir } from './cli.js';

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

/** Emulated time from the end of a session to its settling: every forecast is due by then. */
export const SETTLE_AFTER_MS = 12 * 3600_000;

export interface SessionFixture {
  /** A journal of its own holding the session as recorded, the emulator's clock where the recording ended. */
  recorded(): Promise<string>;
  /** A journal of its own holding the session settled SETTLE_AFTER_MS later, the emulator's clock there. */
  settled(): Promise<string>;
}

/**
 * Each test its own session, in any order or alone (`-t`): the session is recorded (and
 * settled) once per file, the first time a test asks, and each test gets a copy of the journal
 * with the emulator's clock set where that journal stands. The emulator's request log is left
 * empty, as each test begins with it.
 */
export function sessionFixture(emu: Emulator, opts: SessionOptions): SessionFixture {
  const end = SESSION_START + opts.steps * opts.stepS * 1000;
  let recorded: Promise<string> | undefined;
  let settled: Promise<string> | undefined;
  const recordedOnce = (): Promise<string> => {
    recorded ??= (async () => {
      const data = tempDir('fcast-session-');
      await recordSession(emu, data, opts);
      return data;
    })();
    return recorded;
  };
  const settledOnce = (): Promise<string> => {
    settled ??= (async () => {
      const data = copyOf(await recordedOnce());
      emu.server.clock.set({ start: end + SETTLE_AFTER_MS, speed: 0 });
      expectExit(await emu.runWithKey(['journal', 'settle'], { env: { FCAST_DATA_DIR: data } }), 0);
      return data;
    })();
    return settled;
  };
  const fresh = async (template: Promise<string>, at: number) => {
    const data = copyOf(await template);
    emu.server.clock.set({ start: at, speed: 0 });
    emu.server.requests.splice(0);
    return data;
  };
  return {
    recorded: () => fresh(recordedOnce(), end),
    settled: () => fresh(settledOnce(), end + SETTLE_AFTER_MS),
  };
}

/** A copy of a data directory (modes kept: the journal is 0700, its files 0600). */
function copyOf(data: string): string {
  const copy = join(tempDir(), 'data');
  cpSync(data, copy, { recursive: true });
  return copy;
}

/** The emulator's own answer to a path, with the test key. */
export async function served<T = any>(emu: Emulator, path: string): Promise<T> {
  const res = await fetch(`${emu.server.url}/api/agent/v1/${path}`, {
    headers: { authorization: `Bearer ${emu.server.testKey}` },
  });
  return (await res.json()) as T;
}
