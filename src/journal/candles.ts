// The candles of a predictions.php?candles=1 response, read for settling: only through the
// Candles schema (api/schemas.ts: per timeframe a list of {t, o, h, l, c, v}, t the open time).
// The seed does not show a candle's fields; a response whose candles have another shape is
// unusable for settling, said once, and settles nothing from candles (never a guessed field).
import { checkNamedShape } from '../api/validate.js';
import type { Candles } from '../api/schemas.js';

export interface CloseSeries {
  tf: string;
  /** The candle's length. */
  seconds: number;
  /** Open time and close, sorted by open time. */
  candles: Array<{ t: number; c: number }>;
}

export type CandlesEvidence = { usable: true; series: CloseSeries[] } | { usable: false; why: string };

const SERIES: ReadonlyArray<readonly [tf: '15min' | '1h', seconds: number]> = [
  ['15min', 900],
  ['1h', 3600],
];

/** The candles of a response, or why they cannot settle anything. */
export async function readCandles(candles: unknown): Promise<CandlesEvidence> {
  if (candles === undefined) return { usable: false, why: 'the response carries no candles' };
  let problem = '';
  const log = { note: () => {}, debug: () => {}, warn: (m: string) => (problem = m) };
  if (!(await checkNamedShape('Candles', candles, 'candles', { log, strict: false }))) {
    return { usable: false, why: problem.replace(/^candles: /, '') || 'not the documented shape' };
  }
  const body = candles as Candles;
  const series: CloseSeries[] = [];
  for (const [tf, seconds] of SERIES) {
    const list = body[tf];
    if (!list || list.length === 0) continue;
    series.push({ tf, seconds, candles: list.map((c) => ({ t: c.t, c: c.c })).sort((a, b) => a.t - b.t) });
  }
  if (series.length === 0) return { usable: false, why: 'neither 15min nor 1h candles' };
  return { usable: true, series };
}
