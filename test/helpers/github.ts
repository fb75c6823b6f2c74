// The files a GitHub Actions runner hands a step, read as the runner reads them.

/** $GITHUB_OUTPUT read as the runner reads it: `name=value`, or `name<<DELIMITER` lines up to DELIMITER. */
export function readOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '') continue;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2]!, i + 1);
      if (end < 0) throw new Error(`no closing ${heredoc[2]}`);
      outputs[heredoc[1]!] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else {
      const eq = line.indexOf('=');
      outputs[line.slice(0, eq)] = line.slice(eq + 1);
    }
  }
  return outputs;
}
