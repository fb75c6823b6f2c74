// An error caused by a setting says where that setting came from: a DNS failure for a base URL
// read from the config file names the file, a timeout set in the environment names the
// variable. The reader then knows what to change, and where.
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
  return amend(err, { suffix: `; ${behind.what} comes from ${originOf(behind.setting.source, settings.configPath)}` });
}
