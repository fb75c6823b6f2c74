// The flags `track-record` and `accuracy` share: the symbol filter, the CI gates, `--audit`,
// the baseline and its gates, `--save` and `--format`. Declared once so the two commands cannot drift apart. Every value is
// checked by its parser while the command line is read, before any request (exit 2).
// Imported when the command tree is built: keep it free of heavy modules.
// (gh's pkg/cmd/pr/shared: what one family of commands shares, beside them.)
import { flag, type FlagValues, valueFlag } from '../../../cmdutil/define.js';
import { helpNotes } from '../../../cmdutil/help.js';
import { docsPointer } from '../../../core/docs-pointer.js';
import { MATURITY_LEVELS, type OutputFormat } from '../../../core/domain.js';
import {
  canonicalSymbol,
  parseMaturity,
  parseRate,
  parseSettledFloors,
  parseWholeNumber,
} from '../../../cmdutil/input.js';

/** What track-record and accuracy give with --format. */
export const EVIDENCE_FORMATS = ['table', 'json', 'csv', 'tsv', 'markdown'] as const satisfies readonly OutputFormat[];

const parseMinMaturity = (raw: string) => parseMaturity(raw, '--min-maturity');

export const EVIDENCE_FLAGS = {
  symbol: valueFlag(
    '--symbol <symbol>',
    'only this symbol, BASE/QUOTE (e.g. BTC/USD; case-insensitive)',
    canonicalSymbol,
  ),
  minMaturity: valueFlag(
    '--min-maturity <level>',
    `gate: every timeframe at least this mature (${MATURITY_LEVELS.join(' < ')})`,
    parseMinMaturity,
  ),
  minSettled: valueFlag('--min-settled <n>', 'gate: every timeframe has at least N settled forecasts', (raw) =>
    parseWholeNumber(raw, '--min-settled'),
  ),
  minWinRate: valueFlag(
    '--min-win-rate <rate>',
    'gate: every resolved_win_rate at least R, 0..1 (a null rate fails)',
    (raw) => parseRate(raw, '--min-win-rate'),
  ),
  audit: flag(
    '--audit',
    'recompute each win rate and its Wilson 95% interval from the outcome counts; exit 8 on a disagreement',
  ),
  baseline: valueFlag(
    '--baseline <file>',
    'an earlier --json output of this command (same --symbol/--tf): exit 8 if a count went down or a timeframe vanished; show what is new since',
    (raw) => raw,
  ),
  minNewSettled: valueFlag(
    '--min-new-settled <n>',
    'gate: every timeframe has at least N settlements since the baseline; TF=N for one timeframe (20,6h=5,1d=0)',
    (raw) => parseSettledFloors(raw, '--min-new-settled'),
  ),
  minNewWinRate: valueFlag(
    '--min-new-win-rate <rate>',
    'gate: the resolved win rate since the baseline at least R in every timeframe, 0..1 (a null rate fails)',
    (raw) => parseRate(raw, '--min-new-win-rate'),
  ),
  save: valueFlag(
    '--save <file>',
    'write the body as received (indented like --json) to FILE, atomically, after the comparison; skipped on exit 8',
    (raw) => raw,
  ),
  annotations: flag(
    '--no-annotations',
    'under GitHub Actions (GITHUB_ACTIONS=true): no ::error/::warning lines on stderr, no step summary',
  ),
};

/** What both commands' bodies get: the shared flags' values (accuracy adds --tf). */
export type EvidenceFlags = FlagValues<typeof EVIDENCE_FLAGS>;

/** Help text shared by both commands: what the gates and the audit do to the exit code. */
export const EVIDENCE_HELP_NOTES = helpNotes(
  'Gates and audit (exit 8 when one fails; the failures are listed on stderr)',
  'Every timeframe in the result must pass every gate given; a figure equal to the threshold ' +
    'passes; a null rate fails --min-win-rate; a result with no timeframes fails any gate.',
  '--audit recomputes resolved_win_rate = wins / (wins + losses) and its Wilson 95% interval ' +
    '(z = 1.96) and flags differences above 0.001. A timeframe whose outcomes carry no win or ' +
    'loss count is reported as not auditable: a warning, or a failure under --strict.',
  '--baseline FILE compares with an earlier --json output of the same command: within one ' +
    'protocol.id every count (n_settled, win, loss, neutral) can only grow, so one that went down, ' +
    'or a timeframe that vanished, fails. A different protocol.id is a new cohort: not comparable, ' +
    'nothing compared. The period since the baseline (new settlements, their resolved win rate and ' +
    'Wilson interval) shows as extra columns, a Markdown section, or on stderr with --json; ' +
    '--min-new-settled and --min-new-win-rate gate it. --save FILE writes the body after the ' +
    'comparison (the same FILE as --baseline is the usual CI use) unless a check failed.',
  'The output, in any --format, is printed first; then the checks run.',
  'In GitHub Actions (GITHUB_ACTIONS=true), a run that checks something also prints an ::error ' +
    'line per failure and a ::warning per warning or small sample on stderr, and appends the ' +
    'Markdown table with its verdict to the file named by GITHUB_STEP_SUMMARY (a failure is then ' +
    'said by its ::error alone); --no-annotations turns this off. With GITHUB_OUTPUT set, the ' +
    `verdict and the figures per timeframe are written there as step outputs (${docsPointer('formats.md')}).`,
);
