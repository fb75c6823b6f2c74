// GitHub Actions, when a run is in it (GITHUB_ACTIONS=true): each failure as a workflow command
// on stderr (`::error title=...::message`), which the runner turns into an annotation on the
// run, and the Markdown report with its verdict appended to the step summary
// ($GITHUB_STEP_SUMMARY). stdout stays data. Outside Actions, annotate() does nothing. The
// failures come in as data (track-record's gates, the journal report's), so this module only
// writes them down, escaped as the runner reads them (actions/toolkit's command.ts):
// in the message % CR LF become %25 %0D %0A; in a property, : and , also %3A %2C.
// The gate commands' results as step outputs go to $GITHUB_OUTPUT (writeOutputs), when that is
// set, in or out of Actions: name=value, a value with a line break between random delimiters.
import { randomUUID } from 'node:crypto';
import type { Env } from '../core/context.js';
import { appendToFile, redactText } from '../core/sinks.js';
import { plainDecimal } from './format.js';
import type { Output } from './io.js';
import { clean, cleanBlock } from './sanitize.js';
import { inGitHubActions, writeOwnCommand } from './workflow-commands.js';
import { markdownLine, markdownText } from './markdown.js';

export type AnnotationLevel = 'error' | 'warning' | 'notice';

export interface Annotation {
  level: AnnotationLevel;
  /** A short heading; server text is cleaned to one line. */
  title?: string;
  /** Lines break as they are: the runner shows a multi-line message. */
  message: string;
}

export const escapeData = (text: string): string =>
  text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');

export const escapeProperty = (text: string): string => escapeData(text).replaceAll(':', '%3A').replaceAll(',', '%2C');

/**
 * `::error title=fcast track-record%3A gate::1h%3A ...`: one line, whatever the text holds.
 * Redacted before it is escaped: `%`, `:` and `,` escaped, a key's spelling is no longer one
 * the redactor knows, and the runner decodes it back for the annotation.
 */
export function workflowCommand(a: Annotation): string {
  const title = a.title === undefined ? '' : ` title=${escapeProperty(redactText(clean(a.title)))}`;
  return `::${a.level}${title}::${escapeData(redactText(cleanBlock(a.message)))}`;
}

export interface AnnotationReport {
  annotations: readonly Annotation[];
  /** Markdown for the step summary, verdict included; undefined to leave the summary alone. */
  summary?: string;
}

/**
 * Under GitHub Actions: each annotation as a workflow command on stderr, then the summary
 * appended to $GITHUB_STEP_SUMMARY when that is set (a file that cannot be written is a
 * warning: the run's own exit code stands). Elsewhere nothing.
 */
export function annotate(out: Output, env: Env, report: AnnotationReport): void {
  if (!inGitHubActions(env)) return;
  // The one way past the filter that keeps every other line from reading as a command.
  for (const a of report.annotations) writeOwnCommand(out.io.stderr, `${workflowCommand(a)}\n`);
  const file = env.GITHUB_STEP_SUMMARY;
  if (report.summary === undefined || !file) return;
  try {
    appendToFile(file, `${report.summary.trimEnd()}\n\n`);
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message : String(err));
    out.warn(`could not append the summary to GITHUB_STEP_SUMMARY (${file}): ${why}`);
  }
}

export { markdownText } from './markdown.js';

export interface Verdict {
  /** What was judged: `fcast track-record`. */
  subject: string;
  passed: boolean;
  /** One phrase per kind of failure (`2 gate failures`). */
  problems: readonly string[];
  /** Every line the checks printed, failures and passes alike. */
  lines: readonly string[];
}

/** The verdict as Markdown, for the end of a step summary. */
export function verdictMarkdown(v: Verdict): string {
  const head = v.passed
    ? `**Verdict: passed.** ${markdownText(v.subject)}: every check held.`
    : `**Verdict: failed** (exit 8). ${markdownText(v.subject)}: ${markdownText(v.problems.join('; '))}.`;
  return [head, '', ...v.lines.map((line) => `- ${markdownLine(line)}`)].join('\n').trimEnd();
}

/** How many gate failures, as a verdict's one problem (none: no problem). */
export const gateFailures = (n: number): string[] => (n === 0 ? [] : [`${n} gate failure${n === 1 ? '' : 's'}`]);

