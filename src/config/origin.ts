// Where a setting came from, in words a person can act on: the file to edit, the variable to
// unset, the flag they typed.

/** A setting's value and where it came from. */
export interface Sourced<T> {
  value: T;
  /** Where the value came from, as a person would look for it: `--timeout`, `FCAST_TIMEOUT`, the file's path, `default`. */
  source: string;
}

/** `the config file /home/me/.config/fcast/config.json`, `FCAST_BASE_URL in the environment`, `the --timeout flag`. */
export function originOf(source: string, configPath: string): string {
  if (source === configPath) return `the config file ${configPath}`;
  if (source.startsWith('--')) return `the ${source} flag`;
  if (/^[A-Z][A-Z0-9_]*$/.test(source)) return `${source} in the environment`;
  return source === 'default' ? 'the default' : source;
}
