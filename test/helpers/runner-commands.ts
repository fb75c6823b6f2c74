// What the GitHub Actions runner would read as workflow commands in a step's output: each line
// (split at CR and LF, as .NET's ReadLine does) that, left-trimmed, starts with `::` and holds a
// second `::` (syntax v2, ActionCommand.TryParseV2), or that holds `##[` anywhere (v1,
// ActionCommand.TryParse). Both rules are applied to every line, so a line matching either is found.
export interface FoundCommand {
  syntax: 'v2' | 'v1';
  line: string;
}

export function runnerCommands(output: string): FoundCommand[] {
  const found: FoundCommand[] = [];
  for (const line of output.split(/\r\n|\r|\n/)) {
    // .NET's TrimStart: Char.IsWhiteSpace, which is JavaScript's \s plus NEL (U+0085), without U+FEFF.
    const trimmed = line.replace(/^[\s\u0085]+/, '');
    if (trimmed.startsWith('::') && trimmed.indexOf('::', 2) > 2) found.push({ syntax: 'v2', line });
    if (line.includes('##[')) found.push({ syntax: 'v1', line });
  }
  return found;
}

/**
 * The shape of fcast's own annotations, and only that: what annotate() writes through writeOwnCommand
 * (src/output/annotations.ts, workflowCommand), an `::error` or `::warning` whose title is one of
 * fcast's (`fcast track-record: ...`, `fcast accuracy: ...`, `fcast journal report: ...`, escaped as
 * a property: no raw `:` or `,`), on a line of its own with no `##[`. A server's `::warning::...` or
 * `::error title=Injected::...` does not match.
 */
export const OWN_COMMAND =
  /^::(error|warning) title=fcast (track-record|accuracy|journal report)%3A [^:,\r\n]+::[^\r\n]*$/;

const isOwn = (c: FoundCommand) => c.syntax === 'v2' && OWN_COMMAND.test(c.line) && !c.line.includes('##[');

/** The commands found that are fcast's own annotations (OWN_COMMAND). */
export function ownCommands(output: string): FoundCommand[] {
  return runnerCommands(output).filter(isOwn);
}

/** The commands found that are not fcast's own annotations. */
export function foreignCommands(output: string): FoundCommand[] {
  return runnerCommands(output).filter((c) => !isOwn(c));
}
