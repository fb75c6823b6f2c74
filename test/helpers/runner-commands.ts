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

/** The commands found that are not fcast's own annotations (`::error`, `::warning`, `::notice` lines with no `##[`). */
export function foreignCommands(output: string): FoundCommand[] {
  return runnerCommands(output).filter(
    (c) => !(c.syntax === 'v2' && /^::(error|warning|notice)( title=[^:]*)?::/.test(c.line) && !c.line.includes('##[')),
  );
}
