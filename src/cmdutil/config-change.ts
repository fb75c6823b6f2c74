// The one JSON result of a change to the config file (`config set|unset`, `auth login|logout`),
// under --json: what was set, saved or removed (null: nothing was), the key masked when it is a
// key, then the file. Dry runs and refusals print the same document as the change they stand for.
import type { Run } from './command.js';

export type ConfigChange =
  | { set: string; value: unknown }
  | { saved: string | null; key?: string }
  | { removed: string | null; key?: string };

/** Prints the change's document when --json asked for one; the note on stderr is the caller's. */
export function printConfigChange(run: Run, change: ConfigChange, path: string): void {
  if (run.flags.json) run.out.json({ ...change, path });
}
