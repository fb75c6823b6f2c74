// Every secret fcast can know of at start, for the redactor (main.ts hands them to it before
// any command runs): the keys and a proxy URL's password.
import type { Ctx } from '../core/context.js';
import { configDir, configFilePath } from './directories.js';
import { readConfigFile, SETTINGS, secretFromEnv } from './settings.js';

/**
 * The variables whose proxy URL's password is a secret. bin/fcast.js's help fast path
 * (mayShowSecret) lists them again, to keep the bundle unloaded; test/unit/known-secrets.test.ts
 * holds the two lists equal.
 */
export const PROXY_VARIABLES = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'] as const;

/**
 * Every secret fcast can know of at start, for the redactor; never throws: the keys (environment
 * and config file) and the password of a proxy URL in the environment (as written, decoded, and
 * as `user:password`, whose base64 is the Proxy-Authorization header).
 */
export function knownSecrets(ctx: Pick<Ctx, 'env' | 'platform' | 'homedir'>): string[] {
  const names = ['apiKey', 'gatewayKey'] as const;
  const found: string[] = names.flatMap((n) => secretFromEnv(ctx.env, n) ?? []);
  for (const name of PROXY_VARIABLES) found.push(...proxySecrets(ctx.env[name]));
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

/** The password of a proxy URL, as written and decoded, and `user:password`; none when there is none. */
function proxySecrets(value: string | undefined): string[] {
  if (!value) return [];
  try {
    const url = new URL(value.includes('://') ? value : `http://${value}`);
    if (!url.password) return [];
    const decode = (part: string) => {
      try {
        return decodeURIComponent(part);
      } catch {
        return part;
      }
    };
    const password = decode(url.password);
    return [url.password, password, `${decode(url.username)}:${password}`];
  } catch {
    // Not a URL: the transport refuses it before any request, saying so without echoing it.
    return [];
  }
}
