// The emulator's forecasts and its published track record tell one story: settled by the
// journal's rule (the close at target_t against the anchor, a 0.01% neutral band), its
// forecasts come true about as often as the record it publishes says, at every horizon.
import { describe, expect, it } from 'vitest';
import { FORECAST_TIMEFRAMES } from '../../src/core/domain.js';
import { SYMBOLS } from '../../src/mock/catalog.js';
import { engineForecast } from '../../src/mock/forecasts.js';
import { startMock } from '../../src/mock/index.js';
import { rawPrice } from '../../src/mock/prices.js';
import { call, REST } from './helpers.js';

const SEED = 'consistency';
const AT = Date.UTC(2026, 10, 22, 12) / 1000;

/** The resolved win rate of `tf`'s forecasts over a stretch of emulated time, as a journal would settle them. */
function winRate(tf: string, horizonMin: number, cadence: number): { rate: number; n: number } {
  let wins = 0;
  let losses = 0;
  for (const info of SYMBOLS.slice(0, 6)) {
    for (let k = 1; k <= 150; k++) {
      const ts = AT - k * cadence * 7;
      const f = engineForecast(SEED, info, tf, horizonMin, ts, AT);
      const returnPct = (rawPrice(SEED, info, f.target_t) / f.anchor_price - 1) * 100;
      if (Math.abs(returnPct) < 0.01) continue;
      if (returnPct > 0 === (f.ia3.direction === 'long')) wins++;
      else losses++;
    }
  }
  return { rate: wins / (wins + losses), n: wins + losses };
}

describe('forecasts against the published record', () => {
  it.each([
    ['1min', 60],
    ['15min', 900],
    ['1h', 3600],
    ['6h', 21_600],
  ])('%s: the forecasts come true about as often as the record says', async (tf, cadence) => {
    const horizon = FORECAST_TIMEFRAMES.find(([name]) => name === tf)![1];
    const own = winRate(tf, horizon, cadence);
    const server = await startMock({ seed: SEED, now: () => AT * 1000 });
    try {
      const record = (await call(`${server.url}${REST}accuracy.php?tf=${tf}`)).body;
      const published = record.results[0].resolved_win_rate as number;
      expect(own.n).toBeGreaterThan(600);
      // Within a few points of the record (the sample's own standard error is ~2 points), and
      // far from the 70-80% a forecaster that peeked at the future would show.
      expect(Math.abs(own.rate - published), `${tf}: own ${own.rate.toFixed(3)}, published ${published}`).toBeLessThan(
        0.08,
      );
      expect(own.rate).toBeLessThan(0.62);
    } finally {
      await server.close();
    }
  });
});
