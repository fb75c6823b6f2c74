// `--audit`: the published resolved win rate and its Wilson interval are recomputed from the
// row's own outcome counts. The contract fixes z = 1.96 and a tolerance of 0.001, wide
// enough for a server that rounds to four decimals, narrow enough to catch a wrong figure.
import { finiteNumber } from '../core/values.js';
import { outcomeCounts, outcomeKeysSeen, resultRows, timeframeOf, type ResultRow } from './results.js';
import { WILSON_Z, wilsonInterval } from './wilson.js';

export const AUDIT_Z = WILSON_Z;
export const AUDIT_TOLERANCE = 0.001;
// 0.5 vs 0.501 differ by 0.0010000000000000009 in binary: a difference of exactly the
// tolerance, as written in decimal, is not "above" it.
const FLOAT_SLACK = 1e-12;

export type AuditedField =
  | 'resolved_win_rate'
  | 'resolved_win_rate_ci95[0]'
  | 'resolved_win_rate_ci95[1]'
  | 'resolved_win_rate_ci95';

export interface AuditDisagreement {
  timeframe: string;
  field: AuditedField;
  /** As published: a number, null, or whatever else the server sent. */
  published: unknown;
  /** null when nothing was resolved, so no rate exists; both bounds when the whole interval is off. */
  recomputed: number | readonly [number, number] | null;
}

export interface NotAuditable {
  timeframe: string;
  reason: string;
}

export interface AuditReport {
  /** Rows whose counts could be read and were checked. */
  audited: number;
  disagreements: AuditDisagreement[];
  notAuditable: NotAuditable[];
}

const differs = (published: number, recomputed: number) =>
  Math.abs(published - recomputed) > AUDIT_TOLERANCE + FLOAT_SLACK;

function auditRow(row: ResultRow, timeframe: string): AuditDisagreement[] | NotAuditable {
  const { wins, losses } = outcomeCounts(row.outcomes);
  if (wins === undefined || losses === undefined) {
    const keys = outcomeKeysSeen(row.outcomes);
    const missing = [wins === undefined ? 'win' : '', losses === undefined ? 'loss' : ''].filter(Boolean).join(' and ');
    return {
      timeframe,
      reason: `its outcomes carry no ${missing} count (${keys.length ? `keys: ${keys.join(', ')}` : 'no outcome counts'})`,
    };
  }
  const resolved = wins + losses;
  const found: AuditDisagreement[] = [];
  const disagree = (field: AuditedField, published: unknown, recomputed: AuditDisagreement['recomputed']) =>
    found.push({ timeframe, field, published, recomputed });

  const publishedRate = row.resolved_win_rate;
  const publishedInterval = row.resolved_win_rate_ci95;
  if (resolved === 0) {
    // Nothing resolved: no rate exists, and null is the only honest figure.
    if (publishedRate !== null) disagree('resolved_win_rate', publishedRate, null);
    if (publishedInterval !== null) disagree('resolved_win_rate_ci95', publishedInterval, null);
    return found;
  }

  const rate = wins / resolved;
  const rateGiven = finiteNumber(publishedRate);
  if (rateGiven === undefined || differs(rateGiven, rate)) disagree('resolved_win_rate', publishedRate, rate);

  const interval = wilsonInterval(wins, resolved);
  const [low, high] = interval;
  if (!Array.isArray(publishedInterval) || publishedInterval.length !== 2) {
    disagree('resolved_win_rate_ci95', publishedInterval, interval);
    return found;
  }
  const lowGiven = finiteNumber(publishedInterval[0]);
  const highGiven = finiteNumber(publishedInterval[1]);
  if (lowGiven === undefined || differs(lowGiven, low))
    disagree('resolved_win_rate_ci95[0]', publishedInterval[0], low);
  if (highGiven === undefined || differs(highGiven, high))
    disagree('resolved_win_rate_ci95[1]', publishedInterval[1], high);
  return found;
}

export function auditTrackRecord(body: unknown): AuditReport {
  const report: AuditReport = { audited: 0, disagreements: [], notAuditable: [] };
  resultRows(body).forEach((row, i) => {
    const outcome = auditRow(row, timeframeOf(row, i));
    if (Array.isArray(outcome)) {
      report.audited++;
      report.disagreements.push(...outcome);
    } else {
      report.notAuditable.push(outcome);
    }
  });
  return report;
}
