// What colour a value gets, the same in every table: up and long green, down and short red,
// neutral yellow. With colour off, Output's colours are identities, so these cost nothing.
import type { Output } from './io.js';
import { finiteNumber } from '../core/values.js';
import { roundsToZero } from './format.js';

export type Paint = (s: string) => string;

const UP = ['long', 'bullish', 'buy', 'up', 'risk_on'];
const DOWN = ['short', 'bearish', 'sell', 'down', 'risk_off'];
const NEITHER = ['neutral', 'flat', 'mixed', 'hold'];

/** For direction-like words; undefined for words that are not a signal. */
export function signalPaint(out: Output, value: unknown): Paint | undefined {
  if (typeof value !== 'string') return undefined;
  const v = value.toLowerCase();
  if (UP.includes(v)) return out.c.green;
  if (DOWN.includes(v)) return out.c.red;
  if (NEITHER.includes(v)) return out.c.yellow;
  return undefined;
}

/**
 * For a signed change shown with `decimals` decimals: green above zero, red below, plain when it
 * shows as zero (-0.001 is shown 0.00: no colour may call it a fall) or is not a number.
 */
export function changePaint(out: Output, value: unknown, decimals = 2): Paint | undefined {
  const n = finiteNumber(value);
  if (n === undefined || roundsToZero(n, decimals)) return undefined;
  return n > 0 ? out.c.green : out.c.red;
}

/** A market's state (`market_state`): open green, closed dim, anything else plain; one colour in every view. */
export function marketStatePaint(out: Output, state: unknown): Paint | undefined {
  return state === 'open' ? out.c.green : state === 'closed' ? out.c.dim : undefined;
}

const SIGNAL_KEY = /^(bias|direction|side|signal|label)$/i;
const CHANGE_KEY = /change|return|_pct$/i;

/** A field of a record whose shape the seed does not fix, painted by its name. */
export function paintByKey(out: Output, key: string, value: unknown): Paint | undefined {
  if (SIGNAL_KEY.test(key)) return signalPaint(out, value);
  if (CHANGE_KEY.test(key)) return changePaint(out, value);
  return undefined;
}
