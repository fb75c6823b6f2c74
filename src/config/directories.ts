// The config and data directories: each from its variable, else where the OS keeps such files.
// Read from the environment only, never from the config file (which one of them holds).
import { join } from 'node:path';
import { CONFIG_FILE_NAME } from './config-location.js';
import type { Ctx } from '../core/context.js';
import type { Sourced } from './origin.js';

export function configDir(ctx: Pick<Ctx, 'env' | 'platform' | 'homedir'>): string {
  const { env, platform, homedir } = ctx;
  if (env.FCAST_CONFIG_DIR) return env.FCAST_CONFIG_DIR;
  if (platform === 'win32') return join(env.APPDATA || join(homedir, 'AppData', 'Roaming'), 'fcast', 'Config');
  if (platform === 'darwin') return join(homedir, 'Library', 'Preferences', 'fcast');
  return join(env.XDG_CONFIG_HOME || join(homedir, '.config'), 'fcast');
}

export const configFilePath = (dir: string): string => join(dir, CONFIG_FILE_NAME);

/**
 * Where the journal lives: FCAST_DATA_DIR, else the OS data directory (XDG_DATA_HOME or
 * ~/.local/share on Linux, Application Support on macOS, LOCALAPPDATA on Windows). Data, not
 * settings: a user who resets the config keeps the forecasts they recorded.
 */
export function dataDir(ctx: Pick<Ctx, 'env' | 'platform' | 'homedir'>): string {
  const { env, platform, homedir } = ctx;
  if (env.FCAST_DATA_DIR) return env.FCAST_DATA_DIR;
  if (platform === 'win32') return join(env.LOCALAPPDATA || join(homedir, 'AppData', 'Local'), 'fcast', 'Data');
  if (platform === 'darwin') return join(homedir, 'Library', 'Application Support', 'fcast');
  return join(env.XDG_DATA_HOME || join(homedir, '.local', 'share'), 'fcast');
}

/**
 * The two directories, as `fcast config list` and `get` show them beside the settings: read
 * from their variable only (never the config file, which one of them holds), else the OS's.
 */
export const DIRECTORIES = {
  'config-dir': { env: 'FCAST_CONFIG_DIR', of: configDir },
  'data-dir': { env: 'FCAST_DATA_DIR', of: dataDir },
} as const;
export type DirectoryKey = keyof typeof DIRECTORIES;
export const DIRECTORY_KEYS = Object.keys(DIRECTORIES) as DirectoryKey[];

export function directorySetting(ctx: Pick<Ctx, 'env' | 'platform' | 'homedir'>, key: DirectoryKey): Sourced<string> {
  const { env, of } = DIRECTORIES[key];
  // As configDir() and dataDir() read it: a blank variable counts as unset.
  return { value: of(ctx), source: ctx.env[env] ? env : 'default' };
}
