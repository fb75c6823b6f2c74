// The writers that reshape text before it reaches a sink, held to the contract's rule that no
// byte fcast writes shows a secret it holds: the journal's (a record whose symbol or timeframe
// holds a spelling of a key: month files and index.json) and the cutter of long server
// messages (boundServerText, which must redact the whole text before it cuts). For any held
// secret and any spelling the redactor knows (secret-spellings.ts, and every character
// %-escaped), no 12 characters in a row of any of those spellings may be written; and the
// journal knows the record by the text it wrote, so the index and the files agree and a second
// run adds nothing.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundServerText } from '../../src/core/errors.js';
import { Redactor } from '../../src/core/redact.js';
import { spellings } from '../../src/core/secret-spellings.js';
import { openBoundary } from '../../src/core/sinks.js';
import { readSavedIndex, rebuild } from '../../src/journal/index-file.js';
import { monthFiles } from '../../src/journal/journal-files.js';
import { noProblems, readRecords } from '../../src/journal/lines.js';
import type { ForecastRecord, JournalRecord, PriceRecord } from '../../src/journal/record.js';
import { withJournal } from '../../src/journal/store.js';
import { tempDir } from '../helpers/cli.js';
import { FUZZ_PARAMS } from './harness.js';

const HEX = '0123456789abcdef';
const restKey = fc
  .tuple(fc.constantFrom('mfa', 'zz', 'k9'), fc.string({ unit: fc.constantFrom(...HEX), minLength: 40, maxLength: 40 }))
  .map(([prefix, hex]) => `${prefix}_ag_${hex}`);
/**
 * A secret of another shape: a gateway key or a proxy password, with what URLs and JSON escape.
 * As random as a secret is: every 12 characters of it hold 4 different ones (the redactor
 * leaves repetitive runs alone, as data: secret-automata.ts, isPiece).
 */
const otherSecret = fc
  .string({ unit: fc.constantFrom(...'abcdefghijKLMNOPqrstu0123456789/+=%&-_~!"\\'), minLength: 16, maxLength: 40 })
  .filter((s) =>
    Array.from({ length: s.length - 11 }, (_, i) => new Set(s.slice(i, i + 12)).size).every((n) => n >= 4),
  );
const secret = fc.oneof(restKey, otherSecret);

