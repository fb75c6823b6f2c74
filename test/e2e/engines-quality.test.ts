// The emulator's engines differ in quality as docs/reference.md says ("The engines"), and a
// long session recorded and settled by fcast finds it: every forecast of eight symbols recorded
// every six emulated hours for weeks (`predict --record` on the emulator's own clock, no
// sleep), settled by `journal settle`, exported, and scored here by a small implementation of
// the scores of its own (not fcast's): the ranked probability score over short < flat < long
// and the 3-class Brier score.
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { expectExit, tempDir } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';

const emu = useEmulator({ seed: 'engines' });

const SYMBOLS = ['BTC/USD', 'ETH/USD', 'EUR/USD', 'SOL/USD', 'XAU/USD', 'GBP/USD', 'AAPL/USD', 'SPX/USD'];
/** A quarter past six o'clock: every cadence up to 6 h shows a forecast made on its grid's hour, 15 minutes ago. */
const START = Date.UTC(2026, 2, 2, 0, 15);
const STEP_MS = 6 * 3600_000;
const STEPS = Number(process.env.FCAST_ENGINES_STEPS ?? 60);

type Probabilities = [long: number, short: number, flat: number];

/** 0 down, 1 flat, 2 up. */
type Move = 0 | 1 | 2;

/** The ranked probability score, classes ordered short < flat < long (0 best, 2 worst). */
function rps([, short, flat]: Probabilities, y: Move): number {
  const down = y === 0 ? 1 : 0;
  const downOrFlat = y <= 1 ? 1 : 0;
  return (short - down) ** 2 + (short + flat - downOrFlat) ** 2;
}

/** The 3-class Brier score: the squared distance of the three probabilities from the outcome. */
function brier([long, short, flat]: Probabilities, y: Move): number {
  return (long - (y === 2 ? 1 : 0)) ** 2 + (short - (y === 0 ? 1 : 0)) ** 2 + (flat - (y === 1 ? 1 : 0)) ** 2;
}

const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('the emulator’s engines, over a long recorded session', () => {
  it('ia2 and ia3 both carry information about the move, and ia2 scores measurably better', async () => {
    const data = tempDir();
    const env = { FCAST_DATA_DIR: data };
    emu.server.clock.set({ start: START, speed: 0 });
    for (let i = 0; i < STEPS; i++) {
      const recorded = await emu.runWithKey(['predict', ...SYMBOLS, '--record', '--json'], { env });
      expectExit(recorded, 0);
      // Every other step, the settling: the 15-minute candles reach a day back.
      if (i % 2 === 1) expectExit(await emu.runWithKey(['journal', 'settle'], { env }), 0);
      emu.server.clock.advance(STEP_MS);
    }
    emu.server.clock.advance(2 * 86_400_000);
    expectExit(await emu.runWithKey(['journal', 'settle'], { env }), 0);
    const exported = await emu.runWithKey(['journal', 'export'], { env });
    expectExit(exported, 0);
    const rows = (parse(exported.stdout, { columns: true }) as Array<Record<string, string>>).filter(
      (r) => r.status === 'settled',
    );
    // Weeks of forecasts: enough that each figure below is several standard errors from its bound.
    expect(rows.length).toBeGreaterThan(5000);
    const moves = rows.map((r): Move => (r.move === 'up' ? 2 : r.move === 'down' ? 0 : 1));
    const engine = (prefix: string): Probabilities[] =>
      rows.map((r) => [Number(r[`${prefix}p_long`]), Number(r[`${prefix}p_short`]), Number(r[`${prefix}p_flat`])]);
    // The contract's columns are ia3's; ia2's are its own.
    const engines = { ia2: engine('ia2.'), ia3: engine('') };
    const frequency = ([2, 0, 1] as const).map((y) => moves.filter((m) => m === y).length / moves.length);
    const climatology: Probabilities = [frequency[0]!, frequency[1]!, frequency[2]!];
    const score = (f: (p: Probabilities, y: Move) => number, ps: Probabilities[]) =>
      mean(ps.map((p, i) => f(p, moves[i]!)));
    const scores = {
      ia2: { rps: score(rps, engines.ia2), brier: score(brier, engines.ia2) },
      ia3: { rps: score(rps, engines.ia3), brier: score(brier, engines.ia3) },
      climatology: {
        rps: score(
          rps,
          rows.map(() => climatology),
        ),
      },
    };
    const shown = JSON.stringify({ n: rows.length, scores });
    // The documented difference: ia2 is the sharper engine, by at least 0.005 on both scores.
    expect(scores.ia2.rps, shown).toBeLessThan(scores.ia3.rps - 0.005);
    expect(scores.ia2.brier, shown).toBeLessThan(scores.ia3.brier - 0.005);
    // Both mean something: each beats the sample's own class frequencies...
    expect(scores.ia2.rps, shown).toBeLessThan(scores.climatology.rps - 0.005);
    expect(scores.ia3.rps, shown).toBeLessThan(scores.climatology.rps);
    for (const [name, ps] of Object.entries(engines)) {
      // ...each is calibrated in the large: its mean probability of each class is that class's frequency...
      for (const k of [0, 1, 2] as const)
        expect(Math.abs(mean(ps.map((p) => p[k])) - climatology[k]), `${name}, class ${k}`).toBeLessThan(0.02);
      // ...and its calls come true more often than not, ia3's as often as the published record says.
      const resolved = ps.map((p, i) => [p, moves[i]!] as const).filter(([, y]) => y !== 1);
      const hit = resolved.filter(([p, y]) => p[0] >= p[1] === (y === 2)).length / resolved.length;
      if (name === 'ia3') expect(hit, shown).toBeGreaterThan(0.52);
      if (name === 'ia3') expect(hit, shown).toBeLessThan(0.57);
      if (name === 'ia2') expect(hit, shown).toBeGreaterThan(0.55);
    }
  }, 600_000);
});
