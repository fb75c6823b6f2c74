// Generated journals for the export-then-import round-trip properties (CSV in
// test/unit/formula-guard.test.ts, TSV in test/unit/tsv.test.ts): the journal written through
// the store, and exported as `journal export` writes it.
import fc from 'fast-check';
import {
  JOURNAL_VERSION,
  settledRecord,
  unsettleableRecord,
  type ForecastRecord,
  type JournalRecord,
} from '../../src/journal/record.js';
import { EXPORT_COLUMNS, EXTRA_COLUMNS, forEachRow, type JournalRow } from '../../src/journal/rows.js';
import { openJournalDir, withJournal } from '../../src/journal/store.js';
import { renderDelimited } from '../../src/output/formats/delimited.js';

export const NOV = Date.UTC(2026, 10, 2) / 1000;
const header = [...EXPORT_COLUMNS, ...EXTRA_COLUMNS];

/** The journal in `data` as `journal export --format csv|tsv` writes it. */
export function exportDelimited(data: string, format: 'csv' | 'tsv'): string {
  const rows: JournalRow[] = [];
  forEachRow(openJournalDir(data, { create: false }), {}, 0.01, (r) => rows.push(r));
  return renderDelimited(
    format,
    header,
    rows.map((r) => header.map((c) => r[c])),
  );
}

/** The text fields a generated forecast takes from its test's own arbitraries. */
export interface ForecastText {
  symbol: fc.Arbitrary<string>;
  tf: fc.Arbitrary<string>;
  direction: fc.Arbitrary<string>;
  tier: fc.Arbitrary<string | null>;
}

export type Entry = [ForecastRecord, 'open' | 'settled' | 'unsettleable', number];

/** Up to 8 forecasts of distinct keys, each open, settled at a generated close, or unsettleable. */
export function generatedJournal(text: ForecastText): fc.Arbitrary<Entry[]> {
  const forecast = fc
    .record({ ...text, k: fc.integer({ min: 0, max: 50 }), anchor: fc.integer({ min: 1, max: 1_000_000 }) })
    .map(
      ({ symbol, tf, k, direction, anchor, tier }): ForecastRecord => ({
        v: JOURNAL_VERSION,
        kind: 'forecast',
        origin: 'https://api.example.com',
        symbol,
        tf,
        ts: NOV + k * 60,
        horizon_min: 60,
        target_t: NOV + k * 60 + 3600,
        anchor_price: anchor / 100,
        target_price: null,
        direction,
        p_long: 0.5,
        p_short: 0.4,
        p_flat: 0.1,
        tier,
        delay_min: null,
        server_t: null,
        recorded_at: NOV + k * 60 + 5,
      }),
    );
  return fc.uniqueArray(
    fc.tuple(
      forecast,
      fc.constantFrom('open' as const, 'settled' as const, 'unsettleable' as const),
      fc.integer({ min: 1, max: 1_000_000 }),
    ),
    { selector: ([f]) => `${f.symbol}\t${f.tf}\t${f.ts}`, minLength: 1, maxLength: 8 },
  );
}

/** Writes the entries into the journal in `data`; an unsettleable one says `reason`. */
export async function writeJournal(data: string, entries: Entry[], reason: string): Promise<void> {
  await withJournal(data, (tx) =>
    tx.append(
      entries.flatMap(([f, status, close]): JournalRecord[] =>
        status === 'open'
          ? [f]
          : status === 'settled'
            ? [f, settledRecord(f, { price: close / 100, t: f.target_t, source: 'candles' }, 0.01, NOV + 9000)]
            : [f, unsettleableRecord(f, reason, NOV + 9000)],
      ),
    ),
  );
}
