// The writable side of the config file, on conf. Imported only by commands that write
// (config set/unset, register, auth), since conf and its ajv cost start-up time.
// conf's defaults are a 0666 file (less the umask) in a 0755 directory; a file that holds
// keys must be 0600 in a 0700 directory, so both are set here on every write.
import { chmodSync, mkdirSync } from 'node:fs';
import { ConfigError } from './errors.js';
import { configFilePath, readConfigFile, type ConfigData } from './settings.js';

export interface ConfigStore {
  readonly path: string;
  get(key: string): unknown;
  all(): ConfigData;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}

export async function openConfigStore(dir: string): Promise<ConfigStore> {
  const path = configFilePath(dir);
  // Parse it ourselves first: conf would throw a bare SyntaxError for a corrupt file, and
  // the promise is to report it with its path and never touch it.
  readConfigFile(path);
  const { default: Conf } = await import('conf');
  let conf: InstanceType<typeof Conf<ConfigData>>;
  try {
    ensurePrivateDir(dir);
    conf = new Conf<ConfigData>({
      cwd: dir,
      configName: 'config',
      projectName: 'fcast',
      projectSuffix: '',
      configFileMode: 0o600,
      accessPropertiesByDotNotation: false,
      clearInvalidConfig: false,
    });
  } catch (err) {
    throw writeFailure(path, err);
  }
  const write = (change: () => void) => {
    try {
      ensurePrivateDir(dir);
      change();
      chmodSync(path, 0o600);
    } catch (err) {
      throw writeFailure(path, err);
    }
  };
  return {
    path,
    get: (key) => conf.get(key),
    all: () => ({ ...conf.store }),
    set: (key, value) => write(() => conf.set(key, value)),
    delete: (key) => write(() => conf.delete(key)),
  };
}

function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

function writeFailure(path: string, err: unknown): ConfigError {
  if (err instanceof ConfigError) return err;
  const e = err as NodeJS.ErrnoException;
  return new ConfigError(
    `cannot write config file ${path}: ${e.code ? `${e.code} ` : ''}${e.message.replace(/^\w+: /, '')}`,
  );
}
