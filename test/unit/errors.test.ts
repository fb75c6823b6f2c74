// amend(): the one way to add a prefix, suffix or hint to an error, keeping its class, exit
// code, details and cause; systemReason(): a failed file operation's code said plainly.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { amend, ApiError, ExitCode, NetworkError, systemReason } from '../../src/core/errors.js';

describe('amend', () => {
  it('keeps the class, exit code and details, and the original as the cause', () => {
    const original = new ApiError(
      { status: 404, title: 'Not Found', raw: '{}' },
      { exitCode: ExitCode.NotFound, hint: 'old' },
    );
    const told = amend(original, { prefix: 'BTC/USD', hint: 'new' });
    expect(told).toBeInstanceOf(ApiError);
    expect(told.exitCode).toBe(ExitCode.NotFound);
    expect(told.details.raw).toBe('{}');
    expect(told.message).toBe('BTC/USD: HTTP 404 Not Found');
    expect(told.hint).toBe('new');
    expect(told.cause).toBe(original);
    expect(original.message).toBe('HTTP 404 Not Found');
    expect(original.hint).toBe('old');
  });

  it('keeps the hint when none is given, and adds a suffix', () => {
    const original = new NetworkError('connection reset', { hint: 'h', mayHaveArrived: true });
    const told = amend(original, { suffix: '; not retried' });
    expect(told).toBeInstanceOf(NetworkError);
    expect(told.mayHaveArrived).toBe(true);
    expect(told.message).toBe('connection reset; not retried');
    expect(told.hint).toBe('h');
  });
});

describe('systemReason', () => {
  it('says a listed code plainly, and nothing for any other, a name of Object.prototype included', () => {
    expect(systemReason('EACCES')).toBe('permission denied');
    expect(systemReason(undefined)).toBeUndefined();
    for (const code of ['EBUSY', 'toString', 'constructor', '__proto__', 'hasOwnProperty'])
      expect(systemReason(code), code).toBeUndefined();
  });

  it("says each code as bin/fcast.js's table of write failures says it (that file cannot import this one)", () => {
    const bin = readFileSync(fileURLToPath(new URL('../../bin/fcast.js', import.meta.url)), 'utf8');
    const table = /^const WRITE_FAILURES = \{\n([^}]*)\n\};$/m.exec(bin)?.[1];
    expect(table).toBeDefined();
    const entries = [...(table ?? '').matchAll(/^ {2}([A-Z]+): '([^'\\]*)',$/gm)].map((m) => [m[1], m[2]]);
    expect(entries).toHaveLength((table ?? '').split('\n').length);
    const shared = entries.filter(([code]) => systemReason(code) !== undefined);
    expect(shared.map(([code]) => code)).toEqual(['ENOSPC', 'EDQUOT', 'EROFS']);
    for (const [code, words] of shared) expect(words, code).toBe(systemReason(code));
  });
});
