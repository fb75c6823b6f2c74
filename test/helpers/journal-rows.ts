// Rows as `journal export --format jsonl` writes them, for tests that import made-up journals.

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
