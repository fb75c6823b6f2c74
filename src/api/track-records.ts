// The published track records of several symbols at once (one request each, a few in flight),
// as `journal report` and the MCP journal_report set the service's figures beside the user's.
// A symbol whose request fails, or whose body is off its documented shape, gets null and a
// reason: the caller reports it and goes on, because the report is about the journal.
import { mapSettledWithLimit } from '../core/concurrency.js';
import type { TrackRecordResult } from '../schema/bodies.js';
import { type Connection, fetchTrackRecord } from './endpoints.js';

export interface TrackRecords {
  /** Each symbol's results, or null where its figures are left out. */
  records: Map<string, TrackRecordResult[] | null>;
  /** The first well-formed response's meta (the attribution). */
  meta: unknown;
  /** One line per symbol left out: the symbol and why. */
  leftOut: string[];
}

export async function fetchTrackRecords(
  conn: Connection,
  symbols: readonly string[],
  parallel: number,
  onEach?: (symbol: string) => void,
): Promise<TrackRecords> {
  const results = await mapSettledWithLimit(symbols, parallel, async (symbol) => {
    const r = await fetchTrackRecord(conn, { symbol });
    onEach?.(symbol);
    return r;
  });
  const records = new Map<string, TrackRecordResult[] | null>();
  const leftOut: string[] = [];
  let meta: unknown;
  for (const [i, r] of results.entries()) {
    const symbol = symbols[i]!;
    if (r.status === 'fulfilled' && r.value.wellFormed) {
      records.set(symbol, r.value.body.results);
      meta ??= r.value.body.meta;
    } else {
      records.set(symbol, null);
      const why = r.status === 'rejected' ? (r.reason as Error).message : 'the response is off its documented shape';
      leftOut.push(`${symbol}: the service's figures are left out: ${why}`);
    }
  }
  return { records, meta, leftOut };
}
