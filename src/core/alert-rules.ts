// What an `--alert` expression says, once parsed (cmdutil/alert-flags.ts parses it; the watch,
// src/watch/alerts.ts, evaluates it on each refresh). Kept here, below both, so that the
// watch's state machine and the flag's parser share one type.

export const ALERT_FIELDS = ['price', 'p_long', 'p_short', 'p_flat', 'move'] as const;
export type AlertField = (typeof ALERT_FIELDS)[number];
export const ALERT_OPERATORS = ['>', '>=', '<', '<='] as const;
export type AlertOperator = (typeof ALERT_OPERATORS)[number];
/** The engines whose fields an alert reads: ia3 by default; ia1 has no probability or move. */
export const ALERT_ENGINES = ['ia3', 'ia2'] as const;
export type AlertEngine = (typeof ALERT_ENGINES)[number];

/** The grammar, as the errors and `fcast help alerts` word it. */
export const ALERT_GRAMMAR = '[SYMBOL:][TF.][ENGINE.]FIELD OP VALUE';

interface RuleBase {
  /** The expression in its normal spelling (`BTC/USD:1h.p_long >= 0.7`): how the alert is named. */
  text: string;
  /** Only this symbol (canonical); unset: every symbol watched, each on its own. */
  symbol?: string;
  /** Only this timeframe (as typed, lower case: matched to the server's names by length of time); unset: each. */
  tf?: string;
}

/** A field against a threshold: fires when the comparison becomes true. */
export interface ThresholdRule extends RuleBase {
  kind: 'threshold';
  field: AlertField;
  engine: AlertEngine;
  op: AlertOperator;
  threshold: number;
}

/** ia3's direction: fires at each change from one refresh to the next. */
export interface ChangeRule extends RuleBase {
  kind: 'changes';
  field: 'direction';
}

export type AlertRule = ThresholdRule | ChangeRule;

/** Whether `value op threshold` holds. */
export function compare(value: number, op: AlertOperator, threshold: number): boolean {
  switch (op) {
    case '>':
      return value > threshold;
    case '>=':
      return value >= threshold;
    case '<':
      return value < threshold;
    case '<=':
      return value <= threshold;
  }
}
