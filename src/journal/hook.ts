// What `--record` does with the responses a run showed (predict, demo, and each refresh of a
// watch): one transaction that appends the forecasts and price observations not yet recorded,
// and settles the recorded forecasts the responses themselves prove (a price observed at their
// target time, or a candle closing then). It reads the index, never the whole journal.
import type { ForecastEnvelope } from '../api/schemas.js';
import { readCandles, type CandlesEvidence } from './candles.js';
import {
  DEFAULT_FLAT_BAND_PCT,
  forecastKey,
  forecastRecords,
  priceRecord,
  settledRecord,
  type JournalRecord,
} from './record.js';
import { exactClose } from './settle.js';
import { withJournal } from './store.js';

export interface ShownResponse {
  symbol: string;
  body: ForecastEnvelope;
}

export interface Recorded {
  forecasts: number;
  prices: number;
  settled: number;
}

/** Records what was shown in the journal under `dataDir`; throws when the journal cannot be written. */
export async function recordShown(dataDir: string, shown: readonly ShownResponse[], nowS: number): Promise<Recorded> {
  const evidence = await Promise.all(
    shown.map(async (s) => ({
      symbol: s.body.symbol || s.symbol,
      forecasts: forecastRecords(s, nowS),
      price: priceRecord(s, nowS),
      candles: s.body.candles === undefined ? undefined : await readCandles(s.body.candles),
    })),
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
      if (e.price && !keys.has(`${e.price.symbol}\t${e.price.t}`) && !tx.hasPrice(e.price)) {
        keys.add(`${e.price.symbol}\t${e.price.t}`);
        fresh.push(e.price);
        prices++;
      }
    }
    // What the responses prove: only exact closes (a price at target_t, a candle closing then),
    // the same step 2 as `journal settle`; anything looser waits for it (settle.ts).
    let settled = 0;
    for (const e of evidence) {
      const candles: CandlesEvidence = e.candles ?? { usable: false, why: 'none asked for' };
      const observations = e.price ? [{ t: e.price.t, last: e.price.last }] : [];
      for (const f of tx.openForecasts(e.symbol)) {
        const key = `settle\t${forecastKey(f)}`;
        if (keys.has(key) || f.anchor_price === null || !(f.anchor_price > 0)) continue;
        const close = exactClose(f, candles, observations);
        if (!close) continue;
        keys.add(key);
        fresh.push(settledRecord(f, close, DEFAULT_FLAT_BAND_PCT, nowS));
        settled++;
      }
    }
    if (fresh.length > 0) tx.append(fresh);
    return { forecasts, prices, settled };
  });
}
