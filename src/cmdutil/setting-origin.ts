// An error caused by a setting says where that setting came from: a DNS failure for a base URL
// read from the config file names the file, a timeout set in the environment names the
// variable. The reader then knows what to change, and where. A 401 from a loopback host (most
// likely `fcast mock`, restarted with --fresh) also says what brings a working key back, which
// depends on where the key came from.
import { isLoopbackHost } from '../api/wire.js';
import { ApiError, amend, BadResponseError, ConfigError, type FcastError, NetworkError } from '../core/errors.js';
import { originOf } from '../config/origin.js';
import type { Sourced } from '../config/origin.js';
import type { Settings } from '../config/settings.js';
import { isRecord } from '../core/values.js';

/**
 * The setting a failure is about: the base URL for a host that cannot be reached (or that a key
 * may not be sent to), the timeout for a deadline, the REST key the service refused.
 */
function settingBehind(err: FcastError, settings: Settings): { what: string; setting: Sourced<unknown> } | undefined {
  const notTheApi = /does not look like the Market Forecast Agent API|did not answer in HTTP/;
  if (err instanceof ConfigError) {
    if (!/^refusing to send a key over plain http/.test(err.message)) return undefined;
  } else if (err instanceof ApiError && err.status === 401) {
    // The gateway's 401 names the key it sent in its hint already (its own, or the REST key).
    const gateway = isRecord(err.details.body) && typeof err.details.body.ok === 'boolean';
    return gateway || !settings.apiKey ? undefined : { what: 'the API key', setting: settings.apiKey };
  } else if (err instanceof NetworkError) {
    // A proxy's failure is the proxy variables' (its message names the proxy); a reset is no setting's.
    if (/through the proxy|was reset/.test(err.message)) return undefined;
    if (/timed out/.test(err.message))
      return { what: `the timeout (${settings.timeout.value} s)`, setting: settings.timeout };
  } else if (
    !(err instanceof ApiError || err instanceof BadResponseError) ||
    !notTheApi.test(`${err.message} ${err.hint}`)
  ) {
    return undefined;
  }
  return settings.baseUrl && { what: `the base URL ${settings.baseUrl.value}`, setting: settings.baseUrl };
}

/** `err`, its message ending with where the setting behind it came from; any other error as it is. */
export function withSettingOrigin(err: unknown, settings: Settings | undefined): unknown {
  if (
    settings === undefined ||
    !(
      err instanceof NetworkError ||
      err instanceof ApiError ||
      err instanceof BadResponseError ||
      err instanceof ConfigError
    )
  )
    return err;
  const behind = settingBehind(err, settings);
  if (!behind) return err;
  const emulator = behind.setting === settings.apiKey ? emulatorForgot(settings) : undefined;
  return amend(err, {
    suffix: `; ${behind.what} comes from ${originOf(behind.setting.source, settings.configPath)}`,
    ...(emulator && { hint: err.hint ? `${err.hint}; ${emulator}` : emulator }),
  });
}

/**
 * A REST key refused by a loopback host: `fcast mock` keeps the keys it issued across restarts,
 * except when started with --fresh (or with another data directory). `register --force`
 * replaces the key in the config file; one in FCAST_API_KEY overrides whatever it saves.
 */
function emulatorForgot(settings: Settings): string | undefined {
  const base = settings.baseUrl?.value;
  if (base === undefined || !URL.canParse(base) || !isLoopbackHost(new URL(base).hostname)) return undefined;
  const forgot = "if this is 'fcast mock', it may have been restarted with --fresh and forgot the key";
  if (settings.apiKey?.source === settings.configPath)
    return `${forgot}: 'fcast register --force --email ADDRESS' replaces it`;
  if (settings.apiKey?.source === 'FCAST_API_KEY')
    return `${forgot}: export the FCAST_API_KEY it printed, or a newly registered one`;
  return undefined;
}
