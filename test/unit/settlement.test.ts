import { describe, expect, it } from 'vitest';
import { checkSettlement, outcomeFor } from '../../src/evidence/settlement.js';
import { describeCheck } from '../../src/output/verify-view.js';
import { Output } from '../../src/output/io.js';

const plain = new Output(
  { stdout: { write: () => true }, stderr: { write: () => true }, stdin: process.stdin } as never,
  false,
  false,
);

describe('outcomeFor', () => {
  it('wins when the price moved the predicted way beyond the neutral band', () => {
    expect(outcomeFor('long', 0.36, 0.01)).toBe('win');
    expect(outcomeFor('short', 0.36, 0.01)).toBe('loss');
    expect(outcomeFor('short', -0.05, 0.01)).toBe('win');
    expect(outcomeFor('long', 0.005, 0.01)).toBe('neutral');
    expect(outcomeFor('long', 0)).toBe('neutral');
  });
});

describe('checkSettlement', () => {
  it('re-derives the outcome from direction, anchor and close, and compares it with the published one', () => {
    const body = {
      forecast: { direction: 'long', anchor_price: 97000 },
      settlement: { close_at_target: 97350, neutral_band_pct: 0.01, outcome: 'win' },
    };
    const check = checkSettlement(body);
    expect(check).toMatchObject({
      checked: true,
      direction: 'long',
      anchor: 97000,
      close: 97350,
      expected: 'win',
      published: 'win',
      agrees: true,
    });
    expect(describeCheck(plain, check)).toBe(
      'Check: long from 97,000.00 to 97,350.00 (+0.36%) -> win (neutral within ±0.01%); the published outcome agrees',
    );
  });

  it('says so when the published outcome contradicts the figures', () => {
    const check = checkSettlement({
      forecast: { direction: 'short', anchor_price: 100 },
      settlement: { close_at_target: 101, outcome: 'win' },
    });
    expect(check).toMatchObject({ checked: true, expected: 'loss', published: 'win', agrees: false });
    expect(describeCheck(plain, check)).toMatch(/-> loss; the published outcome is win: it does NOT agree$/);
  });

  it("reads ia3's direction and the close in the market closes at the target time", () => {
    const check = checkSettlement({
      forecast: { ia3: { direction: 'short' }, anchor_price: 2000, target_t: 1_700_000_600 },
      market: {
        closes: [
          { t: 1_700_000_000, close: 2000 },
          { t: 1_700_000_600, close: 1990 },
        ],
      },
      settlement: { outcome: 'win' },
    });
    expect(check).toMatchObject({
      checked: true,
      direction: 'short',
      anchor: 2000,
      close: 1990,
      expected: 'win',
      published: 'win',
      agrees: true,
    });
  });

  it('guesses no other names or words: Spanish directions, synonyms of a close or an outcome', () => {
    const check = checkSettlement({
      prediction: { direction: 'long', anchor_price: 100 },
      forecast: { direction: 'sube', entry_price: 100 },
      settlement: { settle_price: 101, outcome: 'won' },
    });
    expect(check).toEqual({
      checked: false,
      missing: ['a direction', 'an anchor price', 'the close at the target time'],
    });
    const uncalled = checkSettlement({
      forecast: { direction: 'long', anchor_price: 100 },
      settlement: { close_at_target: 101, outcome: 'hit' },
    });
    expect(uncalled).toMatchObject({ checked: true, expected: 'win', published: undefined, agrees: undefined });
  });

  it('does not guess: a missing figure means no check, and names what is missing', () => {
    const check = checkSettlement({ forecast: { direction: 'long' }, settlement: { outcome: 'win' } });
    expect(check).toEqual({ checked: false, missing: ['an anchor price', 'the close at the target time'] });
    expect(describeCheck(plain, check)).toBe(
      'Check: not possible: the body does not show an anchor price, the close at the target time',
    );
  });

  it('cannot judge a published neutral without a neutral band', () => {
    const check = checkSettlement({
      forecast: { direction: 'long', anchor_price: 100 },
      settlement: { close_at_target: 100.001, outcome: 'neutral' },
    });
    expect(check).toMatchObject({ checked: true, expected: 'win', published: 'neutral', agrees: undefined });
  });
});
