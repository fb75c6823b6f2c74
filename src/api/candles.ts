// The one reader of a predictions.php?candles=1 response's candles: only through the Candles
// schema (schema/bodies.ts: per timeframe a list of {t, o, h, l, c, v}, t the open time in epoch
// seconds). The seed does not show a candle's fields; candles of another shape are said to be
// unreadable, never read by a guessed field. The chart and the summary of `predict --candles`
// take what readCandlesByTimeframe read; settling takes readCandles' all-or-nothing verdict.
import { CANDLE_TIMEFRAMES, timeframeMinutes } from '../core/domain.js';
import { isRecord } from '../core/values.js';
import type { CandleReading, Candles, CloseSeries } from '../schema/bodies.js';
import { checkNamedShape } from './validate.js';

export type CandlesEvidence = { usable: true; series: CloseSeries[] } | { usable: false; why: string };

/** Why `candles` is not of the Candles shape (zod's words, without the `candles: ` prefix), or undefined when it is. */
async function shapeProblem(candles: unknown): Promise<string | undefined> {
  let problem = '';
  const log = { note: () => {}, debug: () => {}, warn: (m: string) => (problem = m) };
  if (await checkNamedShape('Candles', candles, 'candles', { log, strict: false })) return undefined;
  return problem.replace(/^candles: /, '') || 'not the documented shape';
}

/** The series of a timeframe's candles of the checked shape, oldest first. */
const seriesOf = (tf: (typeof CANDLE_TIMEFRAMES)[number], list: NonNullable<Candles['15min']>): CloseSeries => ({
  tf,
  seconds: timeframeMinutes(tf)! * 60,
  candles: list.map((c) => ({ t: c.t, c: c.c })).sort((a, b) => a.t - b.t),
});

/** The candles of a response, all of the documented shape, or why they cannot be used (what settling needs). */
export async function readCandles(candles: unknown): Promise<CandlesEvidence> {
  if (candles === undefined) return { usable: false, why: 'the response carries no candles' };
  const problem = await shapeProblem(candles);
  if (problem !== undefined) return { usable: false, why: problem };
  const body = candles as Candles;
  const series = CANDLE_TIMEFRAMES.flatMap((tf) => {
    const list = body[tf];
    return list && list.length > 0 ? [seriesOf(tf, list)] : [];
  });
  if (series.length === 0) return { usable: false, why: 'neither 15min nor 1h candles' };
  return { usable: true, series };
}

/**
 * The candles of a response one timeframe at a time, each checked against the Candles shape on
 * its own: a timeframe of another shape is a problem that leaves the others readable (what the
 * chart and the summary show).
 */
export async function readCandlesByTimeframe(candles: unknown): Promise<CandleReading> {
  if (candles === undefined) return { series: [], problems: [], why: 'the response has no candles' };
  if (!isRecord(candles)) return { series: [], problems: [], why: 'the candles are not an object' };
  const reading: CandleReading = { series: [], problems: [] };
  for (const tf of CANDLE_TIMEFRAMES) {
    const list = candles[tf];
    if (list === undefined) continue;
    const problem = await shapeProblem({ [tf]: list });
    if (problem !== undefined) reading.problems.push({ tf, why: problem });
    else reading.series.push(seriesOf(tf, list as NonNullable<Candles['15min']>));
  }
  return reading;
}
