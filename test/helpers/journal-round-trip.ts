// Generated journals for the export-then-import round-trip properties (every format in
// test/unit/journal-round-trip.test.ts; CSV's formula guard in test/unit/formula-guard.test.ts,
// TSV's escapes in test/unit/tsv.test.ts): the journal written through the store, or line by
// line as a hand edit or an older fcast could leave it, and exported as `journal export` writes
// it (core/exact-text.ts, through the output boundary's redactor).
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { exactJson } from '../../src/core/exact-text.js';
import { redactText } from '../../src/core/sinks.js';
import { shownAs } from '../../src/journal/masked.js';
import {
  JOURNAL_VERSION,
  recordLine,
  settledRecord,
  unsettleableRecord,
  type ForecastRecord,
  type JournalRecord,
} from '../../src/journal/record.js';
import { EXPORT_COLUMNS, EXTRA_COLUMNS, forEachRow, type JournalRow } from '../../src/journal/rows.js';
import { openJournalDir } from '../../src/journal/journal-files.js';
import { withJournal } from '../../src/journal/store.js';
import { renderDelimited } from '../../src/output/formats/delimited.js';

export const NOV = Date.UTC(2026, 10, 2) / 1000;

/**
 * Journals a round-trip property generates: 40 in `npm test`; FCAST_FUZZ_RUNS scales it as it
 * scales the property tests (10 in `npm run test:quick`, 400 in `npm run fuzz`).
 */
export const JOURNAL_RUNS = Math.max(10, Math.round(Number(process.env.FCAST_FUZZ_RUNS ?? 1000) / 25));
const header = [...EXPORT_COLUMNS, ...EXTRA_COLUMNS];

export type ExportFormat = 'csv' | 'tsv' | 'jsonl';

/**
 * The journal in `data` as `journal export --format FORMAT` writes it: exact cells, and every
 * key the running redactors know, or any key-shaped text, masked (as stdout masks them).
 */
export function exportText(data: string, format: ExportFormat): string {
  const rows: JournalRow[] = [];
  forEachRow(openJournalDir(data, { create: false }), {}, 0.01, (r) => rows.push(r));
  const text =
    format === 'jsonl'
      ? rows.map((r) => `${exactJson(r)}\n`).join('')
      : renderDelimited(
          format,
          header,
          rows.map((r) => header.map((c) => r[c])),
          { exact: true },
        );
  return redactText(text);
}

/** The journal in `data` as `journal export --format csv|tsv` writes it. */
export const exportDelimited = (data: string, format: 'csv' | 'tsv'): string => exportText(data, format);

/** A forecast of https://api.example.com at the k-th minute of NOV (an hour ahead), with `fields` over it. */
export function forecastAt(k: number, fields: Partial<ForecastRecord>): ForecastRecord {
  return {
    v: JOURNAL_VERSION,
    kind: 'forecast',
    origin: 'https://api.example.com',
    symbol: 'BTC/USD',
    tf: '1h',
    ts: NOV + k * 60,
    horizon_min: 60,
    target_t: NOV + k * 60 + 3600,
    anchor_price: 100,
    target_price: null,
    direction: 'long',
    p_long: 0.5,
    p_short: 0.4,
    p_flat: 0.1,
    tier: null,
    delay_min: null,
    server_t: null,
    recorded_at: NOV + k * 60 + 5,
    ia1: null,
    ia2: null,
    ia3: null,
    ...fields,
  };
}

/** The text fields a generated forecast takes from its test's own arbitraries. */
export interface ForecastText {
  symbol: fc.Arbitrary<string>;
  tf: fc.Arbitrary<string>;
  direction: fc.Arbitrary<string>;
  tier: fc.Arbitrary<string | null>;
  /** An unsettleable forecast's reason (else the one writeJournal is given). */
  reason?: fc.Arbitrary<string>;
  /** The engines' labels, ia2.label_raw and ia3.label (else the emulator's words). */
  label?: fc.Arbitrary<string>;
}

/**
 * A number as an engine's field may hold it: a whole or decimal number, any double (an
 * exponent, 17 digits), out of [0, 1] too (the journal keeps what the server sent), or none.
 */
const engineNumber = fc.option(
  fc.oneof(
    fc.integer({ min: -10_000, max: 10_000 }).map((k) => k / 10_000),
    fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }),
    fc.constantFrom(0, 1, 1e-7, 0.30000000000000004, 3),
  ),
  { nil: null, freq: 5 },
);

/** Every engine as a forecast may hold it: none (an ia3-only record), or each field a value or none. */
export function generatedEngines(
  label: fc.Arbitrary<string>,
): fc.Arbitrary<Pick<ForecastRecord, 'ia1' | 'ia2' | 'ia3'>> {
  const text = fc.option(label, { nil: null, freq: 5 });
  const n = engineNumber;
  const engine = <T>(fields: fc.Arbitrary<T>) => fc.option(fields, { nil: null, freq: 3 });
  return fc
    .record({
      ia1: engine(fc.record({ score: n, rsi_score: n, ema_score: n })),
      ia2: engine(
        fc.record({ p_long: n, p_short: n, p_flat: n, predicted_change_pct: n, confidence: n, label_raw: text }),
      ),
      ia3: engine(fc.record({ label: text, policy_version: n })),
    })
    .map((e) => ({
      // As the journal keeps them: an engine without one field sent is none (record.ts).
      ia1: e.ia1 && Object.values(e.ia1).every((v) => v === null) ? null : e.ia1,
      ia2: e.ia2 && Object.values(e.ia2).every((v) => v === null) ? null : e.ia2,
      ia3: e.ia3 && Object.values(e.ia3).every((v) => v === null) ? null : e.ia3,
    }));
}

