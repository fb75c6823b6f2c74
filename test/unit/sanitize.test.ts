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
