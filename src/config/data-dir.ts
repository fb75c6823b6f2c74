// The data directory (settings.ts's dataDir: FCAST_DATA_DIR, else the OS data directory), which
// holds the journal, under the config directory's rules (private-dir.ts): created 0700, refused
// when another user's or writable by group or others. What the journal refuses and doctor reports.
import { ConfigError } from '../core/errors.js';
import { privateDirProblem, type PrivateDirNames } from './private-dir.js';

/** How the shared checks word the data directory; `failure` words any other error (EACCES...). */
export const dataDirNames = (failure: (err: unknown) => ConfigError): PrivateDirNames => ({
  what: 'data directory',
  envVar: 'FCAST_DATA_DIR',
  holds: 'the journal',
  failure,
  // The journal and the temporary and lock files beside it, all under journal/.
  owns: (name) => name === 'journal',
});

/** Why `dir` must not hold the journal (none while it does not exist yet). */
export function dataDirProblem(
  dir: string,
  failure: (err: unknown) => ConfigError = (err) =>
    new ConfigError(`cannot read the data directory ${dir}: ${(err as Error).message}`),
): ConfigError | undefined {
  return privateDirProblem(dir, dataDirNames(failure));
}
