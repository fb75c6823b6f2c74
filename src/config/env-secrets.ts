// The secrets the environment gives fcast: the two keys and a proxy URL's password. Small and
// without dependencies: the launcher reads it before the bundle loads (src/launch/fast-paths.ts,
// the root's help), and known-secrets.ts hands the same to the redactor.
import type { Env } from '../core/context.js';

/** The variables that hold a key; settings.ts declares its two key settings with these names. */
export const KEY_VARIABLES = { apiKey: 'FCAST_API_KEY', gatewayKey: 'FCAST_GATEWAY_KEY' } as const;

/** The variables whose proxy URL's password is a secret. */
export const PROXY_VARIABLES = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'] as const;

/** A key from its environment variable, trimmed; undefined when unset or blank. */
export function secretFromEnv(env: Env, name: keyof typeof KEY_VARIABLES): string | undefined {
  const value = env[KEY_VARIABLES[name]]?.trim();
  return value ? value : undefined;
}

/** The keys of the environment and its proxy URLs' passwords (as written, decoded, and as `user:password`). */
export function environmentSecrets(env: Env): string[] {
  const found = (['apiKey', 'gatewayKey'] as const).flatMap((name) => secretFromEnv(env, name) ?? []);
  for (const name of PROXY_VARIABLES) found.push(...proxySecrets(env[name]));
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
