import http from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { GatewayEnvelopeSchema, ProblemSchema } from '../../src/schema/bodies.js';
import { parseFault, startMock, type MockServer } from '../../src/mock/index.js';
import { call, command, fixedNow, REST } from './helpers.js';

let server: MockServer;
let api: string;
beforeAll(async () => {
  server = await startMock({ now: fixedNow, seed: 'fault-tests' });
  api = server.url + REST;
});
afterAll(() => server.close());
beforeEach(() => server.setFaults([]));

describe('parseFault', () => {
  it('reads the command-line syntax', () => {
    expect(parseFault('429')).toEqual({ kind: '429' });
    expect(parseFault('429,times=2,retry-after=3')).toEqual({ kind: '429', times: 2, retryAfter: 3 });
    expect(parseFault('503,retry_after=0')).toEqual({ kind: '503', retryAfter: 0 });
    expect(parseFault('slow,delay=1500')).toEqual({ kind: 'slow', delayMs: 1500 });
    expect(parseFault('reset,path=demo.php')).toEqual({ kind: 'reset', path: 'demo.php' });
    expect(parseFault(' huge , times=1 ')).toEqual({ kind: 'huge', times: 1 });
  });

  it('rejects bad specs with a message that says what is wrong', () => {
    expect(() => parseFault('')).toThrow(/kind must be one of 429, 503, slow, html, reset, truncate, huge/);
    expect(() => parseFault('500')).toThrow(/kind must be one of/);
    expect(() => parseFault('429,times=x')).toThrow(/times must be a non-negative integer/);
    expect(() => parseFault('429,times=-1')).toThrow(/non-negative integer/);
    expect(() => parseFault('429,foo=1')).toThrow(/unknown option "foo"/);
    expect(() => parseFault('slow,delay')).toThrow(/needs a value/);
    expect(() => parseFault('429,times=1,times=2')).toThrow(/given twice/);
  });
});

