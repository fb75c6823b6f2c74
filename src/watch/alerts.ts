// The alerts of a watch, as pure functions of what the refreshes brought: what each rule reads
// in each answer (readingsOf), and the state machine that decides when one fires (AlertMachine).
// A threshold fires when its comparison becomes true: at the first refresh that shows it true
// ("already true"), then only after a refresh that shows it false again (edge-triggered, re-armed
// by a false). A change fires at each direction that differs from the one seen before. What a
// refresh did not bring (a timeframe gone from the body; a whole stale refresh, which
// alert-actions.ts never hands over) is no reading: it fires nothing and leaves the state as
// it was, so a condition that held across an outage does not fire again. No I/O, no clock:
// alert-actions.ts tells.
import { type AlertRule, compare } from '../core/alert-rules.js';
import { equivalentTimeframe } from '../core/domain.js';
import { asRecord, finiteNumber } from '../core/values.js';
import type { Forecast } from './source.js';

/** A timeframe's name from the server, as an alert shows it: no controls, and never long. */
const MAX_TF_LENGTH = 80;

/** What one rule reads of one symbol (and timeframe) in one refresh. */
export interface Reading {
  /** The alert's identity: the rule (its index), the symbol, the timeframe. */
  key: string;
  rule: AlertRule;
  ruleIndex: number;
  /** The symbol watched (as the user gave it, canonical), never the server's spelling. */
  symbol: string;
  /** The server's name of the timeframe, for a rule of a timeframe. */
  tf?: string;
  /** The number compared, or the direction (a change rule). */
  value: number | string;
  /** Whether the threshold holds (a change rule: unused). */
  holds: boolean;
}

/** An alert that fired: its reading, and what makes it news. */
export interface Firing extends Reading {
  /** True at the first refresh that showed it: it did not become true while watched. */
  already: boolean;
  /** A change rule: the direction before. */
  previous?: string;
}

/** Every reading of `rules` in `answers` (this refresh's own answers only, never older ones). */
export function readingsOf(
  rules: readonly AlertRule[],
  answers: ReadonlyArray<{ symbol: string; fetched: Forecast }>,
  /** The timeframes shown (--tf); an unscoped rule reads only these. Undefined: every one. */
  shownTfs?: readonly string[],
): Reading[] {
  const readings: Reading[] = [];
  for (const answer of answers) {
    if (!answer.fetched.wellFormed) continue;
    const body = answer.fetched.body;
    const predictions = asRecord(body.predictions);
    const names = Object.keys(predictions);
    const shown = shownTfs === undefined ? names : names.filter((n) => equivalentTimeframe(n, shownTfs) !== undefined);
    rules.forEach((rule, ruleIndex) => {
      if (rule.symbol !== undefined && rule.symbol !== answer.symbol) return;
      const base = { rule, ruleIndex, symbol: answer.symbol };
      if (rule.kind === 'threshold' && rule.field === 'price') {
        const last = finiteNumber(asRecord(body.price).last);
        if (last !== undefined)
          readings.push({ ...base, key: keyOf(ruleIndex, answer.symbol), value: last, holds: holds(rule, last) });
        return;
      }
      const tfs = rule.tf === undefined ? shown : [equivalentTimeframe(rule.tf, names)].flatMap((t) => t ?? []);
      for (const tf of tfs) {
        const forecast = asRecord(predictions[tf]);
        const value = rule.kind === 'changes' ? directionOf(forecast) : numberOf(rule, forecast);
        if (value === undefined) continue;
        readings.push({
          ...base,
          key: keyOf(ruleIndex, answer.symbol, tf),
          tf,
          value,
          holds: typeof value === 'number' && holds(rule, value),
        });
      }
    });
  }
  return readings;
}

const keyOf = (rule: number, symbol: string, tf?: string) => `${rule}\u0000${symbol}\u0000${tf ?? ''}`;

function holds(rule: AlertRule, value: number): boolean {
  return rule.kind === 'threshold' && compare(value, rule.op, rule.threshold);
}

function directionOf(forecast: Record<string, unknown>): string | undefined {
  const direction = asRecord(forecast.ia3).direction;
  return typeof direction === 'string' ? direction : undefined;
}

function numberOf(rule: AlertRule, forecast: Record<string, unknown>): number | undefined {
  if (rule.kind !== 'threshold') return undefined;
  const engine = asRecord(forecast[rule.engine]);
  if (rule.field !== 'move') return finiteNumber(engine[rule.field]);
  // ia2 says its move; ia3's is the table's Move: the target price against the anchor.
  if (rule.engine === 'ia2') return finiteNumber(engine.predicted_change_pct);
  const anchor = finiteNumber(forecast.anchor_price);
  const target = finiteNumber(forecast.target_price);
  return anchor && target !== undefined ? ((target - anchor) / anchor) * 100 : undefined;
}

/** A name from the server (a timeframe, a direction) as an alert shows it: cut at MAX_TF_LENGTH. */
export const tfShown = (tf: string): string => (tf.length > MAX_TF_LENGTH ? `${tf.slice(0, MAX_TF_LENGTH - 1)}…` : tf);

/**
 * The once-per-crossing state of every alert: for a threshold, whether it held when last read;
 * for a change, the direction last read. step() is given one refresh's readings and answers
 * which fire.
 */
export class AlertMachine {
  private readonly last = new Map<string, boolean | string>();

  step(readings: readonly Reading[]): Firing[] {
    const fired: Firing[] = [];
    for (const reading of readings) {
      const before = this.last.get(reading.key);
      if (reading.rule.kind === 'changes') {
        const now = String(reading.value);
        if (typeof before === 'string' && before !== now) fired.push({ ...reading, already: false, previous: before });
        this.last.set(reading.key, now);
        continue;
      }
      if (reading.holds && before !== true) fired.push({ ...reading, already: before === undefined });
      this.last.set(reading.key, reading.holds);
    }
    return fired;
  }
}
