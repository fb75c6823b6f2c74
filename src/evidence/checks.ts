// The gates, the audit and the baseline comparison a user asked for, as a report: the lines
// to show on stderr (timeframe, figure, threshold or recomputed value) and the problems that
// make the run fail with exit 8. Pure: the command prints the report (each line cleaned of
// terminal controls and line breaks, since timeframes and figures are server text) and
// decides the exit.
import type { BaselineComparison } from '../core/domain.js';
import { AUDIT_TOLERANCE, AUDIT_Z, auditTrackRecord, type AuditDisagreement } from './audit.js';
import {
  evaluateGates,
  evaluatePeriodGates,
  hasGates,
  hasPeriodGates,
  type GateFailure,
  type GateThresholds,
  type PeriodGateThresholds,
} from './gates.js';

export interface CheckRequest extends GateThresholds, PeriodGateThresholds {
  audit?: boolean;
}

export interface CheckLine {
  level: 'note' | 'warn';
  text: string;
}

/** Which check a failure is of. */
export type CheckKind = 'gate' | 'audit' | 'baseline';

/** One failure as data (a CI annotation each): its check, its timeframe (none for the result as a whole), its line. */
export interface CheckFailure {
  check: CheckKind;
  timeframe: string | undefined;
  text: string;
}

export interface CheckReport {
  lines: CheckLine[];
  /** One phrase per kind of failure; empty when every check passed. */
  problems: string[];
  /** Every failing line, as data. */
  failures: CheckFailure[];
}

/** A failing line: shown like any other, and kept as data. */
function fail(report: CheckReport, check: CheckKind, timeframe: string | undefined, text: string): void {
  report.lines.push({ level: 'note', text });
  report.failures.push({ check, timeframe, text });
}

/** A baseline and what it says, for the comparison's lines. */
export interface BaselineInput {
  file: string;
  comparison: BaselineComparison;
}

/** A published figure as the server wrote it; text is quoted so that `'null'` and null differ. */
function shownFigure(v: unknown): string {
  if (v === undefined) return 'missing';
  if (typeof v === 'string') return `'${v}'`;
  return JSON.stringify(v);
}

const shownRecomputed = (v: AuditDisagreement['recomputed']): string =>
  v === null
    ? 'null (no resolved forecasts)'
    : typeof v === 'number'
      ? v.toFixed(4)
      : `[${v.map((x) => x.toFixed(4)).join(', ')}]`;

/** A figure fcast computed (the period's rate) is shown to four decimals, like a recomputed one. */
const shownGateFigure = (f: GateFailure): string =>
  f.field === 'new resolved win rate' && typeof f.figure === 'number' ? f.figure.toFixed(4) : shownFigure(f.figure);

export function describeGateFailure(f: GateFailure): string {
  if (f.timeframe === undefined) {
    return `gate failed: ${f.gate} ${f.threshold}: the result has no timeframes, so nothing proves the threshold`;
  }
  if (f.field === 'new settlements' && f.figure === undefined)
    return `gate failed: ${f.timeframe}: not in the result, so nothing proves ${f.gate} ${f.threshold}`;
  const rateGate = f.field === 'resolved_win_rate' || f.field === 'new resolved win rate';
  const why = f.figure === null && rateGate ? ' (no resolved forecasts: a null rate fails)' : '';
  return `gate failed: ${f.timeframe}: ${f.field} ${shownGateFigure(f)} is below ${f.gate} ${f.threshold}${why}`;
}

