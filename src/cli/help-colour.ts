// Whether help keeps its colour codes, as far as the environment says: commander's useColor()
// rule. program.ts asks it before the terminal; the launcher's help fast path
// (src/launch/fast-paths.ts) leaves to main every run where it says colour.
import type { Env } from '../core/context.js';

/** true: colour forced; false: colour refused; undefined: the terminal decides. */
export function helpColourByEnv(env: Env): boolean | undefined {
  const { NO_COLOR, FORCE_COLOR, CLICOLOR_FORCE } = env;
  if (NO_COLOR || FORCE_COLOR === '0' || FORCE_COLOR === 'false') return false;
  if (FORCE_COLOR || CLICOLOR_FORCE !== undefined) return true;
  return undefined;
}
