// journal compare's read (src/journal/compare.ts): each settled forecast once per key, the first
// settlement taken, whether it came before or after its forecast, in or out of time order; its
// target_t from its forecast, else from its timeframe.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanForCompare } from '../../src/journal/compare.js';
import { type ForecastRecord, recordLine, settledRecord } from '../../src/journal/record.js';
import { tempDir } from '../helpers/cli.js';
import { forecastAt } from '../helpers/journal-round-trip.js';

const withIa2 = (k: number, fields: Partial<ForecastRecord> = {}): ForecastRecord =>
  forecastAt(k, {
    ia2: { p_long: 0.2, p_short: 0.3, p_flat: 0.5, predicted_change_pct: 0.1, confidence: 0.5, label_raw: 'sube' },
    ...fields,
  });

/** A settlement of `f` at `price` (anchor 100: above 100.01 is up, below 99.99 down). */
const settled = (f: ForecastRecord, price: number) =>
  settledRecord(f, { price, t: f.target_t, source: 'candles' }, 0.01, f.target_t + 60);

describe("journal compare's read of the journal", () => {
  it('takes each settled forecast once, the first settlement of it, wherever its forecast stands', () => {
    const dir = tempDir();
    const [a, b, c, d, e] = [0, 1, 2, 3, 4].map((k) => withIa2(k, { target_t: withIa2(k).ts + 7200 }));
    const lines = [
      recordLine(a!),
      recordLine(settled(a!, 101)),
      recordLine(settled(a!, 99)), // a second settlement of a: not taken
      recordLine(settled(b!, 99)), // before its forecast: taken, its target_t then the timeframe's
      recordLine(b!),
      recordLine(settled(b!, 101)), // after its forecast now: still not taken again
      recordLine(settled(c!, 100)), // no forecast at all in the file
      recordLine(settled(c!, 101)),
      recordLine(e!), // forecasts out of time order
      recordLine(d!),
      recordLine(settled(d!, 99)),
      recordLine(settled(e!, 101)),
      recordLine(settled(e!, 99)),
      recordLine(settled(d!, 101)),
    ];
    writeFileSync(join(dir, '2026-11.jsonl'), lines.join(''));
    const scan = scanForCompare(dir, {}, 0.01, 'never');
    expect(scan.samples).toHaveLength(1);
    const [s] = scan.samples;
    expect([...s!.ts]).toEqual([a!.ts, b!.ts, c!.ts, d!.ts, e!.ts]);
    // 0 up, 1 down, 2 flat: the first settlement's move each time.
    expect([...s!.classes]).toEqual([0, 1, 2, 1, 0]);
    // target_t from the forecast where it came first, else ts + the timeframe (1h).
    expect([...s!.target]).toEqual([a!.target_t, b!.ts + 3600, c!.ts + 3600, d!.target_t, e!.target_t]);
    expect([...s!.ia2.p_flat]).toEqual([0.5, 0.5, 0.5, 0.5, 0.5]);
    expect(scan.lackingIa2).toBe(0);
  });

  it('finds a forecast pushed in order after its series went out of order once (the map holds every time)', () => {
    const dir = tempDir();
    const [a, b, c] = [0, 1, 2].map((k) => withIa2(k, { target_t: withIa2(k).ts + 7200 }));
    // a's forecast twice makes the time map; b's and c's come in order after it.
    const lines = [a!, a!, b!, c!].map(recordLine);
    lines.push(...[settled(c!, 101), settled(b!, 99), settled(b!, 101), settled(c!, 99)].map(recordLine));
    writeFileSync(join(dir, '2026-11.jsonl'), lines.join(''));
    const [s] = scanForCompare(dir, {}, 0.01, 'never').samples;
    expect([...s!.ts]).toEqual([b!.ts, c!.ts]);
    expect([...s!.classes]).toEqual([1, 0]);
    expect([...s!.target]).toEqual([b!.target_t, c!.target_t]);
  });
});
