import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FUZZ_PARAMS } from '../property/harness.js';
import { BadResponseError } from '../../src/core/errors.js';
import { jsonArrayOf, reindentJson, reindentTokens } from '../../src/output/json.js';
import { MAX_JSON_DEPTH, NestedTooDeeplyError, nestsDeeperThan } from '../../src/core/values.js';

describe('reindentJson', () => {
  it('matches JSON.stringify indentation for ordinary bodies', () => {
    const value = { ok: true, a: [1, 2, { b: null }], s: 'x', e: {}, l: [] };
    expect(reindentJson(JSON.stringify(value))).toBe(JSON.stringify(value, null, 2));
  });

  it('equals JSON.stringify(_, null, 2) for any JSON written compact or spaced (property)', () => {
    // Strings mostly of what a scanner for the closing quote can get wrong: quotes, runs of
    // backslashes, brackets and separators, control characters and lone surrogates.
    const unit = fc.oneof(fc.constantFrom('\\', '"', '{', ']', ',', ':', ' ', '\n', '\u0000', '\ud800'), fc.string());
    const json = fc.jsonValue({ maxDepth: 6, stringUnit: unit });
    fc.assert(
      // Compact text takes the native path; spaced text, the token scan: both must agree.
      fc.property(
        json,
        fc.constantFrom(undefined, 1, 4, '\t'),
        fc.integer({ min: 0, max: 3 }),
        (value, space, depth) => {
          const raw = JSON.stringify(value, null, space);
          const want = JSON.stringify(value, null, 2).replace(/\n/g, `\n${'  '.repeat(depth)}`);
          expect(reindentJson(raw, depth)).toBe(want);
          expect(reindentJson(` ${raw}\r\n`, depth)).toBe(want);
        },
      ),
      { ...FUZZ_PARAMS, numRuns: Math.max(FUZZ_PARAMS.numRuns, 2000) },
    );
  });

  it('takes the native path only where it equals the token scan, refusals included (property)', () => {
    const outcome = (reindent: () => string) => {
      try {
        return reindent();
      } catch (err) {
        return `throws ${(err as Error).message}`;
      }
    };
    // Nesting around the depth limit, with numbers that stringify writes longer than sent.
    const deep = (levels: number, inner: unknown) => {
      let v = inner;
      for (let i = 0; i < levels; i++) v = [v, 1e20];
      return v;
    };
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 3 }),
        fc.integer({ min: 0, max: 70 }),
        fc.integer({ min: 0, max: 2 }),
        fc.integer({ min: 10, max: 20_000 }),
        (inner, levels, depth, cap) => {
          const raw = JSON.stringify(deep(levels, inner));
          expect(outcome(() => reindentJson(raw, depth, cap))).toBe(outcome(() => reindentTokens(raw, depth, cap)));
        },
      ),
      FUZZ_PARAMS,
    );
  });

  it('copies a string that ends in backslashes, or is only escapes, whole', () => {
    for (const s of ['\\', 'a\\\\', '\\"', '"', '\\\\"x', '']) {
      const raw = JSON.stringify({ [s]: [s, { s }] });
      expect(reindentJson(raw)).toBe(JSON.stringify(JSON.parse(raw), null, 2));
    }
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

  it('writes an escaped printable ASCII character as itself, so that an escaped key is one the redactor knows', () => {
    const raw = String.raw`{"id":"\u006d\u0066a_ag_\u0030\/x","keep":"\u0022 \\ \u005c \u001b \u00e9 \u2028 \n \\u0041"}`;
    const out = reindentJson(raw);
    expect(out).toBe(String.raw`{
  "id": "mfa_ag_0/x",
  "keep": "\u0022 \\ \u005c \u001b \u00e9 \u2028 \n \\u0041"
}`);
    expect(JSON.parse(out)).toEqual(JSON.parse(raw));
  });

  it('keeps every value whatever the escapes chosen for each character (property)', () => {
    const escaped = (text: string, escapes: boolean[]) =>
      `"${[
        ...JSON.stringify(text)
          .slice(1, -1)
          .matchAll(/\\u[0-9a-f]{4}|\\.|[\s\S]/g),
      ]
        .map(([unit], i) =>
          escapes[i % escapes.length] && unit.length === 1
            ? `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`
            : unit,
        )
        .join('')}"`;
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.array(fc.boolean(), { minLength: 1 }), (text, escapes) => {
        const raw = `{ "v": ${escaped(text, escapes)} }`;
        expect(JSON.parse(reindentJson(raw)).v).toBe(text);
      }),
      FUZZ_PARAMS,
    );
  });

  it('writes the controls JSON.stringify leaves raw (C1, bidi, line separators) as \\u escapes, on either path', () => {
    const value = { s: 'a\u009b31mb\u202ec\u2028d\u2066e' };
    for (const raw of [JSON.stringify(value), ` ${JSON.stringify(value, null, 4)}`]) {
      const out = reindentJson(raw);
      expect(out).toBe('{\n  "s": "a\\u009b31mb\\u202ec\\u2028d\\u2066e"\n}');
      expect(JSON.parse(out)).toEqual(value);
    }
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

describe('bounds on what --json writes', () => {
  const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
  const nestedWithValue = (levels: number) => `${'['.repeat(levels)}1${']'.repeat(levels)}`;

  it('re-indents the deepest body it accepts, and refuses one level more', () => {
    const deepest = nestedWithValue(MAX_JSON_DEPTH);
    expect(JSON.parse(reindentJson(deepest))).toEqual(JSON.parse(deepest));
    expect(() => reindentJson(nestedWithValue(MAX_JSON_DEPTH + 1))).toThrow(NestedTooDeeplyError);
    // Spaced, the same body takes the token scan, which must draw the line at the same level.
    expect(reindentJson(` ${deepest}`)).toBe(reindentJson(deepest));
    expect(() => reindentJson(` ${nestedWithValue(MAX_JSON_DEPTH + 1)}`)).toThrow(NestedTooDeeplyError);
    // Empty arrays add no indentation, so they do not count as a level.
    expect(() => reindentJson(nested(MAX_JSON_DEPTH + 1))).not.toThrow();
    expect(() => reindentJson(` ${nested(MAX_JSON_DEPTH + 1)}`)).not.toThrow();
  });

  it('refuses 10,000 levels of nesting at once instead of writing 200 MB of indentation', () => {
    expect(() => reindentJson(nested(10_000))).toThrow(/nested too deeply/);
  });

  it('refuses to build output larger than its cap, whatever the depth', () => {
    const wide = `[${Array.from({ length: 1000 }, () => '1').join(',')}]`;
    expect(() => reindentJson(wide, 0, 2000)).toThrow(BadResponseError);
    expect(() => reindentJson(wide, 0, 2000)).toThrow(/more than/);
    expect(reindentJson(wide, 0, 10_000)).toContain('\n  1,\n');
  });

  it('keeps the cap across the bodies of an array', () => {
    const body = `[${Array.from({ length: 100 }, () => '1').join(',')}]`;
    expect(() => jsonArrayOf([body, body, body], 1000)).toThrow(BadResponseError);
  });

  it('measures the nesting of a parsed body: arrays and objects, empty ones too, at any depth', () => {
    const deeper = (raw: string, limit: number) => nestsDeeperThan(JSON.parse(raw), limit);
    expect(deeper('["[[[[", {"a": "{{{{"}]', 2)).toBe(false);
    expect(deeper('[[[1]]]', 2)).toBe(true);
    expect(deeper('[[[1]]]', 3)).toBe(false);
    expect(deeper('{"a":{"b":{}}}', 2)).toBe(true);
    expect(deeper('{"a":{"b":{}}}', 3)).toBe(false);
    expect(deeper('[1, "x", null, [[]]]', 2)).toBe(true);
    expect(deeper('"[[[["', 0)).toBe(false);
    // JSON.parse takes 100,000 levels without recursion; the walk stops at the limit.
    expect(deeper(nested(100_000), MAX_JSON_DEPTH)).toBe(true);
    expect(deeper(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
  });
});
