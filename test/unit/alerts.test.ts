// --alert: the expression's grammar (cmdutil/alert-flags.ts) and the once-per-crossing state
// machine (watch/alerts.ts), pure: no emulator, no clock. The e2e side is test/e2e/watch-alerts.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAlert } from '../../src/cmdutil/alert-flags.js';
import type { AlertRule } from '../../src/core/alert-rules.js';
import { UsageError } from '../../src/core/errors.js';
import { alertJson, alertVariables, tell } from '../../src/watch/alert-actions.js';
import { AlertMachine, type Reading, readingsOf } from '../../src/watch/alerts.js';
import type { Forecast } from '../../src/watch/source.js';

describe('parseAlert: the grammar', () => {
  it.each([
    ['price > 100000', { kind: 'threshold', field: 'price', op: '>', threshold: 100000, engine: 'ia3' }],
    ['price<90000', { kind: 'threshold', field: 'price', op: '<', threshold: 90000, text: 'price < 90000' }],
    ['1h.p_long >= 0.7', { field: 'p_long', tf: '1h', engine: 'ia3', op: '>=', threshold: 0.7 }],
    ['6h.p_short > 0.6', { field: 'p_short', tf: '6h', op: '>' }],
    ['1h.ia2.p_long >= 0.7', { field: 'p_long', tf: '1h', engine: 'ia2', text: '1h.ia2.p_long >= 0.7' }],
    ['1h.move >= 1.5', { field: 'move', tf: '1h', threshold: 1.5 }],
    ['1h.move <= -1.5', { field: 'move', threshold: -1.5 }],
    ['p_flat <= .2', { field: 'p_flat', threshold: 0.2 }],
    ['btc-usd:1H.P_LONG >= 0.7', { symbol: 'BTC/USD', tf: '1h', field: 'p_long', text: 'BTC/USD:1h.p_long >= 0.7' }],
    ['ETH/USD: price > 3000', { symbol: 'ETH/USD', field: 'price' }],
    ['1h.direction changes', { kind: 'changes', tf: '1h', field: 'direction', text: '1h.direction changes' }],
    ['BTC/USD:6h.ia3.direction   changes', { kind: 'changes', symbol: 'BTC/USD', tf: '6h' }],
    ['direction changes', { kind: 'changes', field: 'direction' }],
  ])('%s', (raw, expected) => {
    expect(parseAlert(raw)).toMatchObject(expected);
  });

  it.each([
    ['', /expected \[SYMBOL:\]\[TF\.\]\[ENGINE\.\]FIELD OP VALUE/],
    ['price', /expected an operator|expected \[SYMBOL/],
    ['price > ', /expected/],
    ['price = 5', /unknown operator '='.*> >= < <=/],
    ['price == 5', /unknown operator/],
    ['price != 5', /unknown operator/],
    ['1h.p_lng > 0.5', /unknown field 'p_lng' \(did you mean p_long\?\); fields price, p_long, p_short, p_flat, move/],
    ['1h.p_long > 70', /probability from 0 to 1/],
    ['1h.p_long > 0x10', /is no number/],
    ['1h.p_long > 1e3', /is no number/],
    ['1h.ia1.p_long > 0.5', /ia1 gives scores/],
    ['1h.ia9.p_long > 0.5', /unknown engine 'ia9'/],
    ['1h.ia2.direction changes', /ia2 has no direction/],
    ['1h.price > 5', /price is the last price, of no timeframe/],
    ['soon.p_long > 0.5', /'soon' is no timeframe/],
    ['1h.direction > 0.5', /direction changes/],
    ['1h.p_long changes', /only direction changes/],
    ['nope:price > 1', /'nope' is no symbol/],
    ['a.b.c.d > 1', /expected \[TF\.\]\[ENGINE\.\]FIELD/],
    ['1h..p_long > 1', /expected \[TF\.\]\[ENGINE\.\]FIELD/],
    [`price > ${'9'.repeat(300)}`, /longer than 200/],
  ])('%j is exit 2: %s', (raw, message) => {
    let thrown: unknown;
    try {
      parseAlert(raw);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(UsageError);
    expect((thrown as UsageError).message).toMatch(message);
    expect((thrown as UsageError).hint).toBe("see 'fcast help alerts'");
  });

  it('a message never carries a control character typed in the expression', () => {
    expect(() => parseAlert('\x1b]0;x\x07price = 1')).toThrow(/^invalid --alert '[^\x1b\x07]*'/);
  });
});

/** A body of the documented shape, enough for readingsOf. */
function fetched(body: Record<string, unknown>): Forecast {
  return { wellFormed: true, body, raw: JSON.stringify(body) } as unknown as Forecast;
}

const forecast = (p_long: number, direction = 'long', extra: Record<string, unknown> = {}) => ({
  anchor_price: 100,
  target_price: 102,
  ia2: { p_long: 0.1, p_short: 0.2, p_flat: 0.7, predicted_change_pct: -0.4 },
  ia3: { direction, p_long, p_short: 1 - p_long, p_flat: 0 },
  ...extra,
});

describe('readingsOf', () => {
  const rules = [
    '1h.p_long >= 0.7',
    'p_long >= 0.7',
    'price > 100',
    '60min.move >= 1.5',
    '1h.ia2.move < 0',
    'ETH/USD:price > 1',
    '1h.direction changes',
  ].map(parseAlert);
  const body = { price: { last: 101 }, predictions: { '1h': forecast(0.8), '6h': forecast(0.2, 'short') } };
  const readings = readingsOf(rules, [{ symbol: 'BTC/USD', fetched: fetched(body) }]);
  const of = (i: number) => readings.filter((r) => r.ruleIndex === i);

  it('reads the field of the timeframe named (by its length of time), of each unscoped, and the price', () => {
    expect(of(0).map((r) => [r.tf, r.value, r.holds])).toEqual([['1h', 0.8, true]]);
    expect(of(1).map((r) => [r.tf, r.holds])).toEqual([
      ['1h', true],
      ['6h', false],
    ]);
    expect(of(2).map((r) => [r.tf, r.value, r.holds])).toEqual([[undefined, 101, true]]);
    // ia3's move is the target against the anchor; ia2's is its own.
    expect(of(3).map((r) => [r.tf, r.value, r.holds])).toEqual([['1h', 2, true]]);
    expect(of(4).map((r) => [r.value, r.holds])).toEqual([[-0.4, true]]);
    expect(of(5)).toEqual([]);
    expect(of(6).map((r) => r.value)).toEqual(['long']);
  });

  it('with --tf, a rule of no timeframe reads only those shown; one naming a timeframe reads it anyway', () => {
    const [unscoped, scoped] = ['p_long >= 0.7', '6h.p_long >= 0.7'].map(parseAlert);
    const got = readingsOf([unscoped!, scoped!], [{ symbol: 'BTC/USD', fetched: fetched(body) }], ['60min']);
    expect(got.map((r) => [r.ruleIndex, r.tf])).toEqual([
      [0, '1h'],
      [1, '6h'],
    ]);
  });

  it('an answer off the documented shape, or a field that is no number, is no reading', () => {
    expect(
      readingsOf(rules, [{ symbol: 'BTC/USD', fetched: { ...fetched(body), wellFormed: false } as Forecast }]),
    ).toEqual([]);
    const odd = { price: { last: '101' }, predictions: { '1h': { ia3: { p_long: 'high' } } } };
    expect(readingsOf(rules, [{ symbol: 'BTC/USD', fetched: fetched(odd) }])).toEqual([]);
  });
});

/** The readings of one threshold rule for one key, in a refresh: true, false, or none (an outage). */
function reading(rule: AlertRule, holds: boolean, symbol = 'BTC/USD'): Reading {
  return { key: `0\u0000${symbol}\u00001h`, rule, ruleIndex: 0, symbol, tf: '1h', value: holds ? 0.8 : 0.5, holds };
}

describe('AlertMachine: once per crossing', () => {
  const rule = parseAlert('1h.p_long >= 0.7');

  it('fires at the first refresh when already true, then only after a false', () => {
    const m = new AlertMachine();
    expect(m.step([reading(rule, true)]).map((f) => f.already)).toEqual([true]);
    expect(m.step([reading(rule, true)])).toEqual([]);
    expect(m.step([])).toEqual([]); // an outage: no reading, no change
    expect(m.step([reading(rule, true)])).toEqual([]);
    expect(m.step([reading(rule, false)])).toEqual([]);
    expect(m.step([reading(rule, true)]).map((f) => f.already)).toEqual([false]);
  });

  it('a condition false at first fires, not already, when it becomes true; each symbol on its own', () => {
    const m = new AlertMachine();
    expect(m.step([reading(rule, false), reading(rule, true, 'ETH/USD')]).map((f) => [f.symbol, f.already])).toEqual([
      ['ETH/USD', true],
    ]);
    expect(m.step([reading(rule, true), reading(rule, true, 'ETH/USD')]).map((f) => [f.symbol, f.already])).toEqual([
      ['BTC/USD', false],
    ]);
  });

  it('direction changes fires at each change, never at the first sight', () => {
    const change = parseAlert('1h.direction changes');
    const r = (value: string): Reading => ({
      key: 'k',
      rule: change,
      ruleIndex: 0,
      symbol: 'BTC/USD',
      tf: '1h',
      value,
      holds: false,
    });
    const m = new AlertMachine();
    expect(m.step([r('long')])).toEqual([]);
    expect(m.step([r('long')])).toEqual([]);
    expect(m.step([r('short')]).map((f) => f.previous)).toEqual(['long']);
    expect(m.step([])).toEqual([]);
    expect(m.step([r('long')]).map((f) => f.previous)).toEqual(['short']);
  });

  it('property: never fires twice for a key without a false read in between; fires at each rise', () => {
    // Each refresh: per key, true, false, or no reading (an outage, a timeframe gone).
    const refreshes = fc.array(
      fc.array(fc.constantFrom<boolean | undefined>(true, false, undefined), { minLength: 3, maxLength: 3 }),
      {
        maxLength: 60,
      },
    );
    fc.assert(
      fc.property(refreshes, (steps) => {
        const m = new AlertMachine();
        const symbols = ['A/USD', 'B/USD', 'C/USD'];
        const lastRead: Array<boolean | undefined> = [undefined, undefined, undefined];
        const firedSinceFalse = [false, false, false];
        for (const step of steps) {
          const readings = step.flatMap((holds, i) => (holds === undefined ? [] : [reading(rule, holds, symbols[i])]));
          const fired = new Set(m.step(readings).map((f) => f.symbol));
          step.forEach((holds, i) => {
            const did = fired.has(symbols[i]!);
            if (holds === undefined) expect(did).toBe(false);
            else if (!holds) {
              expect(did).toBe(false);
              firedSinceFalse[i] = false;
            } else {
              // Fires exactly when the last reading was not true: a rise (or the first sight).
              expect(did).toBe(lastRead[i] !== true);
              if (did) {
                expect(firedSinceFalse[i]).toBe(false);
                firedSinceFalse[i] = true;
              }
            }
            if (holds !== undefined) lastRead[i] = holds;
          });
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('an alert told', () => {
  it('words it, and gives a command its data in variables, the server text cleaned', () => {
    const rule = parseAlert('p_long >= 0.7');
    const told = tell(
      {
        key: 'k',
        rule,
        ruleIndex: 0,
        symbol: 'BTC/USD',
        tf: '1h\x1b[31m$(touch x)`id`',
        value: 0.71,
        holds: true,
        already: false,
      },
      Date.UTC(2026, 10, 22, 12, 0, 0),
    );
    expect(told.text).toBe('BTC/USD 1h$(touch x)`id` p_long 0.71 >= 0.7');
    expect(alertVariables(told)).toMatchObject({
      FCAST_ALERT_SYMBOL: 'BTC/USD',
      FCAST_ALERT_TF: '1h$(touch x)`id`',
      FCAST_ALERT_FIELD: 'p_long',
      FCAST_ALERT_VALUE: '0.71',
      FCAST_ALERT_THRESHOLD: '0.7',
      FCAST_ALERT_TIME: '2026-11-22T12:00:00Z',
    });
    expect(JSON.parse(alertJson(told))).toEqual({
      alert: {
        symbol: 'BTC/USD',
        tf: '1h$(touch x)`id`',
        field: 'p_long',
        op: '>=',
        value: 0.71,
        threshold: 0.7,
        already: false,
        rule: 'p_long >= 0.7',
        text: told.text,
        t: '2026-11-22T12:00:00Z',
      },
    });
  });
});
