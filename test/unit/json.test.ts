import { describe, expect, it } from 'vitest';
import { jsonArrayOf, reindentJson } from '../../src/output/json.js';

describe('reindentJson', () => {
  it('matches JSON.stringify indentation for ordinary bodies', () => {
    const value = { ok: true, a: [1, 2, { b: null }], s: 'x', e: {}, l: [] };
    expect(reindentJson(JSON.stringify(value))).toBe(JSON.stringify(value, null, 2));
  });

  it('keeps the order of integer-like keys and the spelling of numbers', () => {
    const raw = '{"b":1.10,"2":"two","1":1e3,"nested":{"z":-0.0}}';
    const out = reindentJson(raw);
    expect(out).toBe('{\n  "b": 1.10,\n  "2": "two",\n  "1": 1e3,\n  "nested": {\n    "z": -0.0\n  }\n}');
    expect(JSON.stringify(JSON.parse(raw), null, 2)).not.toBe(out); // what we avoid
  });

  it('copies strings verbatim, escapes and brackets inside them included', () => {
    const raw = '{"s":"a \\"quoted\\" {not: an object} [,] \\u001b[31m"}';
    expect(JSON.parse(reindentJson(raw))).toEqual(JSON.parse(raw));
    expect(reindentJson(raw)).toContain('\\u001b[31m');
  });

  it('refuses text that is not JSON', () => {
    expect(() => reindentJson('<html>')).toThrow();
  });

  it('wraps several bodies in one array, in order', () => {
    const out = jsonArrayOf(['{"a":1}', '{"b":2}']);
    expect(JSON.parse(out)).toEqual([{ a: 1 }, { b: 2 }]);
    expect(out).toBe('[\n  {\n    "a": 1\n  },\n  {\n    "b": 2\n  }\n]');
  });
});
