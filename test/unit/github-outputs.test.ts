import { describe, expect, it } from 'vitest';
import { journalOutputs } from '../../src/cmdutil/journal-annotations.js';
import { outputLines, outputName } from '../../src/output/annotations.js';

describe('outputLines', () => {
  it('writes name=value, and a value with a line break between delimiters it does not hold', () => {
    const randoms = ['a', 'b'];
    const text = outputLines({ verdict: 'pass', failures: 'one\nghadelimiter_a\ntwo' }, () => randoms.shift()!);
    expect(text).toBe('verdict=pass\nfailures<<ghadelimiter_b\none\nghadelimiter_a\ntwo\nghadelimiter_b\n');
  });

  it('a carriage return is a line break, as in all fcast prints', () => {
    expect(outputLines({ x: 'a\rb' }, () => 'r')).toBe('x<<ghadelimiter_r\na\nb\nghadelimiter_r\n');
  });

  it('cleans a value as fcast cleans what it prints: no escape sequence, hyperlink, bell or bidi control', () => {
    const value = '1h\x1b[31m red\x1b]8;;http://x\x07link\x1b]8;;\x07\x07 \u202eevil\u0085';
    expect(outputLines({ timeframes: value })).toBe('timeframes=1h redlink evil\n');
  });

  it('names an output from any timeframe with letters, digits, _ and - only', () => {
    expect(outputName('1h')).toBe('1h');
    expect(outputName('1 h\n=x<<y')).toBe('1_h__x__y');
  });
});

describe('journalOutputs', () => {
  it('the verdict, the failing lines, and each timeframe settled count, hit rate and Brier score', () => {
    const outputs = journalOutputs(
      [{ timeframe: '1h', gate: '--min-settled', field: 'n_settled', figure: 3, threshold: 30, bound: 'at least' }],
      [
        { tf: '1h', n_settled: 3, hit_rate: 0.5, call: { brier: null } },
        { tf: '4h', n_settled: 40, hit_rate: null, call: { brier: 0.2 } },
      ],
    );
    expect(outputs).toEqual({
      verdict: 'fail',
      failures: 'gate failed: 1h: n_settled 3 is below --min-settled 30',
      timeframes: '1h 4h',
      settled: '43',
      settled_1h: '3',
      hit_rate_1h: '0.5',
      brier_1h: '',
      settled_4h: '40',
      hit_rate_4h: '',
      brier_4h: '0.2',
    });
  });
});
