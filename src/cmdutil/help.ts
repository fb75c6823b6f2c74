// The help text fcast writes itself (examples, notes, help topics), wrapped between words to
// the terminal, at most 80 columns wide. Kept free of output code: every command's definition
// imports it, and building the command tree must stay cheap.
import type { Command } from 'commander';

/** The widest fcast's own help text gets: prose reads best at 80, and so do logs and snapshots. */
export const HELP_WIDTH = 80;
/** Below this a terminal is too narrow to wrap for; the text is left to the terminal. */
const NARROWEST = 40;

/** What commander gives a function passed to addHelpText. */
export interface HelpContext {
  error: boolean;
  command: Command;
}
/** Help text laid out when it is shown, for the width of the stream it goes to. */
export type HelpText = (context: HelpContext) => string;

/** The width help goes out at: the terminal's (program.ts tells commander; piped: 80), at most 80. */
export function helpWidth(context: HelpContext): number {
  const output = context.command.configureOutput();
  const width = (context.error ? output.getErrHelpWidth : output.getOutHelpWidth)?.() ?? HELP_WIDTH;
  return Math.max(NARROWEST, Math.min(HELP_WIDTH, width));
}

const columns = (text: string): number => [...text].length;

/** Words joined by spaces onto as many lines as keep each within `width` (a longer word keeps a line of its own). */
function pack(words: readonly string[], width: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of words) {
    if (current !== '' && columns(current) + 1 + columns(word) > width) {
      lines.push(current);
      current = word;
    } else current = current === '' ? word : `${current} ${word}`;
  }
  return [...lines, current];
}

/** `text` word-wrapped to `width`, each line after `indent` spaces; a line break in `text` is kept. */
export function wrapHelp(text: string, indent = 2, width = HELP_WIDTH): string {
  return text
    .split('\n')
    .flatMap((line) => {
      // A line's own leading spaces indent all of its wrapped lines (a command under a label).
      const own = ' '.repeat(indent + line.length - line.trimStart().length);
      return pack(line.trimStart().split(' '), width - own.length).map((part) => own + part);
    })
    .join('\n');
}

/** A title, then a block of prose under it: each paragraph wrapped, two spaces in. */
export function helpNotes(title: string, ...paragraphs: string[]): HelpText {
  return (context) => {
    const width = helpWidth(context);
    return `\n${wrapHelp(`${title}:`, 0, width)}\n${paragraphs.map((p) => wrapHelp(p, 2, width)).join('\n')}`;
  };
}

/** A title, then `term  text` rows under it (see helpRows), then a note. */
export function helpTable(
  title: string,
  rows: ReadonlyArray<readonly [term: string, text: string]>,
  note?: string,
): HelpText {
  return (context) => {
    const width = helpWidth(context);
    return `\n${title}:\n${helpRows(rows, width)}${note ? `\n${wrapHelp(note, 2, width)}` : ''}`;
  };
}

/** `term  text` rows, terms padded to one width, the text wrapped with a hanging indent. */
export function helpRows(
  rows: ReadonlyArray<readonly [term: string, text: string]>,
  width = HELP_WIDTH,
  indent = 2,
): string {
  const termWidth = Math.max(...rows.map(([term]) => columns(term)));
  const hang = indent + termWidth + 2;
  return rows
    .map(([term, text]) => {
      const [first = '', ...rest] = pack(text.split(' '), width - hang);
      const lead = `${' '.repeat(indent)}${term}${' '.repeat(termWidth - columns(term))}  ${first}`;
      return [lead.trimEnd(), ...rest.map((line) => ' '.repeat(hang) + line)].join('\n');
    })
    .join('\n');
}

/**
 * Examples for a command's --help, as gh shows them: the comment, then the command to paste
 * (a long one carried over with ` \` between words, so it still pastes as one command).
 */
export function examples(...lines: Array<[command: string, comment: string]>): HelpText {
  return (context) => {
    const width = helpWidth(context);
    const shown = lines.map(([command, why]) => `${commentLines(why, width)}\n${exampleCommand(command, width)}`);
    return `\nExamples:\n${shown.join('\n\n')}`;
  };
}

const commentLines = (text: string, width: number): string =>
  pack(text.split(' '), width - 4)
    .map((line) => `  # ${line}`)
    .join('\n');

function exampleCommand(command: string, width: number): string {
  if (4 + columns(command) <= width) return `  $ ${command}`;
  const lines: string[] = [];
  let current = '  $';
  for (const word of shellWords(command)) {
    // Room for the ` \` that carries the command over.
    if (current.trim() !== '$' && columns(current) + 1 + columns(word) > width - 2) {
      lines.push(`${current} \\`);
      current = '     ';
    }
    current += ` ${word}`;
  }
  return [...lines, current].join('\n');
}

/** A command line's words, split at the spaces outside quotes (a jq filter stays whole). */
function shellWords(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let quote: string | undefined;
  for (const ch of command) {
    if (quote) {
      if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === ' ') {
      if (word) words.push(word);
      word = '';
      continue;
    }
    word += ch;
  }
  if (word) words.push(word);
  return words;
}
