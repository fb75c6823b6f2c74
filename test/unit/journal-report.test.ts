// The report counts each forecast once per key, whatever the journal repeats or however out of
// order it was written: against a plain reference over any sequence of lines (fast-check).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  recordLine,
  settledRecord,
  unsettleableRecord,
  type ForecastRecord,
  type JournalRecord,
} from '../../src/journal/record.js';
import { buildReport, scanJournal, serviceFigures, TimeSet } from '../../src/journal/report.js';
import { evaluateJournalGates } from '../../src/journal/gates.js';
import { wilsonInterval } from '../../src/evidence/wilson.js';
import { tempDir } from '../helpers/cli.js';

const DEC = Date.UTC(2026, 11, 1) / 1000;

const forecast = (symbol: string, tf: string, minute: number): ForecastRecord => ({
  v: 2,
  kind: 'forecast',
  origin: 'https://api.example.com',
  symbol,
  tf,
  ts: DEC + minute * 60,
  horizon_min: 5,
  target_t: DEC + minute * 60 + 300,
  anchor_price: 100,
  target_price: null,
  direction: minute % 3 === 0 ? 'short' : 'long',
  p_long: 0.3 + (minute % 5) / 10,
  p_short: 0.2,
  p_flat: 0.1,
  tier: 'free',
  delay_min: 15,
  server_t: null,
  recorded_at: DEC,
});

type Event = [kind: 'forecast' | 'settled' | 'unsettleable', symbol: string, tf: string, minute: number, close: number];

const event: fc.Arbitrary<Event> = fc.tuple(
  fc.constantFrom('forecast', 'settled', 'unsettleable') as fc.Arbitrary<Event[0]>,
  fc.constantFrom('BTC/USD', 'ETH/USD'),
  fc.constantFrom('1min', '1h'),
  fc.integer({ min: 0, max: 12 }),
  fc.constantFrom(99, 100, 100.005, 101),
);

function recordOf([kind, symbol, tf, minute, close]: Event): JournalRecord {
  const f = forecast(symbol, tf, minute);
  if (kind === 'forecast') return f;
  if (kind === 'settled') return settledRecord(f, { price: close, t: f.target_t, source: 'price' }, 0.01, DEC);
  return unsettleableRecord(f, 'no price', DEC);
}

/** The plain reading: per key, the first settled record wins over any unsettleable one. */
function reference(events: Event[]) {
  const forecasts = new Set<string>();
  const status = new Map<string, { settled?: Event }>();
  for (const e of events) {
    const key = `${e[1]} ${e[2]} ${e[3]}`;
    if (e[0] === 'forecast') forecasts.add(key);
    else {
      const s = status.get(key) ?? {};
      if (e[0] === 'settled' && !s.settled) s.settled = e;
      status.set(key, s);
    }
  }
  const byTf = new Map<string, { settled: number; unsettleable: number; open: number; wins: number }>();
  const tfOf = (key: string) => key.split(' ')[1]!;
  const row = (tf: string) => {
    if (!byTf.has(tf)) byTf.set(tf, { settled: 0, unsettleable: 0, open: 0, wins: 0 });
    return byTf.get(tf)!;
  };
  for (const [key, s] of status) {
    const r = row(tfOf(key));
    if (s.settled) {
      r.settled++;
      const f = forecast(s.settled[1], s.settled[2], s.settled[3]);
      const ret = (s.settled[4] / 100 - 1) * 100;
      if (Math.abs(ret) >= 0.01 && ret > 0 === (f.direction === 'long')) r.wins++;
    } else r.unsettleable++;
  }
  for (const key of forecasts) {
    const r = row(tfOf(key));
    if (!status.has(key)) r.open++;
  }
  return byTf;
}

