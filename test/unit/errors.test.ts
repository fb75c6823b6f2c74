import { describe, expect, it } from 'vitest';
import { describeErrorBody } from '../../src/api/response-errors.js';
import { ApiError, ExitCode, exitCodeForStatus } from '../../src/errors.js';

describe('error mapping', () => {
  it('maps statuses to the contract exit codes', () => {
    expect(exitCodeForStatus(400)).toBe(ExitCode.Usage);
    expect(exitCodeForStatus(401)).toBe(ExitCode.Config);
    expect(exitCodeForStatus(403)).toBe(ExitCode.Config);
    expect(exitCodeForStatus(404)).toBe(ExitCode.NotFound);
    expect(exitCodeForStatus(409)).toBe(ExitCode.Conflict);
    expect(exitCodeForStatus(429)).toBe(ExitCode.RateLimited);
    expect(exitCodeForStatus(500)).toBe(ExitCode.Unavailable);
    expect(exitCodeForStatus(503)).toBe(ExitCode.Unavailable);
  });

  it('reads problem details', () => {
    const d = describeErrorBody(404, { type: 'x', title: 'Not found', status: 404, detail: 'unknown symbol XRP/USD' });
    expect(new ApiError(d).message).toBe('HTTP 404 Not found: unknown symbol XRP/USD');
  });

  it("reads the gateway's failure envelope with its request id and retry_after", () => {
    const d = describeErrorBody(429, {
      ok: false,
      data: null,
      error: { code: 'rate_limited', message: 'slow down', retry_after: 3 },
      meta: { request_id: 'req-1' },
    });
    expect(d.retryAfter).toBe(3);
    expect(new ApiError(d).message).toBe('HTTP 429 rate_limited: slow down (request id req-1)');
  });

  it('falls back to the status text when the body is not JSON, and cleans server text', () => {
    expect(new ApiError(describeErrorBody(503, undefined)).message).toBe('HTTP 503 Service Unavailable');
    expect(describeErrorBody(400, { title: '\x1b[31mBad\x1b[0m', detail: 'x' }).title).toBe('Bad');
  });
});
