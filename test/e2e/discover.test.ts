import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';

const emu = useEmulator();

describe('fcast discover', () => {
  it('renders the document readably, with the attribution last', async () => {
    const r = await emu.run(['discover']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^version\s+1\.1\.0$/m);
    expect(r.stdout).toMatch(/^\s+GET\s+\/api\/agent\/v1\/demo\.php\s+none$/m); // routes as a table
    expect(r.stdout).not.toMatch(/"ok"|\[object Object\]/);
    expect(r.stdout.trimEnd().split('\n').slice(-2).join('\n')).toMatch(
      /^Source: Market Forecast Agent \(forecast-agent\.example\)\nTier: demo/,
    );
    expect(emu.server.requests.map((q) => q.path)).toEqual(['/api/agent/v1/']);
  });

  it('--json prints the document as served', async () => {
    const raw = await (await fetch(`${emu.server.url}/api/agent/v1/`)).text();
    const r = await emu.run(['discover', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(raw));
  });

  it('works with a trailing slash on the base URL', async () => {
    const r = await emu.run(['discover', '--json'], { env: { FCAST_BASE_URL: `${emu.server.url}/` } });
    expect(r.code).toBe(0);
    expect(emu.server.requests.map((q) => q.path)).toEqual(['/api/agent/v1/']);
  });

  it('exits 7 on a body that is not JSON, 6 on a reset, 7 on a body over the cap', async () => {
    emu.server.setFaults([{ kind: 'html' }]);
    const html = await emu.run(['discover']);
    expect(html.code).toBe(7);
    expect(html.stderr).toMatch(/not JSON/);
    expect(html.stdout).toBe('');

    emu.server.setFaults([{ kind: 'reset' }]);
    const reset = await emu.run(['discover', '--retries', '0']);
    expect(reset.code).toBe(6);

    emu.server.setFaults([{ kind: 'huge' }]);
    const huge = await emu.run(['discover']);
    expect(huge.code).toBe(7);
    expect(huge.stderr).toMatch(/16 MiB/);
  });

  it('retries a 503 and a reset, announcing the waits on stderr', async () => {
    emu.server.setFaults([
      { kind: '503', times: 1, retryAfter: 2 },
      { kind: 'reset', times: 1 },
    ]);
    const r = await emu.run(['discover', '--json']);
    expect(r.code).toBe(0);
    expect(r.sleeps[0]).toBe(2000);
    expect(r.sleeps).toHaveLength(2);
    expect(r.stderr).toMatch(/HTTP 503 .*retrying in 2s \(retry 1 of 2\)/);
    expect(() => JSON.parse(r.stdout)).not.toThrow();
  });

  it('exits 5 after the retries on 429 and 6 on 503, and 5 at once past --max-wait', async () => {
    emu.server.setFaults([{ kind: '429', retryAfter: 1 }]);
    const limited = await emu.run(['discover']);
    expect(limited.code).toBe(5);
    expect(emu.server.requests).toHaveLength(3);

    emu.server.requests.splice(0);
    emu.server.setFaults([{ kind: '429', retryAfter: 90 }]);
    const tooLong = await emu.run(['discover', '--max-wait', '10']);
    expect(tooLong.code).toBe(5);
    expect(tooLong.stderr).toMatch(/90s/);
    expect(emu.server.requests).toHaveLength(1);

    emu.server.setFaults([{ kind: '503', retryAfter: 1 }]);
    expect((await emu.run(['discover', '--retries', '1'])).code).toBe(6);
  });

  it('prints a JSON error body on stdout under --json, and the error on stderr', async () => {
    emu.server.setFaults([{ kind: '503', retryAfter: 1 }]);
    const r = await emu.run(['discover', '--json', '--retries', '0']);
    expect(r.code).toBe(6);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 503 });
    expect(r.stderr.split('\n')[0]).toMatch(/^fcast: HTTP 503 /);
  });

  it('--strict exits 7 on an off-shape body that otherwise only warns', async () => {
    // Discovery fixes no fields, so use demo with a body missing its predictions.
    const { createServer } = await import('node:http');
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          ok: true,
          symbol: 'BTC/USD',
          meta: { source: 's', license: 'l', disclaimer: 'd', tier: 'demo', data_delay_min: 60 },
        }),
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const loose = await emu.run(['demo', '--json'], { env: { FCAST_BASE_URL: url } });
      expect(loose.code).toBe(0);
      expect(loose.stderr).toMatch(
        /warning: demo\.php: the response does not match the documented shape \(predictions/,
      );
      expect(JSON.parse(loose.stdout)).toMatchObject({ symbol: 'BTC/USD' });
      const strict = await emu.run(['demo', '--json', '--strict'], { env: { FCAST_BASE_URL: url } });
      expect(strict.code).toBe(7);
      expect(strict.stdout).toBe('');
    } finally {
      server.close();
    }
  });
});
