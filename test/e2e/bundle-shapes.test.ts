// The executable checks shapes with the predicates the build wrote into the bundle
// (src/api/accept-table.ts) and words every refusal with zod: a body of the documented shape
// passes without a word, an off-shape one warns (exit 7 under --strict), and a process that
// forbids code generation from strings is no different. The in-process tests run the sources,
// where the predicates are compiled on first use; these run bin/fcast.js over the bundle.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMAS } from '../../src/schema/bodies.js';
import { spawnFcast } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';

/** What bin/fcast.js runs: the split bundle, its entry and chunks. */
const SPLIT = fileURLToPath(new URL('../../dist/split', import.meta.url));
const emu = useEmulator();
let server: Server;
let url = '';
let good = '';
let offShape = '';

beforeAll(async () => {
  good = await (await fetch(`${emu.server.url}/api/agent/v1/demo.php`)).text();
  const body = JSON.parse(good);
  body.meta.data_delay_min = 'sixty';
  offShape = JSON.stringify(body);
  server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(req.url?.includes('symbol=ETH') ? offShape : good);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const fcast = (args: string[], env: Record<string, string> = {}) =>
  spawnFcast(args, { FCAST_BASE_URL: url, NO_COLOR: '1', ...env });

const WARNING =
  /^warning: demo\.php: the response does not match the documented shape \(meta\.data_delay_min: Expected number, received string\)$/m;

describe('shape checks in the bundle', () => {
  it('the bundle holds a precompiled predicate for every schema', () => {
    const files = readdirSync(SPLIT).filter((name) => name.endsWith('.cjs'));
    // The build minifies the split bundle: `PRECOMPILED={Name:` as well as `PRECOMPILED = { "Name": `.
    const opening = /PRECOMPILED\s*=\s*\{/;
    const bundle = files.map((name) => readFileSync(join(SPLIT, name), 'utf8')).find((t) => opening.test(t));
    expect(bundle).toBeDefined();
    const table = bundle!.slice(bundle!.search(opening));
    for (const name of Object.keys(SCHEMAS)) expect(table).toMatch(new RegExp(`[{,]\\s*"?${name}"?\\s*:`));
  });

  for (const [label, env] of [
    ['', {}],
    [' (code generation from strings forbidden)', { NODE_OPTIONS: '--disallow-code-generation-from-strings' }],
  ] as const) {
    it(`a body of the documented shape passes without a word${label}`, async () => {
      const r = await fcast(['demo', '--json'], env);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual(JSON.parse(good));
    });

    it(`an off-shape body is zod's warning, still printed; exit 7 under --strict${label}`, async () => {
      const r = await fcast(['demo', 'ETH/USD', '--json'], env);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(WARNING);
      expect(JSON.parse(r.stdout)).toEqual(JSON.parse(offShape));
      const strict = await fcast(['demo', 'ETH/USD', '--json', '--strict'], env);
      expect(strict.code, strict.stderr).toBe(7);
      expect(strict.stdout).toBe('');
    });
  }
});