export function describeDisagreement(d: AuditDisagreement): string {
  const gap =
    typeof d.published === 'number' && typeof d.recomputed === 'number'
      ? ` (off by ${Math.abs(d.published - d.recomputed).toFixed(4)}, tolerance ${AUDIT_TOLERANCE})`
      : '';
  return `audit: ${d.timeframe}: ${d.field} published ${shownFigure(d.published)}, recomputed ${shownRecomputed(d.recomputed)}${gap}`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function gateLines(failures: GateFailure[], report: CheckReport, since = ''): void {
  for (const f of failures) fail(report, 'gate', f.timeframe, describeGateFailure(f));
  if (failures.length) report.problems.push(`${plural(failures.length, 'gate failure')}${since}`);
}

function auditLines(body: unknown, strict: boolean, report: CheckReport): void {
  const audit = auditTrackRecord(body);
  const note = (text: string) => report.lines.push({ level: 'note', text });
  const warn = (text: string) => report.lines.push({ level: 'warn', text });
  for (const d of audit.disagreements) fail(report, 'audit', d.timeframe, describeDisagreement(d));
  for (const n of audit.notAuditable) {
    const line = `audit: ${n.timeframe}: not auditable: ${n.reason}`;
    if (strict) fail(report, 'audit', n.timeframe, `${line} (a failure under --strict)`);
    else warn(`${line}; not checked`);
  }
  if (audit.disagreements.length)
    report.problems.push(`--audit found ${plural(audit.disagreements.length, 'disagreement')}`);
  if (strict && audit.notAuditable.length)
    report.problems.push(`${plural(audit.notAuditable.length, 'timeframe')} not auditable under --strict`);
  if (audit.disagreements.length) return;
  const total = audit.audited + audit.notAuditable.length;
  if (total === 0) {
    warn('audit: the result has no timeframes to audit');
    if (strict) {
      report.problems.push('nothing to audit under --strict');
      report.failures.push({
        check: 'audit',
        timeframe: undefined,
        text: 'audit: the result has no timeframes to audit',
      });
    }
    return;
  }
  const skipped = audit.notAuditable.length ? `, ${audit.notAuditable.length} not auditable` : '';
  note(
    `audit: ${audit.audited}/${total} timeframes checked${skipped}; no disagreement with their outcome counts (Wilson, z = ${AUDIT_Z}, tolerance ${AUDIT_TOLERANCE})`,
  );
}

function baselineLines(input: BaselineInput, request: PeriodGateThresholds, report: CheckReport): void {
  const { file, comparison } = input;
  const note = (text: string) => report.lines.push({ level: 'note', text });
  if (!comparison.comparable) {
    const theirs = comparison.baselineProtocol ?? 'no protocol id';
    const ours = comparison.currentProtocol ?? 'no protocol id';
    note(
      `baseline ${file}: protocol ${theirs} there, ${ours} now: not comparable (a new cohort counts afresh); nothing compared`,
    );
    if (hasPeriodGates(request))
      note('baseline: --min-new-settled and --min-new-win-rate not applied: nothing to compare');
    return;
  }
  for (const { timeframe, drops } of comparison.drops) {
    const counts = drops.map((d) => `${d.count} ${d.before} -> ${d.now}`).join(', ');
    fail(report, 'baseline', timeframe, `baseline: ${timeframe}: counts went down since ${file}: ${counts}`);
  }
  for (const tf of comparison.vanished) fail(report, 'baseline', tf, `baseline: ${tf}: in ${file} but missing now`);
  if (comparison.drops.length)
    report.problems.push(`${plural(comparison.drops.length, 'timeframe')} with fewer settlements than ${file}`);
  if (comparison.vanished.length)
    report.problems.push(`${plural(comparison.vanished.length, 'timeframe')} of ${file} missing now`);
  gateLines(evaluatePeriodGates(comparison.changes, request), report, ' since the baseline');
}

export function runChecks(
  body: unknown,
  request: CheckRequest,
  opts: { strict: boolean; baseline?: BaselineInput },
): CheckReport {
  const report: CheckReport = { lines: [], problems: [], failures: [] };
  if (hasGates(request)) gateLines(evaluateGates(body, request), report);
  if (request.audit) auditLines(body, opts.strict, report);
  if (opts.baseline) baselineLines(opts.baseline, request, report);
  return report;
}
