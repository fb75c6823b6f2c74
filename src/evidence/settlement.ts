// Re-derives the outcome of one settled forecast from `verify.php`'s body: direction, anchor
// price and the close at the target time give the return, the return gives the outcome.
// The seed fixes none of the body's fields, so each figure is looked for under its common
// names in the forecast and settlement blocks; a figure not found means no check, not a guess.
import { finiteNumber, isRecord } from '../values.js';

export type Direction = 'long' | 'short';
export type Outcome = 'win' | 'loss' | 'neutral';

type Block = Record<string, unknown>;
const block = (v: unknown): Block | undefined => (isRecord(v) ? v : undefined);

const DIRECTIONS: Record<string, Direction> = {
  long: 'long',
  up: 'long',
  buy: 'long',
  bull: 'long',
  bullish: 'long',
  sube: 'long',
  short: 'short',
  down: 'short',
  sell: 'short',
  bear: 'short',
  bearish: 'short',
  baja: 'short',
};
const OUTCOMES: Record<string, Outcome> = {
  win: 'win',
  won: 'win',
  hit: 'win',
  correct: 'win',
  success: 'win',
  loss: 'loss',
  lost: 'loss',
  lose: 'loss',
  miss: 'loss',
  incorrect: 'loss',
  wrong: 'loss',
  failure: 'loss',
  neutral: 'neutral',
  flat: 'neutral',
  push: 'neutral',
  draw: 'neutral',
  tie: 'neutral',
  scratch: 'neutral',
};

const FORECAST_BLOCKS = ['forecast', 'prediction', 'stored_forecast'];
const SETTLEMENT_BLOCKS = ['settlement', 'settled', 'result', 'resolution'];
const DIRECTION_KEYS = ['direction', 'side', 'predicted_direction', 'signal'];
const ANCHOR_KEYS = [
  'anchor_price',
  'anchor',
  'entry_price',
  'price_at_ts',
  'start_price',
  'open_price',
  'reference_price',
];
const CLOSE_KEYS = [
  'close_at_target',
  'target_close',
  'close_at_target_t',
  'close_at_target_price',
  'settlement_price',
  'settle_price',
  'exit_price',
  'price_at_target',
  'final_price',
  'close',
];
const TARGET_TIME_KEYS = ['target_t', 'target_ts', 'target_time'];
const BAND_KEYS = ['neutral_band_pct', 'neutral_band', 'neutral_threshold_pct'];
const OUTCOME_KEYS = ['outcome', 'result', 'status', 'verdict'];

function firstBlock(body: Block, names: string[]): Block | undefined {
  for (const name of names) {
    const found = block(body[name]);
    if (found) return found;
  }
  return undefined;
}

function firstOf<T>(
  blocks: Array<Block | undefined>,
  keys: string[],
  read: (v: unknown) => T | undefined,
): T | undefined {
  for (const b of blocks) {
    if (!b) continue;
    for (const key of keys) {
      const value = read(b[key]);
      if (value !== undefined) return value;
    }
  }
  return undefined;
}

const word =
  <T>(table: Record<string, T>) =>
  (v: unknown): T | undefined =>
    typeof v === 'string' ? table[v.trim().toLowerCase()] : undefined;
const positive = (v: unknown): number | undefined => {
  const n = finiteNumber(v);
  return n !== undefined && n > 0 ? n : undefined;
};

/** The market close at the target time, from a list of `{t, close}` records. */
function closeAt(market: Block | undefined, targetT: number | undefined): number | undefined {
  if (!market || targetT === undefined) return undefined;
  const closes = Object.values(market).find(Array.isArray) as unknown[] | undefined;
  const hit = closes?.map(block).find((c) => c && finiteNumber(c.t ?? c.ts ?? c.time) === targetT);
  return hit ? positive(hit.close ?? hit.c ?? hit.price) : undefined;
}

export function outcomeFor(direction: Direction, returnPct: number, neutralBandPct = 0): Outcome {
  if (Math.abs(returnPct) < neutralBandPct || returnPct === 0) return 'neutral';
  return returnPct > 0 === (direction === 'long') ? 'win' : 'loss';
}

export type SettlementCheck =
  | {
      checked: true;
      direction: Direction;
      anchor: number;
      close: number;
      returnPct: number;
      /** The outcome the figures give. */
      expected: Outcome;
      neutralBandPct: number | undefined;
      published: Outcome | undefined;
      /** undefined when there is nothing to compare, or a published neutral cannot be judged without a band. */
      agrees: boolean | undefined;
    }
  | { checked: false; missing: string[] };

export function checkSettlement(body: unknown): SettlementCheck {
  const root = block(body) ?? {};
  const forecast = firstBlock(root, FORECAST_BLOCKS);
  const settlement = firstBlock(root, SETTLEMENT_BLOCKS);
  const market = block(root.market) ?? block(root.market_closes);
  const blocks = [forecast, settlement, root];

  const direction = firstOf([forecast, block(forecast?.ia3), settlement, root], DIRECTION_KEYS, word(DIRECTIONS));
  const anchor = firstOf(blocks, ANCHOR_KEYS, positive);
  const targetT = firstOf([settlement, forecast, root], TARGET_TIME_KEYS, finiteNumber);
  const close = firstOf([settlement, root], CLOSE_KEYS, positive) ?? closeAt(market, targetT);

  const missing = [
    direction ? '' : 'a direction',
    anchor ? '' : 'an anchor price',
    close ? '' : 'the close at the target time',
  ].filter(Boolean);
  if (!direction || !anchor || !close) return { checked: false, missing };

  const neutralBandPct = firstOf([settlement, forecast, root], BAND_KEYS, finiteNumber);
  const returnPct = (close / anchor - 1) * 100;
  const expected = outcomeFor(direction, returnPct, neutralBandPct);
  const published = firstOf([settlement, root], OUTCOME_KEYS, word(OUTCOMES));
  let agrees: boolean | undefined = published === undefined ? undefined : published === expected;
  // Without a published band, a small return called neutral can be neither confirmed nor refuted.
  if (neutralBandPct === undefined && published === 'neutral' && expected !== 'neutral') agrees = undefined;
  return { checked: true, direction, anchor, close, returnPct, expected, neutralBandPct, published, agrees };
}
