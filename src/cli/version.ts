// `fcast --version --json`: fcast's version, Node's and the platform, for a bug report or a CI
// log. The launcher's fast path (src/launch/fast-paths.ts) writes it with the same function,
// without loading the bundle.

/** The flags that ask for it, in any order: `--version --json`, `-V --json`. */
export const isVersionJson = (argv: readonly string[]): boolean =>
  argv.length === 2 && argv.includes('--json') && (argv.includes('--version') || argv.includes('-V'));

/** With `builtIn` (the standalone executable), it says that its Node is the one inside it: node_built_in. */
export function versionJson(fcast: string, node: string, platform: string, arch: string, builtIn = false): string {
  const about = {
    fcast,
    node: node.replace(/^v/, ''),
    platform: `${platform}-${arch}`,
    ...(builtIn && { node_built_in: true }),
  };
  return `${JSON.stringify(about, null, 2)}\n`;
}
