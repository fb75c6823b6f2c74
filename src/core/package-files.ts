// Files of the installed package, found from this module's own URL. It sits two levels below
// the package root (src/core/, tsc's dist/core/), and scripts/build.js gives its bundles the
// URL of a file at that depth, so the same relative path holds for all of them.
import { fileURLToPath } from 'node:url';

/** bin/fcast.js, for re-running fcast in a child process. */
export const fcastBin = (): string => fileURLToPath(new URL('../../bin/fcast.js', import.meta.url));

/** A file of the package by its path from the package root, e.g. `src/completion/template.bash`. */
export const packageFileUrl = (path: string): URL => new URL(`../../${path}`, import.meta.url);
