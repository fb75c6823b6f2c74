// What `--record` does with the responses a run showed (predict, demo, and each refresh of a
// watch): one transaction that appends the forecasts and price observations not yet recorded,
// and settles the recorded forecasts the responses themselves prove, by the rule of
// `journal settle` up to its step 2 (settle.ts: due by the server's clock, and a price observed
// at their target time or a candle closing then). It reads the index, never the whole journal.
import type { ForecastEnvelope } from '../schema/bodies.js';
import { readCandles } from '../api/candles.js';
import {
  type AlertRecord,
  DEFAULT_FLAT_BAND_PCT,
  JOURNAL_VERSION,
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

/** An alert of a watch that fired on one of the responses shown (watch/source.ts FiredAlert's data). */
export interface ShownAlert {
  /** The symbol watched: the response's, as ShownResponse.symbol. */
  symbol: string;
  /** The server's name of the timeframe; '' for the price. */
  tf: string;
  /** When it fired, epoch seconds. */
  t: number;
  rule: string;
  field: string;
  op: string;
  value: string;
  threshold: string;
  already: boolean;
  text: string;
}

export interface Recorded {
  forecasts: number;
  prices: number;
  /** Settlements written: settled, or unsettleable for want of an anchor price. */
  settled: number;
  /** How long the journal's lock kept this recorder waiting, in milliseconds. */
  waitedMs: number;
  /** Alerts noted. */
  alerts: number;
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
  alerts: readonly ShownAlert[] = [],
): Promise<Recorded> {
  const notes = alerts.flatMap((a) => alertRecordOf(a, shown, origin, nowS));
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
    // After the forecasts they fired on: beside them, in their month files.
    if (notes.length > 0) tx.appendAlerts(notes);
    return { forecasts, prices, settled, waitedMs: tx.waitedMs, alerts: notes.length };
  });
}

/**
 * An alert as the journal notes it: named by the forecast it fired on (the response's symbol as
 * its forecasts are recorded, the timeframe and that forecast's ts); a price alert by its
 * symbol alone. None when the response it fired on is not among those shown.
 */
function alertRecordOf(a: ShownAlert, shown: readonly ShownResponse[], origin: string, nowS: number): AlertRecord[] {
  const response = shown.find((s) => s.symbol === a.symbol);
  if (!response) return [];
  const forecast = a.tf === '' ? undefined : response.body.predictions[a.tf];
  if (a.tf !== '' && forecast === undefined) return [];
  const number = Number(a.value);
  return [
    {
      v: JOURNAL_VERSION,
      kind: 'alert',
      origin,
      symbol: response.body.symbol || response.symbol,
      tf: forecast ? forecast.tf : null,
      // A price alert: the price observation's time, which its record has (and its month file).
      ts: forecast ? forecast.ts : (response.body.price?.t ?? null),
      t: a.t,
      rule: a.rule,
      field: a.field,
      op: a.op,
      value: a.field === 'direction' || !Number.isFinite(number) ? a.value : number,
      threshold: a.threshold === '' ? null : Number(a.threshold),
      already: a.already,
      text: a.text,
      recorded_at: nowS,
    },
  ];
}
