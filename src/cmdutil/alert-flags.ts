// `--alert EXPR` of a watch: the expression's grammar, checked before any request (exit 2
// naming what is allowed). `[SYMBOL:][TF.][ENGINE.]FIELD OP VALUE` or `[SYMBOL:][TF.]direction
// changes`; see `fcast help alerts` and docs/watch.md.
import {
  ALERT_ENGINES,
  ALERT_FIELDS,
  ALERT_GRAMMAR,
  ALERT_OPERATORS,
  type AlertEngine,
  type AlertField,
  type AlertOperator,
  type AlertRule,
} from '../core/alert-rules.js';
import { canonicalSymbolOf, typedTimeframeMinutes } from '../core/domain.js';
import { UsageError } from '../core/errors.js';
import { parseDecimal } from '../core/values.js';
import { closest, shown } from './input.js';

const HINT = "see 'fcast help alerts'";
const ALLOWED = `fields ${ALERT_FIELDS.join(', ')}; operators ${ALERT_OPERATORS.join(' ')}; or TF.direction changes`;
const EXAMPLES = "like 'price > 100000', '1h.p_long >= 0.7' or '1h.direction changes'";

/** An expression longer than this is no alert: refused before it is looked at. */
const MAX_LENGTH = 200;

function refuse(raw: string, why: string): never {
  throw new UsageError(`invalid --alert ${shown(raw.slice(0, MAX_LENGTH))}: ${why}`, { hint: HINT });
}

/** One `--alert` (repeatable): the rules so far and this one, parsed. */
export function parseAlertFlag(raw: string, previous: AlertRule[] = []): AlertRule[] {
  return [...previous, parseAlert(raw)];
}

export function parseAlert(raw: string): AlertRule {
  if (raw.length > MAX_LENGTH) refuse(raw, `longer than ${MAX_LENGTH} characters`);
  const text = raw.trim();
  if (text === '') refuse(raw, `expected ${ALERT_GRAMMAR}: ${ALLOWED}; ${EXAMPLES}`);
  // The symbol scope: what comes before the first colon.
  let symbol: string | undefined;
  let rest = text;
  const colon = text.indexOf(':');
  if (colon >= 0) {
    const typed = text.slice(0, colon);
    symbol = canonicalSymbolOf(typed);
    if (symbol === undefined) refuse(raw, `${shown(typed)} is no symbol: expected BASE/QUOTE, like BTC/USD:`);
    rest = text.slice(colon + 1).trim();
  }
  const changes = /^(.*?)\s+changes$/i.exec(rest);
  if (changes) return changeRule(raw, symbol, changes[1]!.trim());
  const m = /^([^<>=\s]+)\s*(>=|<=|>|<|=>|=<|==|=|!=)\s*(\S+)$/.exec(rest);
  if (!m) {
    const wordy = /^([^<>=\s]+)\s*(\S+)/.exec(rest);
    refuse(
      raw,
      wordy && !/[<>=]/.test(rest)
        ? `expected an operator (${ALERT_OPERATORS.join(' ')}) or 'changes' after ${shown(wordy[1]!)}; ${EXAMPLES}`
        : `expected ${ALERT_GRAMMAR}: ${ALLOWED}; ${EXAMPLES}`,
    );
  }
  const [, left, op, value] = m;
  if (!(ALERT_OPERATORS as readonly string[]).includes(op!))
    refuse(raw, `unknown operator ${shown(op!)}: the operators are ${ALERT_OPERATORS.join(' ')}`);
  const { tf, engine, field } = leftSide(raw, left!);
  if (field === 'direction')
    refuse(raw, `direction is not compared: '${tf ?? '1h'}.direction changes' fires when it flips`);
  const threshold = number(raw, value!, field);
  if (field === 'price' && (tf !== undefined || engine !== undefined))
    refuse(raw, "price is the last price, of no timeframe or engine: like 'price > 100000'");
  const prefix = `${symbol ? `${symbol}:` : ''}${tf ? `${tf}.` : ''}${engine ? `${engine}.` : ''}`;
  return {
    kind: 'threshold',
    text: `${prefix}${field} ${op} ${value}`,
    ...(symbol && { symbol }),
    ...(tf && { tf }),
    field,
    engine: engine ?? 'ia3',
    op: op as AlertOperator,
    threshold,
  };
}

function changeRule(raw: string, symbol: string | undefined, left: string): AlertRule {
  const { tf, engine, field } = leftSide(raw, left);
  if (field !== 'direction')
    refuse(
      raw,
      `only direction changes: '${tf ?? '1h'}.direction changes'; ${field} takes an operator (${ALERT_OPERATORS.join(' ')})`,
    );
  if (engine === 'ia2') refuse(raw, "ia2 has no direction: 'TF.direction changes' reads ia3's");
  return {
    kind: 'changes',
    text: `${symbol ? `${symbol}:` : ''}${tf ? `${tf}.` : ''}direction changes`,
    ...(symbol && { symbol }),
    ...(tf && { tf }),
    field: 'direction',
  };
}

/** `[TF.][ENGINE.]FIELD`. */
function leftSide(raw: string, left: string): { tf?: string; engine?: AlertEngine; field: AlertField | 'direction' } {
  const parts = left.split('.');
  if (parts.length > 3 || parts.some((p) => p === ''))
    refuse(raw, `expected [TF.][ENGINE.]FIELD, got ${shown(left)}; ${ALLOWED}`);
  const fieldText = parts.pop()!.toLowerCase();
  const fields: readonly string[] = [...ALERT_FIELDS, 'direction'];
  if (!fields.includes(fieldText)) {
    const near = closest(fieldText, fields);
    refuse(raw, `unknown field ${shown(fieldText)}${near ? ` (did you mean ${near}?)` : ''}; ${ALLOWED}`);
  }
  let engine: AlertEngine | undefined;
  let tf: string | undefined;
  const last = parts.at(-1)?.toLowerCase();
  if (last !== undefined && /^ia\d+$/.test(last)) {
    if (last === 'ia1') refuse(raw, `ia1 gives scores, no ${fieldText}: the engines are ${ALERT_ENGINES.join(', ')}`);
    if (!(ALERT_ENGINES as readonly string[]).includes(last))
      refuse(raw, `unknown engine ${shown(last)}: the engines are ${ALERT_ENGINES.join(', ')}`);
    engine = last as AlertEngine;
    parts.pop();
  }
  if (parts.length > 1)
    refuse(raw, `expected [TF.][ENGINE.]FIELD, got ${shown(left)}; the engines are ${ALERT_ENGINES.join(', ')}`);
  if (parts.length === 1) {
    tf = parts[0]!.toLowerCase();
    if (typedTimeframeMinutes(tf) === undefined)
      refuse(raw, `${shown(parts[0]!)} is no timeframe: like 15min, 1h or 6h`);
  }
  return { ...(tf && { tf }), ...(engine && { engine }), field: fieldText as AlertField | 'direction' };
}

function number(raw: string, value: string, field: AlertField): number {
  const negative = value.startsWith('-');
  const digits = negative ? value.slice(1) : value;
  const magnitude = parseDecimal(digits, { min: 0, max: Number.MAX_VALUE });
  if (magnitude === undefined) refuse(raw, `${shown(value)} is no number: like 0.7, 1.5 or 100000`);
  const n = magnitude! * (negative ? -1 : 1);
  if (field.startsWith('p_') && (n < 0 || n > 1))
    refuse(raw, `${field} is a probability from 0 to 1, got ${shown(value)} (70% is 0.7)`);
  if (field === 'price' && negative) refuse(raw, `a price is not negative, got ${shown(value)}`);
  return n;
}
