// Rows as `journal export --format jsonl` writes them, for tests that import made-up journals,
// and the journal's own lines as a test reads them.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** An open 1h BTC/USD forecast made at `ts` (epoch seconds), called long at 0.6; `over` changes any field. */
export function exportRow(ts: number, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    symbol: 'BTC/USD',
    tf: '1h',
    ts,
    horizon_min: 60,
    target_t: ts + 3600,
    anchor_price: 100,
    target_price: 101,
    direction: 'long',
    p_long: 0.6,
    p_short: 0.3,
    p_flat: 0.1,
    status: 'open',
    settle_price: null,
    settle_t: null,
    settle_source: null,
    return_pct: null,
    outcome: null,
    recorded_at: ts + 10,
    ...over,
  };
}

/** Every line of every month file of the journal in `data`, parsed here (not by fcast). */
export function journalLines(data: string): any[] {
  const dir = join(data, 'journal');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .flatMap((f) =>
      readFileSync(join(dir, f), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l)),
    );
}
