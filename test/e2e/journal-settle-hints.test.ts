// `journal settle` says why forecasts cannot be settled, and how to avoid it (issue 43): a
// target time older than the candles served (keep a recording watch running, or settle before
// they roll off), and forecasts recorded ahead of a server whose clock went back (an emulator
// restarted with --fresh). On the emulator's clock: jumps, never sleeps.
import { describe, expect, it } from 'vitest';
import { expectExit, tempDir } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';

const emu = useEmulator({ seed: 'settle-hints' });
const DAY = 86_400_000;

async function recorded() {
  const env = { FCAST_DATA_DIR: tempDir() };
  expectExit(await emu.runWithKey(['predict', 'BTC/USD', '--record', '--json'], { env }), 0);
  return env;
}

describe('journal settle explains what it cannot settle', () => {
  it('after a jump past the candles, names the oldest candle and the two ways to avoid it', async () => {
    const env = await recorded();
    emu.server.clock.advance(60 * DAY);
    try {
      for (const mode of [[], ['--json']]) {
        const r = await emu.runWithKey(['journal', 'settle', ...mode], { env });
        expectExit(r, 0);
        if (mode.length === 0) {
          expect(r.stdout).toMatch(/^unsettleable {2}[1-9]\d*$/m);
          expect(r.stderr).toMatch(
            /^fcast: \d+ forecasts? could not be settled: no candle closes at (its|their) target time \((it is|all are|\d+ are) older than the oldest candle the service still serves, \d{4}-\d\d-\d\d \d\d:\d\d UTC\), and no price was recorded within 900 s after it$/m,
          );
          expect(r.stderr).toContain('keep a recording watch running (fcast predict SYMBOL --watch --record');
          expect(r.stderr).toContain("run 'fcast journal settle' before the candles roll off");
        } else {
          // Marked once: a second run has nothing new to explain, and stdout stays one document.
          expect(JSON.parse(r.stdout).unsettleable).toBe(0);
          expect(r.stderr).toBe('');
        }
      }
    } finally {
      emu.server.clock.advance(-60 * DAY);
    }
  });

  it('says when forecasts were recorded ahead of the server: its clock went back', async () => {
    const env = await recorded();
    emu.server.clock.advance(-2 * DAY);
    try {
      const r = await emu.runWithKey(['journal', 'settle'], { env });
      expectExit(r, 0);
      expect(r.stdout).toMatch(/not due by the server's clock/);
      expect(r.stderr).toMatch(
        /^fcast: \d+ forecasts? not due (was|were) recorded at a time the server's clock has not reached \(it is at .+ UTC\): its clock went back$/m,
      );
      expect(r.stderr).toContain("'fcast mock' without them resumes the clock it kept");
      expect(r.stderr).not.toContain('could not be settled');
    } finally {
      emu.server.clock.advance(2 * DAY);
    }
  });

  it('says nothing more when everything settles or is simply not due yet', async () => {
    const env = await recorded();
    const r = await emu.runWithKey(['journal', 'settle'], { env });
    expectExit(r, 0);
    expect(r.stderr).toBe('');
  });
});
