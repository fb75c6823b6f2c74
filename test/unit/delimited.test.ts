import { describe, expect, it } from 'vitest';
import { renderDelimited } from '../../src/output/formats/delimited.js';

describe('renderDelimited', () => {
  it('CSV: RFC 4180 quoting, LF line ends, numbers as JavaScript writes them, null empty', () => {
    const text = renderDelimited(
      'csv',
      ['symbol', 'note', 'p', 'x'],
      [
        ['BTC/USD', 'a, "quoted"\nline', -0.19, null],
        ['ETH/USD', 'plain', 1e-7, true],
        ['SOL/USD', undefined, false, undefined],
      ],
    );
    expect(text).toBe(
      'symbol,note,p,x\nBTC/USD,"a, ""quoted""\nline",-0.19,\nETH/USD,plain,1e-7,true\nSOL/USD,,false,\n',
    );
  });

  it('CSV: a text cell a spreadsheet would run is prefixed with a quote; a number never', () => {
    const rows = [['=1+1'], ['+1'], ['-2'], ['@SUM(A1)'], ['\tx'], ['a=b'], [-3]];
    const text = renderDelimited('csv', ['v'], rows);
    expect(text.split('\n').slice(1, -1)).toEqual(["'=1+1", "'+1", "'-2", "'@SUM(A1)", "'\tx", 'a=b', '-3']);
    // A carriage return becomes a line break when cleaned (it could overwrite a line), then quoted;
    // the cell began with a CR as sent, so it is prefixed all the same.
    expect(renderDelimited('csv', ['v'], [['\r=x']])).toBe('v\n"\'\n=x"\n');
    expect(renderDelimited('csv', ['v'], [['\x1b[31m=1+1']])).toBe("v\n'=1+1\n");
  });

  it('a number as sent is written as sent and never prefixed; a NumberCell that holds no number is text', () => {
    const text = renderDelimited(
      'csv',
      ['a', 'b', 'c'],
      [[{ number: '-0.19' }, { number: '1.50' }, { number: '=1+1' }]],
    );
    expect(text).toBe("a,b,c\n-0.19,1.50,'=1+1\n");
    expect(renderDelimited('tsv', ['a'], [[{ number: '-1E+2' }]])).toBe('a\n-1E+2\n');
  });

  it('CSV: a negative number as sent, of any JSON form, is never prefixed; text that only starts like a number is quoted as text', () => {
    const cells = [
      { number: '-12.5' },
      { number: '-1e5' },
      { number: '-10E-3' },
      { number: '1,5' },
      { number: '-1,5' },
    ];
    expect(renderDelimited('csv', ['a', 'b', 'c', 'd', 'e'], [cells])).toBe(
      'a,b,c,d,e\n-12.5,-1e5,-10E-3,"1,5","\'-1,5"\n',
    );
  });

  it('CSV: the fullwidth = + - @ that Apple Numbers reads as formulas are prefixed too', () => {
    const text = renderDelimited('csv', ['v'], [['\uff1d1+1'], ['\uff0b1'], ['\uff0d1'], ['\uff20x']]);
    expect(text.split('\n').slice(1, -1)).toEqual(["'\uff1d1+1", "'\uff0b1", "'\uff0d1", "'\uff20x"]);
  });

  it('TSV: tab, newline, carriage return and backslash escaped, one line per row; no formula prefix', () => {
    const text = renderDelimited('tsv', ['a', 'b'], [['x\ty\nz\\', '=1']]);
    expect(text).toBe('a\tb\nx\\ty\\nz\\\\\t=1\n');
  });

  it('TSV: a carriage return is a line break, as everywhere fcast prints server text, so it is written \\n', () => {
    expect(renderDelimited('tsv', ['a'], [['one\rtwo\r\nthree']])).toBe('a\none\\ntwo\\nthree\n');
  });

  it('cleans terminal controls from text cells', () => {
    expect(renderDelimited('csv', ['v'], [['\x1b[31mred\x1b[0m\u202e']])).toBe('v\nred\n');
  });
});
