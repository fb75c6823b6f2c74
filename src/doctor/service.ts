// Doctor's service check: whether the base URL answers as the service (discovery), then whether
// it accepts the API key (symbols), with one attempt and a short deadline.
import type { OpenConnection } from '../api/connect.js';
import { inspectKey } from '../config/key-checks.js';
import { originOf, type Sourced } from '../config/origin.js';
import { completeSettings, type Inspection, type Settings, withDefault } from '../config/settings.js';
import { type Check, type DoctorInput, failure, pass, warn } from './check.js';

/** Doctor asks whether the service answers, not whether it answers eventually. */
const DOCTOR_TIMEOUT_SECONDS = 5;

/** `config`: the config directory and file, as the local checks found them. */
export async function checkService(
  input: DoctorInput,
  config: { dir: string; path: string },
  found: Inspection,
): Promise<Check[]> {
  const { ctx, flags, out } = input;
  const rest = inspectKey({ apiKey: found.apiKey.found, gatewayKey: undefined }, 'rest');
  const apiKey: Sourced<string> | undefined = rest.problem ? undefined : rest.key;
  const authSkipped = (why: string) => warn('authenticated call', `skipped: ${why}`);
  const keyless = found.apiKey.found ? 'the API key is malformed' : 'no API key';

  if (flags.dryRun)
    return [warn('service', 'skipped: --dry-run sends nothing'), authSkipped('--dry-run sends nothing')];
  if (!found.baseUrl.found) return [warn('service', 'skipped: no usable base URL'), authSkipped('no usable base URL')];

  const settings: Settings = completeSettings({
    configDir: config.dir,
    configPath: config.path,
    baseUrl: found.baseUrl.found,
    apiKey,
    gatewayKey: undefined,
    timeout: {
      value: Math.min(withDefault('timeout', found.timeout).value, DOCTOR_TIMEOUT_SECONDS),
      source: 'doctor',
    },
    // One attempt: doctor reports how things are, it does not wait for them to get better.
    retries: { value: 0, source: 'doctor' },
    maxWait: withDefault('maxWait', found.maxWait),
    watchlist: undefined,
    record: withDefault('record', {}),
  });
  let connection: OpenConnection;
  try {
    const { openConnection } = await import('../api/connect.js');
    connection = openConnection(ctx, settings, out, { transport: input.transport });
  } catch (err) {
    const check = failure('service', err, 'check the proxy settings above');
    return [check, authSkipped('no connection could be set up')];
  }
  try {
    const { fetchDiscovery, fetchSymbols } = await import('../api/endpoints.js');
    const started = ctx.clock.now();
    let service: Check;
    try {
      const res = await fetchDiscovery(connection.conn);
      service = pass(
        'service',
        `${res.response.url} answered HTTP ${res.response.status} in ${ctx.clock.now() - started} ms`,
      );
    } catch (err) {
      service = failure('service', err, serviceHint(found.baseUrl.found, config.path));
    }
    if (service.status === 'fail') return [service, authSkipped('the service did not answer as expected')];
    if (!apiKey) return [service, authSkipped(keyless)];
    try {
      const res = await fetchSymbols(connection.conn);
      const count = Array.isArray(res.body.symbols) ? res.body.symbols.length : 0;
      return [
        service,
        pass('authenticated call', `symbols.php accepted the key from ${apiKey.source} (${count} symbols)`),
      ];
    } catch (err) {
      return [
        service,
        failure(
          'authenticated call',
          err,
          `the service refused the key from ${apiKey.source}: store a valid one with 'fcast auth login', or get one with 'fcast register'`,
        ),
      ];
    }
  } finally {
    await connection.close().catch(() => undefined);
  }
}

/** What to do when the service does not answer: the base URL, and where it is set. */
function serviceHint(baseUrl: Sourced<string>, configPath: string): string {
  return (
    `check the base URL (from ${originOf(baseUrl.source, configPath)}): the root of a running service, ` +
    "without /api/agent/v1/ ('fcast mock' serves one locally)"
  );
}