describe('the report’s counts', () => {
  it('equal a plain reading of any sequence of lines: repeats, out of order, settled after unsettleable', () => {
    let n = 0;
    fc.assert(
      fc.property(fc.array(event, { maxLength: 60 }), (events) => {
        const data = join(tempDir(), `r${n++}`);
        mkdirSync(join(data, 'journal'), { recursive: true, mode: 0o700 });
        writeFileSync(join(data, 'journal', '2026-12.jsonl'), events.map(recordOf).map(recordLine).join(''));
        const scan = scanJournal(join(data, 'journal'), {}, { bins: 10, flatBandPct: 0.01 });
        const doc = buildReport(scan, { bins: 10, flatBandPct: 0.01 });
        const expected = reference(events);
        expect(doc.timeframes.map((t) => t.tf).sort()).toEqual([...expected.keys()].sort());
        for (const t of doc.timeframes) {
          const e = expected.get(t.tf)!;
          expect([t.n_settled, t.unsettleable, t.open, t.wins]).toEqual([e.settled, e.unsettleable, e.open, e.wins]);
        }
      }),
      // FCAST_FUZZ_RUNS lowers the count (test:quick sets 50); it never raises it.
      { numRuns: Math.min(200, Number(process.env.FCAST_FUZZ_RUNS ?? 200)) },
    );
  });

  it('TimeSet tells new from seen, in order or not', () => {
    const s = new TimeSet();
    expect([s.add(5), s.add(7), s.add(5), s.add(6), s.add(7), s.add(1)]).toEqual([
      true,
      true,
      false,
      true,
      false,
      true,
    ]);
    expect([s.has(6), s.has(8), s.size]).toEqual([true, false, 4]);
    expect(s.ascending()).toEqual([1, 5, 6, 7]);
  });
});

describe('the service beside the journal', () => {
  const result = (timeframe: string, win: number, loss: number, n: number) => ({
    timeframe,
    n_settled: n,
    outcomes: { win, loss, neutral: n - win - loss },
    resolved_win_rate: win / (win + loss),
    resolved_win_rate_ci95: [0.1, 0.9],
    positive_outcome_rate: null,
    average_return_pct: null,
    maturity: 'growing_sample' as const,
  });

  it('one symbol: as published; several: pooled from the counts; a missing record or timeframe: null', () => {
    const records = new Map([
      ['BTC/USD', [result('1h', 60, 40, 110)]],
      ['ETH/USD', [result('1h', 30, 70, 105)]],
      ['SOL/USD', null],
    ]);
    expect(serviceFigures('1h', new Set(['BTC/USD']), records)).toEqual({
      resolved_win_rate: 0.6,
      resolved_win_rate_ci95: [0.1, 0.9],
      n_settled: 110,
    });
    const pooled = serviceFigures('1h', new Set(['BTC/USD', 'ETH/USD']), records)!;
    expect(pooled.resolved_win_rate).toBe(0.45);
    expect(pooled.n_settled).toBe(215);
    expect(pooled.resolved_win_rate_ci95).toEqual(wilsonInterval(90, 200));
    expect(serviceFigures('1h', new Set(['BTC/USD', 'SOL/USD']), records)).toBeNull();
    expect(serviceFigures('6h', new Set(['BTC/USD']), records)).toBeNull();
  });
});

describe('the gates', () => {
  const row = (tf: string, n: number, hit: number | null, brier: number | null) => ({
    tf,
    n_settled: n,
    hit_rate: hit,
    call: { brier },
  });
  it('pass a figure equal to the threshold, fail a null one, and fail once each on an empty report', () => {
    expect(
      evaluateJournalGates([row('1h', 30, 0.5, 0.25)], { minSettled: 30, minHitRate: 0.5, maxBrier: 0.25 }),
    ).toEqual([]);
    expect(
      evaluateJournalGates([row('1h', 29, null, 0.2501)], { minSettled: 30, minHitRate: 0.5, maxBrier: 0.25 }),
    ).toEqual([
      { timeframe: '1h', gate: '--min-settled', field: 'n_settled', figure: 29, threshold: 30, bound: 'at least' },
      { timeframe: '1h', gate: '--max-brier', field: 'call.brier', figure: 0.2501, threshold: 0.25, bound: 'at most' },
      { timeframe: '1h', gate: '--min-hit-rate', field: 'hit_rate', figure: null, threshold: 0.5, bound: 'at least' },
    ]);
    expect(evaluateJournalGates([], { minSettled: 1 })).toHaveLength(1);
  });
});
