// The pager of `fcast mcp` (src/mcp/results.ts) and its text cleaner (src/mcp/text.ts): every
// page within the budget, pages that join back to the whole, never half of a surrogate pair,
// and server text without controls, bidi or invisible characters.
import { describe, expect, it } from 'vitest';
import { RpcError } from '../../src/mcp/protocol.js';
import { errorResult, Pager } from '../../src/mcp/results.js';
import { cleanValue, serverText } from '../../src/mcp/text.js';
import { ApiError, ExitCode } from '../../src/core/errors.js';

const meta = { source: 'Example Source', tier: 'free', data_delay_min: 60, disclaimer: 'Not advice.' };

function follow(pager: Pager, first: ReturnType<Pager['first']>, budget: number) {
  const pages = [first];
  for (let p = first; p.structuredContent.nextCursor !== undefined; ) {
    p = pager.next(p.structuredContent.nextCursor);
    pages.push(p);
  }
  for (const p of pages) expect(p.content[0]!.text.length).toBeLessThanOrEqual(budget);
  return pages;
}

describe('the pager', () => {
  it('gives a small result whole, with the attribution as the last text line', () => {
    const r = new Pager(24_000).first({ result: { a: 1 }, meta });
    expect(r.structuredContent).toMatchObject({
      result: { a: 1 },
      truncated: false,
      attribution: { source: 'Example Source' },
    });
    expect(r.content[0]!.text.split('\n').at(-1)).toBe('Source: Example Source · Tier: free · data delayed 60 min');
  });

  it('pages a list by items, the pages holding every item once, in order', () => {
    const items = Array.from({ length: 300 }, (_, i) => ({ symbol: `S${i}/USD`, timeframes: { '1h': i } }));
    const pager = new Pager(2_500);
    const pages = follow(
      pager,
      pager.first({ result: { count: 300, symbols: items }, list: ['symbols'], meta }),
      2_500,
    );
    expect(pages.length).toBeGreaterThan(5);
    expect(pages.flatMap((p) => p.structuredContent.result!.symbols as unknown[])).toEqual(items);
    for (const p of pages) expect(p.structuredContent.truncated).toBe(true);
  });

  it('pages anything else by windows of its JSON text, never splitting a surrogate pair', () => {
    const text = '😀'.repeat(5_000);
    const pager = new Pager(2_000);
    const whole = { result: { text }, notice: expect.any(String), truncated: false };
    const pages = follow(pager, pager.first({ result: { text } }), 2_000);
    const joined = pages.map((p) => p.structuredContent.part!.text).join('');
    expect(JSON.parse(joined)).toEqual(whole);
    for (const p of pages) expect(p.structuredContent.part!.text).not.toMatch(/^[\udc00-\udfff]|[\ud800-\udbff]$/);
  });

  it('an item alone over the budget goes by text windows', () => {
    const pager = new Pager(2_000);
    const pages = follow(pager, pager.first({ result: { rows: [{ big: 'x'.repeat(9_000) }] }, list: ['rows'] }), 2_000);
    expect(pages.length).toBeGreaterThan(4);
    expect(pages[0]!.structuredContent.part).toBeDefined();
  });

  it('refuses a cursor it never gave', () => {
    expect(() => new Pager(2_000).next('bm9wZQ')).toThrow(RpcError);
  });
});

describe('server text', () => {
  it('loses escape sequences, C0/C1 and bidi controls and invisible characters', () => {
    expect(serverText('a\u001b[31mb\u202ec\u200bd\ufeffe\u2066f\u{e0041}g\u0007')).toBe('abcdefg');
    expect(cleanValue({ 'k\u200b': ['v\u202e'] })).toEqual({ k: ['v'] });
  });

  it('an error result says the status, the message and what to do', () => {
    const err = new ApiError(
      { status: 429, title: 'Too Many Requests', detail: 'slow down', retryAfter: 30 },
      { exitCode: ExitCode.RateLimited },
    );
    const r = errorResult(err);
    expect(r.isError).toBe(true);
    expect(r.structuredContent.error).toMatchObject({ kind: 'rate_limited', status: 429, retry_after_s: 30 });
    expect(r.structuredContent.error!.what_to_do).toMatch(/wait/);
  });
});
