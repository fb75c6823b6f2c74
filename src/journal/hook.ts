// What `--record` does with the responses a run showed (predict, demo, and each refresh of a
// watch): one transaction that appends the forecasts and price observations not yet recorded,
// and settles the recorded forecasts the responses themselves prove, by the rule of
// `journal settle` up to its step 2 (settle.ts: due by the server's clock, and a price observed
// at their target time or a candle closing then). It reads the index, never the whole journal.
import type { ForecastEnvelope } from '../schema/bodies.js';
import { readCandles } from '../api/candles.js';
import {
  DEFAULT_FLAT_BAND_PCT,
  forecastKey,
  forecastRecords,
  priceKey,
  priceRecord,
  type JournalRecord,
} from './record.js';
import { responseEvidence, settleForecast } from './settle.js';
import { withJournal } from './store.js';

export interface ShownResponse {
  symbol: string;
  body: ForecastEnvelope;
}

export interface Recorded {
  forecasts: number;
  prices: number;
  /** Settlements written: settled, or unsettleable for want of an anchor price. */
  settled: number;
  /** How long the journal's lock kept this recorder waiting, in milliseconds. */
  waitedMs: number;
}

/**
 * Records what was shown by the service at `origin` (originOf its base URL) in the journal
 * under `dataDir`: the forecasts of the timeframes in
 * `tfs` (lower-cased, as --tf gives them; all when undefined), the price observations, and the
 * settlements they prove. Throws when the journal cannot be written.
 */
export async function recordShown(
  dataDir: string,
  origin: string,
  shown: readonly ShownResponse[],
  nowS: number,
  tfs?: readonly string[],
): Promise<Recorded> {
  const evidence = await Promise.all(
    shown.map(async (s) => {
      const price = priceRecord(s, origin, nowS);
      const observation = price && { t: price.t, last: price.last };
      const candles = await readCandles(s.body.candles);
      return {
        symbol: s.body.symbol || s.symbol,
        forecasts: forecastRecords(s, origin, nowS).filter(
          (f) => tfs === undefined || tfs.includes(f.tf.toLowerCase()),
        ),
        price,
        evidence: responseEvidence(
          { serverT: s.body.meta.server_t, candles, price: observation },
          observation ? [observation] : [],
          nowS,
        ),
      };
    }),
  );
  return withJournal(dataDir, (tx) => {
    const fresh: JournalRecord[] = [];
    const keys = new Set<string>();
    let forecasts = 0;
    let prices = 0;
    for (const e of evidence) {
      for (const f of e.forecasts) {
        const key = forecastKey(f);
        if (keys.has(key) || tx.hasForecast(f)) continue;
        keys.add(key);
        fresh.push(f);
        forecasts++;
      }
      if (e.price && !keys.has(priceKey(e.price)) && !tx.hasPrice(e.price)) {
        keys.add(priceKey(e.price));
        fresh.push(e.price);
        prices++;
      }
    }
    // What the responses prove: steps 1 and 2 of the rule, as `journal settle` applies them;
    // anything looser needs the recorded observations, and waits for it (settle.ts). Only this
    // origin's forecasts: another service's prices never settle them.
    let settled = 0;
    for (const e of evidence) {
      for (const f of tx.openForecasts(origin, e.symbol)) {
        const key = `settle\t${forecastKey(f)}`;
        if (keys.has(key)) continue;
        const verdict = settleForecast(f, e.evidence, DEFAULT_FLAT_BAND_PCT, nowS, 'exact');
        if (verdict.status === 'open') continue;
        keys.add(key);
        fresh.push(verdict.record);
        settled++;
      }
    }
    if (fresh.length > 0) tx.append(fresh);
    return { forecasts, prices, settled, waitedMs: tx.waitedMs };
  });
}
