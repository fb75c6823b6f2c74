// The hostile bodies of issue 12, by hand, on every command in table and --json mode: no
// exit 1, no stack trace, no ESC or U+202E on stdout, stdout bounded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { type BodyServer, FORBIDDEN, runCase, startBodyServer } from './harness.js';

const COMMANDS = [
  ['demo'],
  ['predict', 'BTC/USD'],
  ['symbols'],
  ['track-record'],
  ['accuracy', '--tf', '1h'],
  ['verify', '1'],
  ['discover'],
  ['register', '--email', 'a@example.com', '--no-save'],
  ['cmd', 'macro'],
];

// Raw text: JSON.stringify itself overflows the stack on bodies this deep.
const nested = (levels: number) => `${'['.repeat(levels)}1${']'.repeat(levels)}`;
const deepObject = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
const evilKeys = {
  '\x1b[31mred\x1b[0m': 1,
  '\x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\': 'x',
  'right\u202eleft': 2,
  nested: [{ '\x1b[2Jcol': 1, 'b\u202ec': 2 }],
};
const times = {
  price: { last: 1, t: 1e20 },
  ts: 1e20,
  server_t: 1e20,
  symbols: [{ symbol: 'X', timeframes: { '1h': 1e20 } }],
};

const BODIES: Array<[string, string]> = [
  ['null', 'null'],
  ['1e20 times', JSON.stringify({ ok: true, ...times, meta: { server_t: 1e20 } })],
  ['an infinite number', '{"ok":true,"price":{"last":1e400,"t":1e400},"meta":{"server_t":1e400}}'],
  [
    'an object where text is due',
    JSON.stringify({ ok: true, symbol: 'X', predictions: { '1h': { tf: { toString: 1 } } } }),
  ],
  ['5,000 levels of arrays', nested(5000)],
  ['10,000 levels of objects', deepObject(10_000)],
  [
    'escape and bidi controls in keys',
    JSON.stringify({ ok: true, ...evilKeys, data: [evilKeys], meta: { request_id: 'r' } }),
  ],
  [
    'a 20,000-character key',
    JSON.stringify({ ok: true, ['k'.repeat(20_000)]: 1, rows: [{ ['c'.repeat(20_000)]: 1 }] }),
  ],
];

let server: BodyServer;
const configDir = tempDir('fcast-hostile-');
beforeAll(async () => {
  server = await startBodyServer();
});
afterAll(() => server.close());

describe.each(BODIES)('a body of %s', (_name, raw) => {
  it.each(COMMANDS)('%s ... : no exit 1, no stack, no control on stdout, in table and --json mode', async (...argv) => {
    const status = argv[0] === 'register' ? 201 : 200;
    for (const json of [false, true]) {
      const r = await runCase(server, { argv, body: undefined, raw, status }, json, configDir);
      expect(r.code, r.stderr).not.toBe(1);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(r.stdout.length).toBeLessThan(20 * 1024 * 1024);
      if (!json) expect(r.stdout).not.toMatch(FORBIDDEN);
      if (json && r.stdout !== '') expect(JSON.parse(r.stdout)).toEqual(JSON.parse(raw));
    }
  });
});

describe('depth', () => {
  it('refuses a body nested deeper than 64 levels with exit 7, before printing anything', async () => {
    for (const json of [false, true]) {
      const r = await runCase(
        server,
        { argv: ['discover'], body: undefined, raw: nested(65), status: 200 },
        json,
        configDir,
      );
      expect(r.code).toBe(7);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/nested too deeply/);
    }
  });

  it('shows a body of exactly 64 levels', async () => {
    const raw = `{"a":${nested(63)}}`;
    const r = await runCase(server, { argv: ['discover'], body: undefined, raw, status: 200 }, true, configDir);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(raw));
  });
});
