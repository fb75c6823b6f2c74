// amend(): the one way to add a prefix, suffix or hint to an error, keeping its class, exit
// code, details and cause; systemReason(): a failed file operation's code said plainly.
import { describe, expect, it } from 'vitest';
import { amend, ApiError, ExitCode, NetworkError, systemReason } from '../../src/core/errors.js';
import { WRITE_FAILED, writeFailure } from '../../src/launch/stdio.js';

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

  it("words a failed write to stdout with the same table (the launcher's line, exit 3)", () => {
    const line = (code?: string) => writeFailure(code === undefined ? new Error('x') : { code });
    for (const code of ['ENOSPC', 'EDQUOT', 'EFBIG', 'EBADF', 'EIO', 'EROFS'])
      expect(line(code), code).toBe(`fcast: cannot write the output to stdout: ${systemReason(code)}\n`);
    expect(systemReason('EBADF')).toBe('it is closed');
    expect(line('EBUSY')).toBe('fcast: cannot write the output to stdout: EBUSY\n');
    expect(line()).toBe('fcast: cannot write the output to stdout: unknown error\n');
    expect(WRITE_FAILED).toBe(ExitCode.Config);
  });
});
