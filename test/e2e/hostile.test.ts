// A server must not be able to drive the terminal: escape sequences and other controls in
// its text are removed from tables and error lines; --json keeps them escaped, as JSON does.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';

const emu = useEmulator();
const EVIL = '\u001b[2J\u001b]0;pwned\u0007\u001b[31mred\u009b\u202e';
let server: Server;
let url = '';
let demoBody = '';

beforeAll(async () => {
  const body = (await (await fetch(`${emu.server.url}/api/agent/v1/demo.php`)).json()) as Record<string, any>;
  body.meta.source = `Evil Corp ${EVIL}`;
  body.price.source = EVIL;
  const [first] = Object.keys(body.predictions);
  body.predictions[first!].status = EVIL;
  demoBody = JSON.stringify(body);
  server = createServer((req, res) => {
    if (req.url?.startsWith('/api/agent/v1/demo.php')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(demoBody);
    }
    res.writeHead(404, { 'content-type': 'application/problem+json' });
    res.end(
      JSON.stringify({ type: 'about:blank', title: `Not Found${EVIL}`, status: 404, detail: `nothing here ${EVIL}` }),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('text from the server', () => {
  it('is printed in tables without terminal controls, and the attribution keeps its text', async () => {
    const r = await emu.run(['demo', '--no-color'], { env: { FCAST_BASE_URL: url } });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(r.stdout).toMatch(/^Source: Evil Corp red$/m);
  });

  it('stays escaped under --json, byte for byte as sent', async () => {
    const r = await emu.run(['demo', '--json'], { env: { FCAST_BASE_URL: url } });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('\u001b');
    expect(r.stdout).toContain('\\u001b[2J');
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(demoBody));
  });

  it('is cleaned in error lines too', async () => {
    const r = await emu.run(['discover'], { env: { FCAST_BASE_URL: url } });
    expect(r.code).toBe(4);
    expect(r.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(r.stderr).toMatch(/^fcast: HTTP 404 Not Foundred: nothing here red$/m);
  });
});