/**
 * A gate's run under GitHub Actions, as every gated command reports it: its annotations, and
 * the step summary of its Markdown (when it has one) followed by the verdict.
 */
export function annotateVerdict(
  out: Output,
  env: Env,
  run: { annotations: readonly Annotation[]; markdown: string | undefined; verdict: Omit<Verdict, 'passed'> },
): void {
  const verdict = verdictMarkdown({ ...run.verdict, passed: run.verdict.problems.length === 0 });
  annotate(out, env, {
    annotations: run.annotations,
    summary: run.markdown === undefined ? verdict : `${run.markdown}\n\n${verdict}`,
  });
}

/** Decimals of a step output's figure: the published rates' four. */
const OUTPUT_DECIMALS = 4;

/**
 * A figure as a step output: the one rule for every command's (a rate fcast computed, as the
 * total's, and one published alike: 4 decimals at most); a count as it is; missing or null, empty.
 */
export const outputFigure = (v: number | string | null | undefined): string =>
  v === null || v === undefined ? '' : typeof v === 'number' ? plainDecimal(v, OUTPUT_DECIMALS) : v;

/**
 * A step output's name from any text (a timeframe from the server): letters, digits, `_` and
 * `-` only. Redacted first: made a name, a key would keep every letter and digit in order,
 * which the redactor no longer knows as the key.
 */
export const outputName = (text: string): string => redactText(text).replace(/[^A-Za-z0-9_-]/g, '_');

/**
 * A gate's step outputs (docs/formats.md, "Step outputs"): `verdict` (pass or fail), the failing
 * lines, the timeframes, the figures of the whole, and each timeframe's figures named
 * `<figure>_<timeframe>` (`settled_1h`); every figure by outputFigure, so a null one is empty.
 */
export function gateOutputs<T>(
  failures: readonly string[],
  passed: boolean,
  timeframes: readonly T[],
  tfOf: (t: T) => string,
  figuresOf: (t: T) => Record<string, number | string | null | undefined>,
  whole: Record<string, number | string | null | undefined> = {},
): Record<string, string> {
  const outputs: Record<string, string> = {
    verdict: passed ? 'pass' : 'fail',
    failures: failures.join('\n'),
    timeframes: timeframes.map(tfOf).join(' '),
  };
  for (const [name, v] of Object.entries(whole)) outputs[name] = outputFigure(v);
  for (const t of timeframes) {
    const tf = outputName(tfOf(t));
    for (const [name, v] of Object.entries(figuresOf(t))) outputs[`${name}_${tf}`] = outputFigure(v);
  }
  return outputs;
}

/**
 * The outputs in $GITHUB_OUTPUT's form, as GitHub documents it: `name=value`, or for a value
 * with a line break `name<<ghadelimiter_RANDOM`, the value, the delimiter (one the value does
 * not hold, so that no value can end itself early and write an output of its own).
 */
export function outputLines(outputs: Readonly<Record<string, string>>, random: () => string = randomUUID): string {
  return Object.entries(outputs)
    .map(([name, raw]) => {
      // A value holds server text (a timeframe, a failure's line): a later step may print it,
      // so it is cleaned as anything fcast prints is (no escape sequence, no bidi control).
      const value = cleanBlock(raw);
      if (!/[\r\n]/.test(value)) return `${name}=${value}\n`;
      let delimiter: string;
      do delimiter = `ghadelimiter_${random()}`;
      while (value.includes(delimiter));
      return `${name}<<${delimiter}\n${value}\n${delimiter}\n`;
    })
    .join('');
}

/**
 * The outputs appended to the file $GITHUB_OUTPUT names, in one write, when it is set (a file
 * that cannot be written is a warning: the run's own exit code stands). Elsewhere nothing.
 */
export function writeOutputs(out: Output, env: Env, outputs: Readonly<Record<string, string>>): void {
  const file = env.GITHUB_OUTPUT;
  if (!file) return;
  try {
    appendToFile(file, outputLines(outputs));
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message : String(err));
    out.warn(`could not write the outputs to GITHUB_OUTPUT (${file}): ${why}`);
  }
}
