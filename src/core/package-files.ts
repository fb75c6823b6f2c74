// Files of the installed package, found from this module's own URL. It sits two levels below
// the package root (src/core/, tsc's dist/core/), and scripts/build.js gives its bundles the
// URL of a file at that depth, so the same relative path holds for all of them. In the
// standalone executable (Node's single executable application, scripts/build-sea.js) there is
// no package beside it: its files are the executable's assets, by the same paths.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

type Sea = { isSea(): boolean; getAsset(key: string, encoding: string): string };

/** node:sea when this process is the standalone executable; loaded only when asked (20.12+). */
function standalone(): Sea | undefined {
  const sea = process.getBuiltinModule('node:sea') as Sea | undefined;
  return sea?.isSea() ? sea : undefined;
}

/** Whether this process is the standalone executable, whose Node is built in. */
export const isStandalone = (): boolean => standalone() !== undefined;

/** bin/fcast.js, for re-running fcast in a child process. */
export const fcastBin = (): string => fileURLToPath(new URL('../../bin/fcast.js', import.meta.url));

/** A file of the package by its path from the package root, e.g. `src/completion/template.bash`. */
export const packageFileUrl = (path: string): URL => new URL(`../../${path}`, import.meta.url);

/** A file of the package by its path from the package root, as text: from the package, or the executable's assets. */
export function readPackageFile(path: string): string {
  const sea = standalone();
  return sea ? sea.getAsset(path, 'utf8') : readFileSync(packageFileUrl(path), 'utf8');
}

/** The program and first arguments that run fcast again: node and bin/fcast.js, or the executable itself. */
export function fcastCommand(): { file: string; args: string[] } {
  return { file: process.execPath, args: standalone() ? [] : [fcastBin()] };
}
