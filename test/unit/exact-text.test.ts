// The journal export's exact CSV cells and their reading back (core/exact-text.ts): the
// \uXXXX escapes read are only those the export writes, so a CSV written by hand, or by an
// fcast before these escapes, keeps a literal \uXXXX as text.
import { describe, expect, it } from 'vitest';
import { exactCsvCell, readCsvCell } from '../../src/core/exact-text.js';

describe('exact CSV cells', () => {
  it('write an invisible character and a \\u in the text as escapes, and read them back', () => {
    expect(exactCsvCell('a\u001b[31mb')).toBe('a\\u001b[31mb');
    expect(exactCsvCell('a\u202eb')).toBe('a\\u202eb');
    expect(exactCsvCell('ab\\u0041')).toBe('ab\\u005cu0041');
    for (const text of ['a\u001b[31mb', 'a\u202eb', 'ab\\u0041', '\\u005c', 'x\ud800y'])
      expect(readCsvCell(exactCsvCell(text), false)).toBe(text);
  });

  it('leave a \\uXXXX the export never writes as it is: a letter, a digit, an emoji half-pair', () => {
    expect(readCsvCell('ab\\u0041', false)).toBe('ab\\u0041');
    expect(readCsvCell('S\\u00e9/USD', false)).toBe('S\\u00e9/USD');
    expect(readCsvCell('\\u0031', false)).toBe('\\u0031');
    // What it writes it reads: ESC, a bidi override, the backslash.
    expect(readCsvCell('\\u001b\\u202e\\u005c', false)).toBe('\u001b\u202e\\');
  });
});