export type Entry = [ForecastRecord, 'open' | 'settled' | 'unsettleable', number, string?];

/**
 * Up to 8 forecasts of distinct keys, each open, settled at a generated close, or unsettleable.
 * Distinct as every export shows them too: two keys an export masks alike are one to it.
 */
export function generatedJournal(text: ForecastText): fc.Arbitrary<Entry[]> {
  const forecast = fc
    .record({
      ...text,
      k: fc.integer({ min: 0, max: 50 }),
      anchor: fc.integer({ min: 1, max: 1_000_000 }),
      serverT: fc.option(fc.integer({ min: NOV, max: NOV + 9_000 }), { nil: null }),
      engines: generatedEngines(text.label ?? fc.constantFrom('sube', 'baja', 'estable', 'long', 'short')),
    })
    .map(({ symbol, tf, k, direction, anchor, tier, serverT, engines }) =>
      forecastAt(k, { symbol, tf, direction, tier, anchor_price: anchor / 100, server_t: serverT, ...engines }),
    );
  const shown = (t: string) => (['csv', 'tsv', 'jsonl'] as const).map((f) => shownAs(f, t)).join('\u0000');
  return fc.uniqueArray(
    fc.tuple(
      forecast,
      fc.constantFrom('open' as const, 'settled' as const, 'unsettleable' as const),
      fc.integer({ min: 1, max: 1_000_000 }),
      text.reason ?? fc.constant(undefined),
    ),
    {
      selector: ([f]) => `${shown(f.symbol)}\t${shown(f.tf)}\t${f.ts}`,
      minLength: 1,
      maxLength: 8,
    },
  );
}

/** Settled when and with what band: drawn from the close, so that records differ in both. */
const settledAt = (close: number): number => NOV + 9000 + (close % 997);
const bandOf = (close: number): number => [0.01, 0.25, 0][close % 3]!;

const recordsOf = (entries: Entry[], reason: string): JournalRecord[] =>
  entries.flatMap(([f, status, close, own]): JournalRecord[] =>
    status === 'open'
      ? [f]
      : status === 'settled'
        ? [
            f,
            settledRecord(f, { price: close / 100, t: f.target_t, source: 'candles' }, bandOf(close), settledAt(close)),
          ]
        : [f, unsettleableRecord(f, own ?? reason, settledAt(close))],
  );

/** Writes the entries into the journal in `data`; an unsettleable one says its own reason, else `reason`. */
export async function writeJournal(data: string, entries: Entry[], reason: string): Promise<void> {
  await withJournal(data, (tx) => tx.append(recordsOf(entries, reason)));
}

/**
 * Writes the entries' lines as they are, not through the store's redaction: what a hand edit or
 * an older fcast leaves in a journal, a key-shaped symbol among them.
 */
export function writeJournalLines(data: string, entries: Entry[], reason: string): void {
  const dir = openJournalDir(data, { create: true })!;
  appendFileSync(join(dir, '2026-11.jsonl'), recordsOf(entries, reason).map(recordLine).join(''), { mode: 0o600 });
}

/** A key as fcast's keys look (`<prefix>_ag_` and hex): the redactor masks any text of this shape. */
export const KEY_SHAPED = fc
  .tuple(fc.constantFrom('mfa', 'x', 'SK9'), fc.stringMatching(/^[0-9a-f]{12,40}$/))
  .map(([prefix, hex]) => `${prefix}_ag_${hex}`);

/**
 * Text as hostile as a service could send or a hand edit could leave: formula starts of every
 * kind (ASCII and fullwidth = + - @, tab, CR), runs of ', bidi controls (U+202A-E, U+2066-9,
 * U+061C, U+200E), C0 and C1 controls, ESC and whole escape sequences, DEL, line separators,
 * lone surrogates, backslashes before u and hex digits (the export's own escape), quotes and
 * commas, the empty text, and key-shaped text anywhere in it.
 */
export const hostileText: fc.Arbitrary<string> = (() => {
  const unit = fc.oneof(
    fc.constantFrom(
      '=',
      '+',
      '-',
      '@',
      '＝',
      '＋',
      '－',
      '＠',
      '\t',
      '\r',
      '\n',
      '\r\n',
      "'",
      "''",
      "'=",
      "'＝",
      "''+",
      "'-",
      "'@",
      "'\t",
      "'\r",
      '"',
      ',',
      '\\',
      '\\u',
      '\\u0041',
      '\\&',
      'u',
      '0041',
      'a',
      'Z',
      ' ',
      'é',
      '😀',
      '\u202a',
      '\u202b',
      '\u202c',
      '\u202d',
      '\u202e',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
      '\u061c',
      '\u200e',
      '\u2028',
      '\u2029',
      '\x1b',
      '\x1b[31m',
      '\x1b]8;;https://x\x07',
      '\x00',
      '\x07',
      '\x08',
      '\x0b',
      '\x0c',
      '\x1f',
      '\x7f',
      '\x80',
      '\x85',
      '\x9b',
      '\x9f',
      '\ud800',
      '\udfff',
      '\ufeff',
    ),
    KEY_SHAPED,
  );
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant('') },
    { weight: 6, arbitrary: fc.array(unit, { minLength: 1, maxLength: 6 }).map((a) => a.join('')) },
    { weight: 1, arbitrary: KEY_SHAPED },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
  );
})();
