// `fcast --version --json`: fcast's version, Node's and the platform, for a bug report or a CI
// log. bin/fcast.js answers the same from its fast path, without loading the bundle; a test
// holds the two to the same text.

/** The flags that ask for it, in any order: `--version --json`, `-V --json`. */
export const isVersionJson = (argv: readonly string[]): boolean =>
  argv.length === 2 && argv.includes('--json') && (argv.includes('--version') || argv.includes('-V'));

export function versionJson(fcast: string, node: string, platform: string, arch: string): string {
  return `${JSON.stringify({ fcast, node: node.replace(/^v/, ''), platform: `${platform}-${arch}` }, null, 2)}\n`;
}
