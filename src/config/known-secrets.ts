// Every secret fcast can know of at start, for the redactor (main.ts hands them to it before
// any command runs): the environment's (env-secrets.ts) and the config file's keys.
import type { Ctx } from '../core/context.js';
import { configDir, configFilePath } from './directories.js';
import { environmentSecrets } from './env-secrets.js';
import { readConfigFile, SETTINGS } from './settings.js';

/**
 * Every secret fcast can know of at start, for the redactor; never throws: the keys (environment
 * and config file) and the password of a proxy URL in the environment (as written, decoded, and
 * as `user:password`, whose base64 is the Proxy-Authorization header).
 */
export function knownSecrets(ctx: Pick<Ctx, 'env' | 'platform' | 'homedir'>): string[] {
  const names = ['apiKey', 'gatewayKey'] as const;
  const found = environmentSecrets(ctx.env);
  try {
    const file = readConfigFile(configFilePath(configDir(ctx)));
    for (const n of names) {
      const value = file[SETTINGS[n].configKey];
      if (typeof value === 'string') found.push(value);
    }
  } catch {
    // A broken file is reported by the command that reads it.
  }
  return found;
}
