// Where config.json may live: a directory of the user's own that group and others cannot write,
// and config.json itself no symbolic link. Checked before a key is written (config-store.ts)
// and before any value of the file is used (settings.ts reads it on every run): a file that
// others can replace could point the base URL at their server and collect the key sent there.
import { join } from 'node:path';
import { privateDirProblem, symlinkTarget, type PrivateDirNames } from './private-dir.js';
import { ConfigError } from '../core/errors.js';

export const CONFIG_FILE_NAME = 'config.json';

/** How the shared directory checks word the config directory; `failure` words any other error (EACCES...). */
export const configDirNames = (failure: (err: unknown) => ConfigError): PrivateDirNames => ({
  what: 'config directory',
  envVar: 'FCAST_CONFIG_DIR',
  holds: 'keys',
  failure,
});

/** Why keys must not be read from or written in `dir` (none while it does not exist yet). */
export function configLocationProblem(dir: string, failure: (err: unknown) => ConfigError): ConfigError | undefined {
  return privateDirProblem(dir, configDirNames(failure)) ?? linkProblem(join(dir, CONFIG_FILE_NAME));
}

/** A config.json that is a symlink would carry the key into (or its settings from) a file that lives elsewhere. */
function linkProblem(path: string): ConfigError | undefined {
  const target = symlinkTarget(path);
  if (target === undefined) return undefined;
  return new ConfigError(
    `${path} is a symbolic link (to ${target}); fcast reads and writes keys only in a file of its own`,
    { hint: 'replace the link with a file of its own, or point FCAST_CONFIG_DIR elsewhere' },
  );
}
