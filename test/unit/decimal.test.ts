// parseDecimal: the one reader of a typed decimal (flags, variables, config values), each caller
// saying a refusal in its own words; and no other module reading one by hand.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseDecimal } from '../../src/core/values.js';

describe('parseDecimal', () => {
  it.each([
    ['5', 5],
    [' 0.55 ', 0.55],
    ['.5', 0.5],
    ['5.', 5],
    ['0', 0],
    ['1', 1],
  ])('reads %j as %d', (raw, n) => {
    expect(parseDecimal(raw, { min: 0, max: 10 })).toBe(n);
  });

  it.each(['', ' ', '-1', '+1', '1e1', '0x10', '0b1', 'Infinity', 'NaN', '1.2.3', '1,5', '11', '9'.repeat(400)])(
    'refuses %j',
    (raw) => {
      expect(parseDecimal(raw, { min: 0, max: 10 })).toBeUndefined();
    },
  );

  it('takes both ends, or excludes the low one when asked', () => {
    expect(parseDecimal('2', { min: 2, max: 3 })).toBe(2);
    expect(parseDecimal('3', { min: 2, max: 3 })).toBe(3);
    expect(parseDecimal('2', { min: 2, max: 3, minExcluded: true })).toBeUndefined();
    expect(parseDecimal('2.001', { min: 2, max: 3, minExcluded: true })).toBe(2.001);
    expect(parseDecimal('3.001', { min: 2, max: 3 })).toBeUndefined();
  });

  it('is the only reader: no module but core/values.ts tests DECIMAL_NUMBER itself', () => {
    const src = fileURLToPath(new URL('../../src/', import.meta.url));
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const readers = files.filter((f) => readFileSync(join(src, f), 'utf8').includes('DECIMAL_NUMBER'));
    expect(readers).toEqual([join('core', 'values.ts')]);
  });
});
