// The data directory (settings.ts's dataDir: FCAST_DATA_DIR, else the OS data directory), which
// holds the journal, under the config directory's rules (private-dir.ts): created 0700, refused
// when another user's or writable by group or others. What the journal refuses and doctor reports.
import { join, resolve } from 'node:path';
import { ConfigError } from '../core/errors.js';
import { createMissingDirs, privateDirProblem, type PrivateDirNames } from './private-dir.js';

/** How the shared checks word the data directory; `failure` words any other error (EACCES...). */
export const dataDirNames = (failure: (err: unknown) => ConfigError): PrivateDirNames => ({
  what: 'data directory',
  envVar: 'FCAST_DATA_DIR',
  holds: 'the journal',
  failure,
  // The journal and the temporary and lock files beside it, all under journal/; the emulator's
  // kept keys and clock under mock/.
  owns: (name) => name === 'journal' || name === 'mock',
});

/** Why `dir` must not hold the journal (none while it does not exist yet). */
export function dataDirProblem(
  dir: string,
  failure: (err: unknown) => ConfigError = (err) =>
    new ConfigError(`cannot read the data directory ${dir}: ${(err as Error).message}`),
): ConfigError | undefined {
  return privateDirProblem(dir, dataDirNames(failure));
}

/**
 * The emulator's directory, <data dir>/mock: created 0700 level by level when missing, and
 * refused (a ConfigError, exit 3) when it or the data directory is another user's or writable
 * by group or others, by the journal's rules. Its state file, written through a directory an
 * attacker can write, would be theirs to point at the victim's files.
 */
export function ownMockDir(dataDir: string): string {
  const dir = resolve(join(dataDir, 'mock'));
  const failure = (err: unknown) =>
    new ConfigError(`cannot use the emulator's directory ${dir}: ${(err as Error).message}`, {
      hint: 'point FCAST_DATA_DIR at a directory you can write, or run fcast mock --fresh elsewhere',
    });
  const names: PrivateDirNames = {
    what: "emulator's directory",
    envVar: 'FCAST_DATA_DIR',
    holds: "the emulator's keys",
    failure,
    owns: (name) => name === 'state.json' || name.startsWith('state.json.tmp-'),
  };
  // The data directory first: a private mock/ inside a directory others can write can be renamed away.
  const outerNames = { ...dataDirNames(failure), holds: "the emulator's keys" };
  const outer = privateDirProblem(dataDir, outerNames);
  if (outer) throw outer;
  createMissingDirs(dir, names);
  const problem = privateDirProblem(dataDir, outerNames) ?? privateDirProblem(dir, names);
  if (problem) throw problem;
  return dir;
}
