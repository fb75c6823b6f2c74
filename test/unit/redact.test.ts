import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/output/redact.js';

const KEY = `mfa_ag_${'0123456789abcdef'.repeat(2)}01234567`;

describe('Redactor', () => {
  it('masks a key-shaped text it has never seen, keeping the prefix and 4 characters at each end', () => {
    expect(new Redactor().redact(`bad symbol '${KEY}'`)).toBe("bad symbol 'mfa_ag_0123...4567'");
  });

  it('masks known keys of any shape, whole, JSON-escaped or in pieces, and keeps JSON valid', () => {
    const gw = 'gw"Secret\\Token-Zq8xY3vP';
    const r = new Redactor(() => [gw, KEY, 'short']);
    const body = JSON.stringify({ detail: `got ${gw}; part ${gw.slice(3)}; hex ${KEY.slice(9, 30)}`, k: KEY });
    const out = r.redact(body);
    expect(() => JSON.parse(out)).not.toThrow();
    expect(out).not.toContain('Token-Zq8xY3');
    expect(out).not.toContain(KEY.slice(9, 21));
    // Short values are not hunted for: they would mask ordinary words.
    expect(r.redact('a short note')).toBe('a short note');
  });

  it('reveals one key during one write only, then knows it', () => {
    const r = new Redactor();
    let shown = '';
    r.reveal(KEY, () => {
      shown = r.redact(`your key: ${KEY}`);
    });
    expect(shown).toBe(`your key: ${KEY}`);
    expect(r.redact(`again ${KEY.slice(7)}`)).not.toContain(KEY.slice(7, 19));
  });
});

describe('Redactor and data that only looks like a piece of a key', () => {
  it('leaves numbers and repetitive runs alone, so a JSON body stays valid', () => {
    const r = new Redactor(() => [`mfa_ag_${'0'.repeat(40)}`, `mfa_ag_${'1234567890'.repeat(4)}`]);
    const body = '{"t":100000000000000000000,"n":12345678901234567890}';
    expect(r.redact(body)).toBe(body);
  });
});
