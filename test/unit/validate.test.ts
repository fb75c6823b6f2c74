// The shape verdict is one line a person can read, whatever keys and values the server chose.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ApiResponse } from '../../src/api/client.js';
import { checkShape, requireJson, visibleStart } from '../../src/api/validate.js';
import type { FcastError } from '../../src/core/errors.js';

function warningFor(body: unknown): string {
  const warnings: string[] = [];
  const log = { note: () => {}, warn: (m: string) => warnings.push(m), debug: () => {} };
  const schema = z.object({ timeframes: z.record(z.number()), label: z.enum(['long', 'short']) });
  expect(checkShape(schema, body, 'x.php', { log, strict: false })).toBe(false);
  expect(warnings).toHaveLength(1);
  return warnings[0]!;
}

describe('checkShape', () => {
  it('shows a key holding a tab or newline JSON-quoted, so the warning stays one plain line', () => {
    const warning = warningFor({ timeframes: { '\t': 'x', 'a\nb': 1 }, label: 'long' });
    expect(warning).toContain('timeframes."\\t": Expected number, received string');
    expect(warning).not.toMatch(/[\t\n\r]/);
  });

  it('keeps a received value with line breaks on one line', () => {
    expect(warningFor({ timeframes: {}, label: 'up\n\tdown' })).not.toMatch(/[\t\n\r]/);
  });
});

describe('a body that is not JSON', () => {
  const refusal = (raw: string): FcastError => {
    const res: ApiResponse = { status: 200, url: 'http://x/', headers: {}, raw, body: undefined };
    try {
      requireJson(res, 'demo.php');
    } catch (err) {
      return err as FcastError;
    }
    throw new Error('accepted');
  };

  it('shows its first characters with the invisible ones written out', () => {
    expect(visibleStart('\ufeff{"ok":true}')).toBe('\\ufeff{"ok":true}');
    expect(visibleStart('\u001b[2J\u0000\u200b\u202e{}\r\n\t')).toBe('\\u001b[2J\\u0000\\u200b\\u202e{}\\r\\n\\t');
    expect(visibleStart('x'.repeat(70))).toBe(`${'x'.repeat(60)}…`);
    expect(visibleStart('caf\u00e9 <b>')).toBe('caf\u00e9 <b>');
  });

  it('a BOM left before the JSON (the client drops one) is shown as \\ufeff, and the hint says what is wrong', () => {
    const err = refusal('\ufeff{"ok":true}');
    expect(err.exitCode).toBe(7);
    expect(err.message).toBe(`demo.php: the response is not JSON (it starts '\\ufeff{"ok":true}')`);
    expect(err.hint).toBe('invisible characters (shown escaped) come before the JSON: the service needs fixing');
  });

  it('a PHP warning before the JSON: the service needs fixing, not the base URL', () => {
    const err = refusal(
      '<br />\n<b>Warning</b>:  Undefined variable $x in <b>/srv/a.php</b><br />\n{"ok":true,"a":{"b":1}}',
    );
    expect(err.message).toMatch(/it starts '<br \/>\\n<b>Warning<\/b>/);
    expect(err.hint).toMatch(/the service needs fixing/);
    expect(err.hint).not.toMatch(/base URL/);
  });

  it('a PHP fatal error where the answer should be (display_errors on answers it 200): the service failed', () => {
    const err = refusal(
      '<br />\n<b>Fatal error</b>:  Uncaught Error: Call to undefined function f() in /srv/a.php:12\n',
    );
    expect(err.message).toMatch(/it starts '<br \/>\\n<b>Fatal error<\/b>:/);
    expect(err.hint).toMatch(/^the service failed \(an error of its own code, not an answer\): try again later/);
    expect(refusal('PHP Parse error:  syntax error in /srv/a.php on line 3').hint).toMatch(/^the service failed/);
  });

  it('a web page: not the API, check the base URL; nothing at all: empty', () => {
    expect(refusal('<!DOCTYPE html><html>hi</html>').hint).toMatch(/does not look like the Market Forecast Agent API/);
    expect(refusal('').message).toMatch(/\(it is empty\)$/);
  });
});
