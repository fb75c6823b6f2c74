import { describe, expect, it } from 'vitest';
import { clean, cleanBlock } from '../../src/output/sanitize.js';

describe('terminal control removal', () => {
  it('drops colour, cursor and title sequences whole', () => {
    expect(clean('\x1b[31mred\x1b[0m \x1b[2J\x1b[Hhome \x1b]0;title\x07done')).toBe('red home done');
  });

  it('drops lone controls and bidi overrides, keeps ordinary text', () => {
    expect(clean('a\x07b\x00c\u202Ed é ü 中')).toBe('abcd é ü 中');
  });

  it('turns newlines into spaces in a cell, keeps them in a block', () => {
    expect(clean('one\ntwo\tthree')).toBe('one two three');
    expect(cleanBlock('one\ntwo\x1b[1m')).toBe('one\ntwo');
  });
});

describe('the one sanitiser, on what a hostile server sends', () => {
  const hostile = [
    '\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\',
    '\x1b]8;;https://evil.example\x07click\x1b]8;;\x07',
    '\x1bP1$qm\x1b\\dcs',
    '\x9b31mc1-csi',
    '\x9d0;title\x9cc1-osc',
    'left\u202Eright\u2066iso\u2069\u200F\u061C',
    'a\rb',
    '\x1b(0line drawing',
  ];
  const forbidden = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

  it.each(hostile)('leaves no control or bidi character in %j', (text) => {
    expect(clean(text)).not.toMatch(forbidden);
    expect(clean(text)).not.toMatch(/[\n\t]/);
    expect(cleanBlock(text)).not.toMatch(forbidden);
  });

  it('keeps the visible text of a hyperlink and drops its target', () => {
    expect(clean('\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\')).toBe('click');
  });

  it('drops the 8-bit forms whole, payload and parameters included, as it does the 7-bit ones', () => {
    expect(clean('a\x9b31mb')).toBe('ab');
    expect(clean('a\x9b?25lb')).toBe('ab');
    expect(clean('a\x9b2 qb')).toBe('ab');
    expect(clean('a\x9d0;title\x9cb')).toBe('ab');
    expect(clean('a\x9d0;title\x07b')).toBe('ab');
    expect(clean('a\x90q#1\x1b\\b')).toBe('ab');
    expect(clean('a\x9fapc payload')).toBe('a');
    expect(clean('a\x1b[1;31mb\x1b]0;t\x9cc\x1b(0d')).toBe('abcd');
  });

  it('drops an escape sequence the server never ends, to the end of the text or the next escape, as a terminal would swallow it', () => {
    expect(clean('a\x1b]0;title')).toBe('a');
    expect(clean('a\x1bP1$qm')).toBe('a');
    expect(clean('a\x1b]0;title\x1b[31mb')).toBe('ab');
  });

  it('drops the short escapes whole, with no intermediate or several: reset, save and restore, character sets', () => {
    expect(clean('a\x1bcb\x1b7c\x1b8d')).toBe('abcd');
    expect(clean('a\x1b$)Ab\x1b(0c')).toBe('abc');
  });

  it('folds a run of line breaks and tabs in a cell into one space', () => {
    expect(clean('one\r\n\ttwo\u2028\u2029three')).toBe('one two three');
  });

  it('turns a carriage return into a line break in blocks, so it cannot overwrite a line', () => {
    expect(cleanBlock('safe\rEVIL')).toBe('safe\nEVIL');
    expect(cleanBlock('a\r\nb')).toBe('a\nb');
  });
});