/** Every spelling the redactor knows of `s`, plus every character %-escaped (found by decoding). */
const known = (s: string): string[] => [
  ...spellings(s),
  [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join(''),
];

/** As JSON shows a string holding `text`. */
const inJson = (text: string): string => JSON.stringify(text).slice(1, -1);

/**
 * The spellings a server's text may hold: all the redactor knows but those it knows only as a
 * JSON document shows another one (backslashes doubled), which a JSON line would double again.
 */
const sent = (s: string): string[] => {
  const forms = known(s);
  const doubled = new Set(forms.filter((f) => f.includes('\\')).map(inJson));
  return forms.filter((f) => !doubled.has(f));
};

/** A secret and one of its spellings, in either case. */
const spelled = secret.chain((s) =>
  fc.tuple(fc.constant(s), fc.constantFrom(...sent(s)), fc.boolean()).map(([s, form, upper]) => ({
    secret: s,
    form: upper ? form.toUpperCase() : form,
  })),
);

/** Fails when 12 characters in a row of any spelling of `s` (either case) are in `text`. */
function expectNone(text: string, s: string, where: string): void {
  const lower = text.toLowerCase();
  const found: string[] = [];
  for (const form of known(s))
    for (let i = 0; i + 12 <= form.length; i++) {
      const window = form.slice(i, i + 12).toLowerCase();
      if (lower.includes(window)) found.push(`'${window}' of '${form}'`);
    }
  expect(found, `${where}: ${JSON.stringify(text)}`).toEqual([]);
}

/** Runs `work` with a run's redactor holding `s` open, as main does, until it has ended. */
async function holding<T>(s: string, work: (redactor: Redactor) => T | Promise<T>): Promise<T> {
  const redactor = new Redactor(() => [s]);
  const close = openBoundary(redactor);
  try {
    return await work(redactor);
  } finally {
    close();
  }
}

// Filler of characters no spelling holds (no letter, digit or escape), so a window found is a secret's.
const filler = (max: number) => fc.string({ unit: fc.constantFrom(' ', '.', ',', ':', ';'), maxLength: max });

describe('the message cutter', () => {
  it('redacts the whole text before it cuts: no spelling is left in part at the cut', () => {
    fc.assert(
      fc.property(spelled, filler(1100), filler(40), ({ secret: s, form }, before, after) => {
        const redactor = new Redactor(() => [s]);
        const close = openBoundary(redactor);
        try {
          // What reaches stderr: the cut message, through the stream's redactor.
          const shown = redactor.redact(boundServerText(`${before}${form}${after}`));
          expectNone(shown, s, 'the cut message');
        } finally {
          close();
        }
      }),
      FUZZ_PARAMS,
    );
  });
});

const T0 = Date.UTC(2026, 10, 22, 12) / 1000;
const ORIGIN = 'http://127.0.0.1:8787';

const forecast = (symbol: string, tf: string): ForecastRecord =>
  ({
    v: 2,
    kind: 'forecast',
    origin: ORIGIN,
    symbol,
    tf,
    ts: T0,
    horizon_min: 60,
    target_t: T0 + 3600,
    anchor_price: 100,
    target_price: 101,
    direction: 'long',
    p_long: 0.5,
    p_short: 0.3,
    p_flat: 0.2,
    tier: 'free',
    delay_min: 15,
    server_t: T0,
    recorded_at: T0,
  }) as ForecastRecord;

const price = (symbol: string): PriceRecord => ({
  v: 2,
  kind: 'price',
  origin: ORIGIN,
  symbol,
  t: T0,
  last: 100,
  tier: 'free',
  delay_min: 15,
  recorded_at: T0,
});

/** What the hook does with a response's records: those not yet recorded, appended. */
const record = (dataDir: string, records: JournalRecord[]) =>
  withJournal(dataDir, (tx) => {
    const fresh = records.filter((r) => (r.kind === 'price' ? !tx.hasPrice(r) : !tx.hasForecast(r as ForecastRecord)));
    if (fresh.length > 0) tx.append(fresh);
    return fresh.length;
  });

const seriesOf = (index: { series: Map<string, unknown>; prices: Map<string, unknown> }) => [
  [...index.series.keys()].sort(),
  [...index.prices.keys()].sort(),
];

describe("the journal's writers", () => {
  it('write no spelling of a held key into a month file or the index, and know the record by what they wrote', async () => {
    await fc.assert(
      fc.asyncProperty(spelled, fc.constantFrom('symbol', 'tf'), async ({ secret: s, form }, where) => {
        const dataDir = tempDir();
        const symbol = where === 'symbol' ? `BTC/${form}` : 'BTC/USD';
        const tf = where === 'tf' ? `tf0-${form}` : '1h';
        const records = () => [forecast(symbol, tf), price(symbol), forecast('ETH/USD', '1h')];
        const first = await holding(s, () => record(dataDir, records()));
        expect(first).toBe(3);
        // A second run shown the same response records nothing: it knows the masked series.
        const second = await holding(s, () => record(dataDir, records()));
        expect(second).toBe(0);
        const dir = join(dataDir, 'journal');
        for (const file of readdirSync(dir)) expectNone(readFileSync(join(dir, file), 'utf8'), s, file);
        // The index holds the files' texts: rebuilt from them, it has the same series.
        const saved = readSavedIndex(dir)!;
        expect(seriesOf(saved)).toEqual(seriesOf(rebuild(dir, monthFiles(dir))));
        const read: JournalRecord[] = [];
        for (const file of monthFiles(dir)) readRecords(join(dir, file), 0, (r) => read.push(r), noProblems());
        expect(read).toHaveLength(3);
        // Ordinary text is kept as it came.
        expect(read.filter((r) => r.symbol === 'ETH/USD')).toHaveLength(1);
      }),
      { ...FUZZ_PARAMS, numRuns: Math.min(FUZZ_PARAMS.numRuns, 200) },
    );
  });
});
