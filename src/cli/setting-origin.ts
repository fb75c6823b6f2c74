// An error caused by a setting says where that setting came from: a DNS failure for a base URL
// read from the config file names the file, a timeout set in the environment names the
// variable. The reader then knows what to change, and where.
import { ApiError, amend, BadResponseError, type FcastError, NetworkError } from '../core/errors.js';
import { originOf } from '../config/origin.js';
import type { Settings, Sourced } from '../config/settings.js';

/** The setting a failure is about: the base URL for a host that cannot be reached, the timeout for a deadline. */
function settingBehind(err: FcastError, settings: Settings): { what: string; setting: Sourced<unknown> } | undefined {
  const notTheApi = /does not look like the Market Forecast Agent API|did not answer in HTTP/;
  if (err instanceof NetworkError) {
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
    !(err instanceof NetworkError || err instanceof ApiError || err instanceof BadResponseError)
  )
    return err;
  const behind = settingBehind(err, settings);
  if (!behind) return err;
  return amend(err, { suffix: `; ${behind.what} comes from ${originOf(behind.setting.source, settings.configPath)}` });
}
