// What `demo` and `predict` share: the --tf filter and the help line naming the topics that explain the columns.
// Kept free of output code so that building the command tree stays cheap.
import { equivalentTimeframe } from '../core/domain.js';
import { UsageError } from '../core/errors.js';
import { RECORD_FORMATS } from './command.js';
import { valueFlag } from './define.js';
import { type HelpText, helpWidth, wrapHelp } from './help.js';
import { closest, shown } from './input.js';

/** `--tf 1h,6h` (repeatable): lower-cased timeframe names, in the order typed, without repeats. */
export function parseTimeframeList(raw: string, previous: string[] = []): string[] {
  const names = raw
    .split(',')
    .map((t) => t.trim().toLowerCase())
    .filter((t) => t !== '');
  if (names.length === 0) throw new UsageError(`--tf needs timeframe names, like 1h or 15min,1h,6h; got ${shown(raw)}`);
  return [...previous, ...names.filter((t) => !previous.includes(t))];
}

/**
 * Checks --tf against the timeframes the responses hold: one that none holds is exit 2 naming
 * those present (only the server knows which timeframes a symbol carries). Bodies off the
 * documented shape are left to the generic renderer and not checked.
 */
export function checkTimeframes(wanted: string[] | undefined, bodies: unknown[]): string[] | undefined {
  const present: string[] = [];
  let checked = false;
  for (const body of bodies) {
    const predictions =
      body !== null && typeof body === 'object' ? (body as { predictions?: unknown }).predictions : undefined;
    if (predictions === null || typeof predictions !== 'object' || Array.isArray(predictions)) continue;
    checked = true;
    for (const tf of Object.keys(predictions)) if (!present.includes(tf)) present.push(tf);
  }
  if (!wanted || !checked) return wanted;
  // A name of the same length of time is the one meant: `60min` is `1h`, `24h` is `1d`.
  const meant = [...new Set(wanted.map((tf) => equivalentTimeframe(tf, present)?.toLowerCase() ?? tf))];
  const missing = meant.filter((tf) => !present.some((p) => p.toLowerCase() === tf));
  if (missing.length > 0) {
    // Among the timeframes of the same length only: 1hr means 1h, but 10min never means 1min.
    const length = (tf: string) => /^\d*/.exec(tf)![0];
    const typo = missing.length === 1 ? missing[0]! : undefined;
    const near =
      typo &&
      closest(
        typo,
        present.filter((p) => length(p) === length(typo)),
      );
    throw new UsageError(
      `no forecast for --tf ${missing.join(',')}${near ? ` (did you mean ${near}?)` : ''}; timeframes present: ${present.join(', ')}`,
    );
  }
  return meant;
}

export const TF_FLAG = valueFlag(
  '--tf <tf,...>',
  'only these timeframes, e.g. 1h or 15min,1h,6h (repeatable; --json still prints the whole body)',
  parseTimeframeList,
);

/**
 * For --help of demo and predict: the one line that names the help topics with the rest (what
 * each column means, several symbols, --json, --watch), so that the help itself stays short.
 */
export const FORECAST_TOPICS_HELP: HelpText = (context) =>
  `\n${wrapHelp("More: 'fcast help forecasts' (columns, symbols, --json), 'fcast help watch'.", 0, helpWidth(context))}`;

/** What demo's and predict's definitions share: the formats a recorded forecast has, and the topics line before the examples. */
export const FORECAST_VIEW = {
  formats: RECORD_FORMATS,
  notesFirst: true,
  notes: [FORECAST_TOPICS_HELP],
} as const;
