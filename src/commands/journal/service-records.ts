// The service's published figures beside `fcast journal report`: one track-record request per
// symbol. Its own module so that `report --offline` never loads the HTTP layer.
import type { Run } from '../../cmdutil/command.js';
import type { TrackRecordResult } from '../../schema/bodies.js';
import { requests } from '../../api/endpoints.js';
import { fetchTrackRecords } from '../../api/track-records.js';
import { PARALLEL_REQUESTS } from './shared.js';

/**
 * The published track record of each symbol (one request each), for the report's `service`
 * figures; a symbol whose request fails gets null and a warning, and without a base URL the
 * figures are left out with a warning: the report is about the journal, which needs no service.
 */
export async function fetchServiceRecords(
  run: Run,
  symbols: readonly string[],
): Promise<{ records: Map<string, TrackRecordResult[] | null>; meta: unknown } | undefined | 'dry-run'> {
  // No base URL leaves the service out; a setting that is wrong (FCAST_TIMEOUT=abc, a config
  // file that cannot be read) is exit 3 as for every command that reads the settings.
  if (run.settings().baseUrl === undefined) {
    run.out.warn("the service's figures are left out: no base URL is set (--offline leaves them out quietly)");
    return undefined;
  }
  const conn = await run.connect();
  if (run.flags.dryRun) {
    await run.dryRun(...symbols.map((symbol) => requests.trackRecord({ symbol })));
    return 'dry-run';
  }
  const { records, meta, leftOut } = await fetchTrackRecords(conn, symbols, PARALLEL_REQUESTS);
  for (const line of leftOut) run.out.warn(line);
  return { records, meta };
}
