// The emulated clock is kept with the keys across restarts (issue 43): a restart resumes it
// where it stood, at its speed; --clock sets it; --fresh (no state file) starts both anew; a
// clock that was plain real time stays real time. On a wall clock of the test's own: no sleeps.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resumeClock } from '../../src/mock/clock.js';
import { forgetKept, startMock } from '../../src/mock/index.js';
import { tempDir } from '../helpers/cli.js';

const T0 = Date.UTC(2026, 2, 1, 10, 0, 0);

function wall(start = T0) {
  let now = start;
  return { now: () => now, pass: (ms: number) => (now += ms) };
}

async function clockOf(url: string) {
  return (await (await fetch(`${url}/__mock/clock`)).json()) as { now: string; speed: number };
}

describe('resumeClock', () => {
  const saved = { at: T0 + 3_600_000, savedAt: T0, speed: 60 };
  it('resumes a saved clock where it stood, at its speed unless --speed is given', () => {
    expect(resumeClock({}, saved)).toEqual({ settings: { start: saved.at, speed: 60 }, resumed: saved });
    expect(resumeClock({ speed: 0 }, saved).settings).toEqual({ start: saved.at, speed: 0 });
  });
  it('--clock sets it (keeping the speed), nothing saved starts as asked, a real-time clock stays real time', () => {
    expect(resumeClock({ start: 5 }, saved)).toEqual({ settings: { start: 5, speed: 60 } });
    expect(resumeClock({ speed: 2 }, undefined)).toEqual({ settings: { speed: 2 } });
    expect(resumeClock({}, { at: T0 + 300, savedAt: T0, speed: 1 })).toEqual({ settings: {} });
  });
  it('ignores a saved clock it cannot stand at', () => {
    expect(resumeClock({}, { at: -1, savedAt: 0, speed: 1 })).toEqual({ settings: {} });
    expect(resumeClock({}, { at: T0, savedAt: 0, speed: 1e9 })).toEqual({ settings: {} });
  });
});

describe('the emulator keeps its clock in its state file', () => {
  it('a restart resumes where the clock stood, at its speed; moves by /__mock/clock are kept at once', async () => {
    const dir = tempDir();
    const stateFile = join(dir, 'state.json');
    const w = wall();
    const first = await startMock({ stateFile, now: w.now, clock: { start: T0, speed: 60 } });
    expect(first.resumedClock).toBeUndefined();
    w.pass(60_000); // a real minute: an emulated hour
    expect((await clockOf(first.url)).now).toBe('2026-03-01T11:00:00.000Z');
    await first.close();
    expect(JSON.parse(readFileSync(stateFile, 'utf8')).clock).toEqual({
      at: T0 + 3_600_000,
      savedAt: w.now(),
      speed: 60,
    });

    w.pass(3_600_000); // an hour with no emulator: the clock stood still
    const second = await startMock({ stateFile, now: w.now });
    try {
      expect(second.resumedClock?.at).toBe(T0 + 3_600_000);
      expect(await clockOf(second.url)).toMatchObject({ now: '2026-03-01T11:00:00.000Z', speed: 60 });
      const moved = await fetch(`${second.url}/__mock/clock`, {
        method: 'POST',
        body: '{"advance": 86400, "speed": 0}',
      });
      expect(moved.status).toBe(200);
      // Saved when moved, not only at the end: a kill -9 now would not lose the jump.
      expect(JSON.parse(readFileSync(stateFile, 'utf8')).clock).toMatchObject({ at: T0 + 90_000_000, speed: 0 });
    } finally {
      await second.close();
    }

    const set = await startMock({ stateFile, now: w.now, clock: { start: T0 } });
    expect(set.resumedClock).toBeUndefined();
    expect(await clockOf(set.url)).toMatchObject({ now: '2026-03-01T10:00:00.000Z', speed: 0 });
    await set.close();

    // --fresh removes the file: the keys and the clock start anew.
    forgetKept(stateFile);
    expect(existsSync(stateFile)).toBe(false);
    const fresh = await startMock({ stateFile, now: w.now });
    try {
      expect(fresh.resumedClock).toBeUndefined();
      expect(Date.parse((await clockOf(fresh.url)).now)).toBe(w.now());
    } finally {
      await fresh.close();
    }
  });

  it('keeps the keys it had with the clock, and reads a file of an earlier version (no clock) as real time', async () => {
    const dir = tempDir();
    const stateFile = join(dir, 'state.json');
    const w = wall();
    const first = await startMock({ stateFile, now: w.now, clock: { start: T0 - 86_400_000, speed: 0 } });
    const reg = await fetch(`${first.url}/api/agent/v1/register.php`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"email":"kept-clock@example.com"}',
    });
    expect(reg.status).toBe(201);
    await first.close();
    const kept = JSON.parse(readFileSync(stateFile, 'utf8'));
    expect(kept.restKeyHashes).toHaveLength(1);
    expect(kept.clock).toMatchObject({ at: T0 - 86_400_000, speed: 0 });
    const second = await startMock({ stateFile, now: w.now });
    try {
      expect(second.keptKeys).toBe(1);
      expect(second.resumedClock?.at).toBe(T0 - 86_400_000);
    } finally {
      await second.close();
    }
    writeFileSync(stateFile, `${JSON.stringify({ restKeyHashes: kept.restKeyHashes, registeredEmails: [] })}\n`);
    const older = await startMock({ stateFile, now: w.now });
    try {
      expect(older.keptKeys).toBe(1);
      expect(older.resumedClock).toBeUndefined();
      expect(Date.parse((await clockOf(older.url)).now)).toBe(w.now());
    } finally {
      await older.close();
    }
  });
});
