// `fcast mcp --http`: the same server over Streamable HTTP on loopback, reached by the SDK's
// HTTP clients of both eras; the guards against DNS rebinding (Host, Origin) and what a
// stateless endpoint refuses (GET, DELETE, batches, a wrong content type); Ctrl-C ends it.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'node:http';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { mcpEnv } from '../helpers/mcp.js';

const emu = useEmulator();
const running: ChildProcess[] = [];
afterEach(async () => {
  for (const child of running.splice(0)) {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'close');
    }
  }
});

async function startHttp(): Promise<{ url: string; child: ChildProcess; stderr: () => string }> {
  const child = spawn(process.execPath, [BIN, 'mcp', '--http'], {
    env: mcpEnv({ FCAST_BASE_URL: emu.server.url }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let stderr = '';
  child.stderr!.setEncoding('utf8');
  while (!/at (http:\S+)/.test(stderr)) stderr += (await once(child.stderr!, 'data'))[0];
  child.stderr!.on('data', (d) => (stderr += d));
  return { url: /at (http:\S+)/.exec(stderr)![1]!, child, stderr: () => stderr };
}

function raw(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: opts.method ?? 'POST', headers: opts.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
const json = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('fcast mcp --http', () => {
  it('serves the SDK clients of both eras, and stops on SIGTERM with exit 0', async () => {
    const { url, child } = await startHttp();
    const v1 = new ClientV1({ name: 'http-test', version: '1' });
    await v1.connect(new HttpV1(new URL(url)));
    expect((await v1.listTools()).tools).toHaveLength(10);
    const r = (await v1.callTool({ name: 'get_demo_forecasts', arguments: {} })) as { structuredContent: any };
    expect(r.structuredContent.result.forecast.symbol).toBe('BTC/USD');
    await v1.close();
    const v2 = new ClientV2(
      { name: 'http-test', version: '1' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await v2.connect(new HttpV2(new URL(url)));
    expect((await v2.listTools()).tools.map((t) => t.name)).toContain('service_info');
    await v2.close();
    child.kill('SIGTERM');
    const [code] = await once(child, 'close');
    expect(code).toBe(0);
  });

  it('refuses a foreign Origin or Host with 403, and what a stateless endpoint does not serve', async () => {
    const { url } = await startHttp();
    expect((await raw(url, { headers: json, body: ping })).status).toBe(200);
    expect((await raw(url, { headers: { ...json, origin: 'http://127.0.0.1:5173' }, body: ping })).status).toBe(200);
    expect((await raw(url, { headers: { ...json, origin: 'https://evil.example' }, body: ping })).status).toBe(403);
    expect((await raw(url, { headers: { ...json, origin: 'null' }, body: ping })).status).toBe(403);
    expect((await raw(url, { headers: { ...json, host: 'evil.example' }, body: ping })).status).toBe(403);
    expect((await raw(url, { method: 'GET', headers: json })).status).toBe(405);
    expect((await raw(url, { method: 'DELETE', headers: json })).status).toBe(405);
    expect((await raw(url, { headers: { 'content-type': 'text/plain' }, body: ping })).status).toBe(415);
    expect((await raw(url, { headers: json, body: `[${ping}]` })).status).toBe(400);
    expect((await raw(url.replace('/mcp', '/other'), { headers: json, body: ping })).status).toBe(404);
    const note = await raw(url, {
      headers: json,
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    expect(note.status).toBe(202);
    const unknown = await raw(url, {
      headers: json,
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'nope' } }),
    });
    expect(JSON.parse(unknown.body).error.code).toBe(-32602);
  });
});

// The conformance suite needs Node 22 (.ci/run also tests on Node 22 and 24, where it runs).
const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

describe('the MCP conformance suite', () => {
  it.skipIf(NODE_MAJOR < 22)('passes but for the failures its baseline explains', { timeout: 120_000 }, async () => {
    const { url } = await startHttp();
    const suite = fileURLToPath(
      new URL('../../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url),
    );
    const baseline = fileURLToPath(new URL('../fixtures/mcp/conformance-expected-failures.yml', import.meta.url));
    const child = spawn(process.execPath, [suite, 'server', '--url', url, '--expected-failures', baseline], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1' },
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (out += d));
    const [code] = await once(child, 'close');
    expect(code, out.slice(-3000)).toBe(0);
    expect(out).toMatch(/all failures are expected/);
    for (const passing of ['server-initialize', 'tools-list', 'dns-rebinding-protection'])
      expect(out).toMatch(new RegExp(`✓ ${passing}: \\d+ passed, 0 failed`));
  });
});