describe('faults', () => {
  it('429 on REST: problem with Retry-After, for `times` requests only', async () => {
    server.setFaults([{ kind: '429', times: 2, retryAfter: 3 }]);
    for (let i = 0; i < 2; i++) {
      const r = await call(`${api}demo.php`);
      expect(r.status).toBe(429);
      expect(r.headers.get('retry-after')).toBe('3');
      expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      ProblemSchema.parse(r.body);
      expect(r.body.status).toBe(429);
    }
    expect((await call(`${api}demo.php`)).status).toBe(200);
  });

  it('429 on the gateway: envelope with retry_after and no header', async () => {
    server.setFaults([{ kind: '429', retryAfter: 4 }]);
    const r = await command(server, { command: 'snapshot' });
    expect(r.status).toBe(429);
    GatewayEnvelopeSchema.parse(r.body);
    expect(r.body).toMatchObject({ ok: false, data: null, error: { code: 'rate_limited', retry_after: 4 } });
    expect(Object.keys(r.body.meta)).toEqual(['request_id']);
    expect(r.headers.get('retry-after')).toBeNull();
  });

  it('503 on REST and on the gateway', async () => {
    server.setFaults([{ kind: '503' }]);
    const rest = await call(`${api}track-record.php`);
    expect(rest.status).toBe(503);
    expect(rest.headers.get('retry-after')).toBe('1');
    ProblemSchema.parse(rest.body);
    const gw = await command(server, { command: 'macro' });
    expect(gw.status).toBe(503);
    expect(gw.body.error).toMatchObject({ code: 'unavailable', retry_after: 1 });
  });

  it('slow delays the normal answer', async () => {
    server.setFaults([parseFault('slow,delay=150,times=1')]);
    const started = Date.now();
    const r = await call(`${api}demo.php`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(r.status).toBe(200);
    expect(r.body.ok).toBe(true);
  });

  it('html answers 200 with a page that is not JSON', async () => {
    server.setFaults([{ kind: 'html' }]);
    const r = await call(`${api}demo.php`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/html/);
    expect(r.text.startsWith('<')).toBe(true);
    expect(r.body).toBeUndefined();
  });

  it('reset drops the connection', async () => {
    server.setFaults([{ kind: 'reset', times: 1 }]);
    await expect(fetch(`${api}demo.php`)).rejects.toThrow();
    expect((await call(`${api}demo.php`)).status).toBe(200);
  });

  it('truncate promises more than it sends', async () => {
    server.setFaults([{ kind: 'truncate' }]);
    await expect((async () => (await fetch(`${api}demo.php`)).text())()).rejects.toThrow();
  });

  it('huge streams a valid JSON body over 16 MiB', async () => {
    server.setFaults([{ kind: 'huge', times: 1 }]);
    const res = await fetch(`${api}demo.php`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('content-length')).toBeNull();
    const text = await res.text();
    expect(text.length).toBe(17 * 1024 * 1024);
    expect(JSON.parse(text).ok).toBe(true);
  });

  it('applies only to paths containing `path`, and still records the request', async () => {
    server.setFaults([parseFault('429,path=verify.php')]);
    expect((await call(`${api}verify.php?id=1`)).status).toBe(429);
    expect((await call(`${api}demo.php`)).status).toBe(200);
    expect(server.requests.at(-2)).toMatchObject({
      method: 'GET',
      path: '/api/agent/v1/verify.php',
      query: { id: '1' },
    });
  });

  it('can be given at start', async () => {
    const s = await startMock({ now: fixedNow, faults: [{ kind: '503', times: 1 }] });
    try {
      expect((await call(`${s.url}${REST}demo.php`)).status).toBe(503);
      expect((await call(`${s.url}${REST}demo.php`)).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});

describe('admin surface', () => {
  it('replaces faults, lists and clears requests, and is neither recorded nor faulted', async () => {
    const set = await call(`${server.url}/__mock/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(['reset', { kind: '429', times: 1 }]),
    });
    expect(set.status).toBe(200);
    expect(set.body.faults).toEqual([{ kind: 'reset' }, { kind: '429', times: 1 }]);
    // The reset fault applies to everything but the admin routes, so it can always be lifted.
    expect((await call(`${server.url}/__mock/faults`)).body.faults).toHaveLength(2);
    const bad = await call(`${server.url}/__mock/faults`, { method: 'POST', body: JSON.stringify([{ kind: 'boom' }]) });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/kind must be one of/);
    await call(`${server.url}/__mock/faults`, { method: 'POST', body: '[]' });

    await call(`${server.url}/__mock/requests`, { method: 'DELETE' });
    expect(server.requests).toHaveLength(0);
    await call(`${api}demo.php?symbol=ETH/USD`);
    await call(`${api}register.php`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"email":"x@y.zz"}',
    });
    const listed = await call(`${server.url}/__mock/requests`);
    expect(listed.body.requests).toEqual(server.requests);
    expect(listed.body.requests.map((r: any) => r.path)).toEqual([
      '/api/agent/v1/demo.php',
      '/api/agent/v1/register.php',
    ]);
    expect(listed.body.requests[0].query).toEqual({ symbol: 'ETH/USD' });
    expect(listed.body.requests[1].body).toEqual({ email: 'x@y.zz' });
    const cleared = await call(`${server.url}/__mock/requests`, { method: 'DELETE' });
    expect(cleared.body.cleared).toBe(2);
    expect(server.requests).toHaveLength(0);
  });
});

describe('close', () => {
  it('closes without waiting for a keep-alive socket or a slow request in flight', async () => {
    // Slower than the test's own timeout: if close() waited for it, the test would fail.
    const s = await startMock({ now: fixedNow, faults: [{ kind: 'slow', delayMs: 600_000, path: 'track-record' }] });
    const agent = new http.Agent({ keepAlive: true });
    await new Promise<void>((resolve, reject) => {
      http
        .get(`${s.url}${REST}demo.php`, { agent }, (res) => {
          res.resume();
          res.on('end', resolve);
        })
        .on('error', reject);
    });
    const pending = fetch(`${s.url}${REST}track-record.php`).catch(() => 'failed');
    // In flight means arrived: the emulator records a request before it applies a fault.
    await vi.waitFor(() => expect(s.requests.map((r) => r.path)).toContain(`${REST}track-record.php`));
    await s.close();
    expect(await pending).toBe('failed');
    agent.destroy();
  });
});
