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

/** 40 hex digits with no block of 6 repeated: each piece of it is found in one place only. */
const SECRET = '7c2f9a41d83be6050f1c4a97b2d8e36f5a0c1b94';
const OTHER = 'e1d0c9b8a7f6e5d4c3b2a1f0e9d8c7b6a5f4e3d2';

describe('Redactor and key-shaped text', () => {
  it('masks two keys written back to back, also when the second prefix is hex that the first key ran into', () => {
    expect(new Redactor().redact(`mfa_ag_${SECRET}mfa_ag_${OTHER}`)).toBe('mfa_ag_7c2f...1b94mfa_ag_e1d0...e3d2');
    expect(new Redactor().redact(`fa_ag_${SECRET}fa_ag_${OTHER}.`)).toBe('fa_ag_7c2f...94fa_ag_e1d0...e3d2.');
  });
});

describe('Redactor and data that only looks like a piece of a key', () => {
  it('leaves numbers and repetitive runs alone, so a JSON body stays valid', () => {
    const r = new Redactor(() => [`mfa_ag_${'0'.repeat(40)}`, `mfa_ag_${'1234567890'.repeat(4)}`]);
    const body = '{"t":100000000000000000000,"n":12345678901234567890}';
    expect(r.redact(body)).toBe(body);
  });
});

describe('Redactor and colour', () => {
  const green = (s: string) => `\x1b[32m${s}\x1b[39m`;

  it("reveals a coloured key whole: the escape's final letter is not read as part of the key", () => {
    const r = new Redactor();
    let shown = '';
    r.reveal(KEY, () => {
      shown = r.redact(`  ${green(KEY)}\n`);
    });
    expect(shown).toBe(`  ${green(KEY)}\n`);
  });

  it('masks a coloured key-shaped text as the key alone, leaving the escape sequences intact', () => {
    expect(new Redactor().redact(green(KEY))).toBe(green('mfa_ag_0123...4567'));
    expect(new Redactor().redact(`\x1b[2m${KEY}\x1b[22m`)).toBe('\x1b[2mmfa_ag_0123...4567\x1b[22m');
    // A line being cleared (the spinner) before a key.
    expect(new Redactor().redact(`\r\x1b[2K${KEY}`)).toBe('\r\x1b[2Kmfa_ag_0123...4567');
  });

  it('reads the text as a person does: a key that colour splits in two is masked whole, the colour dropped', () => {
    const other = `mfa_ag_${'9876543210'.repeat(4)}`;
    const split = `key \x1b[32m${other.slice(0, 20)}\x1b[39m\x1b[1m${other.slice(20)}\x1b[22m.\n`;
    const out = new Redactor().redact(split);
    expect(out).toBe('key mfa_ag_9876...3210.\n');
    // Known keys too, split anywhere.
    const known = new Redactor(() => [KEY]).redact(`\x1b[2m${KEY.slice(0, 9)}\x1b[22m${KEY.slice(9)}`);
    expect(known).not.toContain(KEY.slice(9, 21));
    // The revealed key stays whole and coloured, and so does everything else.
    const r = new Redactor();
    let shown = '';
    r.reveal(KEY, () => {
      shown = r.redact(`\x1b[1mYour new API key:\x1b[22m\n\n  ${green(KEY)}\n`);
    });
    expect(shown).toBe(`\x1b[1mYour new API key:\x1b[22m\n\n  ${green(KEY)}\n`);
    // A cursor move separates two places on the screen: what is on either side is not one text,
    // and the move itself is never dropped.
    const board = `\x1b[1;1Hid mfa_ag_0123\x1b[K\x1b[2;1H${green('456789abcdef0123')} ok\x1b[K`;
    expect(new Redactor().redact(board)).toBe(board);
  });

  it('reads an escape sequence fcast never writes (an OSC hyperlink, a title) as text: a key inside one is masked', () => {
    const link = (url: string, text: string) => `\x1b]8;;${url}\x07${text}\x1b]8;;\x07`;
    const out = new Redactor().redact(link(`https://example.com/?k=mfa_ag_${SECRET}`, 'docs'));
    expect(out).toBe(link('https://example.com/?k=mfa_ag_7c2f...1b94', 'docs'));
    const known = new Redactor(() => [`mfa_ag_${SECRET}`]);
    expect(known.redact(`\x1b]0;fcast ${SECRET.slice(2, 20)}\x07ok`)).toBe('\x1b]0;fcast <redacted>\x07ok');
  });

  it('masks known keys and their pieces in every plain run between escape sequences', () => {
    const r = new Redactor(() => [KEY]);
    const out = r.redact(`${green(KEY)} ${green(KEY.slice(7, 30))}\x1b]8;;https://x\x07${KEY}\x1b]8;;\x07`);
    expect(out).not.toContain(KEY.slice(7, 19));
    expect(out).toContain('\x1b[32m');
    expect(out).toContain('\x1b]8;;https://x\x07');
  });
});
