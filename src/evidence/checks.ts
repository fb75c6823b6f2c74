// Runs the gates and the audit a user asked for, after the output was printed: each failure
// is one line on stderr (timeframe, figure, threshold or recomputed value), then exit 8.
import { CheckFailedError } from '../errors.js';
import type { Output } from '../output/io.js';
import { clean } from '../output/sanitize.js';
import { AUDIT_TOLERANCE, AUDIT_Z, auditTrackRecord, type AuditDisagreement } from './audit.js';
import { evaluateGates, hasGates, type GateFailure, type GateThresholds } from './gates.js';

export interface CheckRequest extends GateThresholds {
  audit?: boolean;
}

/** A published figure as the server wrote it; text is quoted so that `'null'` and null differ. */
function shownFigure(v: unknown): string {
  if (v === undefined) return 'missing';
  if (typeof v === 'string') return `'${clean(v)}'`;
  return clean(JSON.stringify(v));
}

const shownRecomputed = (v: AuditDisagreement['recomputed']): string =>
  v === null
    ? 'null (no resolved forecasts)'
    : typeof v === 'number'
      ? v.toFixed(4)
      : `[${v.map((x) => x.toFixed(4)).join(', ')}]`;

export function describeGateFailure(f: GateFailure): string {
  if (f.timeframe === undefined) {
    return `gate failed: ${f.gate} ${f.threshold}: the result has no timeframes, so nothing proves the threshold`;
  }
  const why = f.figure === null && f.field === 'resolved_win_rate' ? ' (no resolved forecasts: a null rate fails)' : '';
  return `gate failed: ${clean(f.timeframe)}: ${f.field} ${shownFigure(f.figure)} is below ${f.gate} ${f.threshold}${why}`;
}

export function describeDisagreement(d: AuditDisagreement): string {
  const gap =
    typeof d.published === 'number' && typeof d.recomputed === 'number'
      ? ` (off by ${Math.abs(d.published - d.recomputed).toFixed(4)}, tolerance ${AUDIT_TOLERANCE})`
      : '';
  return `audit: ${clean(d.timeframe)}: ${d.field} published ${shownFigure(d.published)}, recomputed ${shownRecomputed(d.recomputed)}${gap}`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Prints what failed to stderr and throws CheckFailedError (exit 8) if anything did. */
export function enforceChecks(out: Output, body: unknown, request: CheckRequest, opts: { strict: boolean }): void {
  const problems: string[] = [];

  if (hasGates(request)) {
    const failures = evaluateGates(body, request);
    for (const f of failures) out.note(describeGateFailure(f));
    if (failures.length) problems.push(plural(failures.length, 'gate failure'));
  }

  if (request.audit) {
    const report = auditTrackRecord(body);
    for (const d of report.disagreements) out.note(describeDisagreement(d));
    for (const n of report.notAuditable) {
      const line = `audit: ${clean(n.timeframe)}: not auditable: ${n.reason}`;
      if (opts.strict) out.note(`${line} (a failure under --strict)`);
      else out.warn(`${line}; not checked`);
    }
    if (report.disagreements.length)
      problems.push(`--audit found ${plural(report.disagreements.length, 'disagreement')}`);
    if (opts.strict && report.notAuditable.length)
      problems.push(`${plural(report.notAuditable.length, 'timeframe')} not auditable under --strict`);
    if (!report.disagreements.length) {
      const total = report.audited + report.notAuditable.length;
      if (total === 0) {
        out.warn('audit: the result has no timeframes to audit');
        if (opts.strict) problems.push('nothing to audit under --strict');
      } else {
        const skipped = report.notAuditable.length ? `, ${report.notAuditable.length} not auditable` : '';
        out.note(
          `audit: ${report.audited}/${total} timeframes checked${skipped}; no disagreement with their outcome counts (Wilson, z = ${AUDIT_Z}, tolerance ${AUDIT_TOLERANCE})`,
        );
      }
    }
  }

  if (problems.length) throw new CheckFailedError(`check failed: ${problems.join('; ')}`);
}
