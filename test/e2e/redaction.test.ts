// One redactor for every line: keys typed in the wrong place, keys in settings that are not
// keys, and keys the server echoes back never reach stdout or stderr, in any mode. The proof
// is strict: no 12 consecutive characters of any key's secret part appear in any output.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';

const emu = useEmulator();

const TYPED = `mfa_ag_${'1f2e3d4c5b6a7980'.repeat(2)}a1b2c3d4`;
const ENV_KEY = `mfa_ag_${'0a1b2c3d4e5f6789'.repeat(2)}deadbeef`;
const GATEWAY_KEY = 'gw-Secret-Token-Zq8xY3vP';

/** Fails when any 12 characters in a row of a secret's private part appear in the output. */
function expectNoSecret(r: RunResult, label: string, secrets: string[] = [TYPED, ENV_KEY, GATEWAY_KEY]): void {
  const output = r.stdout + r.stderr;
  for (const secret of secrets) {
    const part = secret.includes('_ag_') ? secret.slice(secret.indexOf('_ag_') + 4) : secret;
    for (let i = 0; i + 12 <= part.length; i++) {
      expect(output.includes(part.slice(i, i + 12)), `${label}: ${part.slice(i, i + 12)} in\n${output}`).toBe(false);
    }
  }
}

describe('keys typed in the wrong place', () => {
  const cases: Array<[string, string[], Record<string, string>?]> = [
    ['demo KEY', ['demo', TYPED]],
    ['predict KEY', ['predict', TYPED]],
    ['verify KEY', ['verify', TYPED]],
    ['cmd KEY', ['cmd', TYPED]],
    ['config set base-url KEY', ['config', 'set', 'base-url', TYPED]],
    ['config set timeout KEY', ['config', 'set', 'timeout', TYPED]],
    ['register --email KEY', ['register', '--email', TYPED]],
    ['--base-url KEY', ['demo', '--base-url', TYPED]],
    ['--timeout KEY', ['demo', '--timeout', TYPED]],
    ['--api-key=KEY', ['demo', `--api-key=${TYPED}`]],
    ['FCAST_BASE_URL=KEY', ['demo'], { FCAST_BASE_URL: TYPED }],
    ['FCAST_BASE_URL with a key in the path', ['demo'], { FCAST_BASE_URL: `ftp://h/${TYPED}` }],
    ['FCAST_TIMEOUT=KEY', ['demo'], { FCAST_TIMEOUT: TYPED }],
    ['HTTPS_PROXY=KEY', ['predict', 'BTC/USD'], { HTTPS_PROXY: TYPED }],
    ['HTTPS_PROXY=http://KEY@proxy', ['doctor'], { HTTPS_PROXY: `http://${TYPED}@proxy.example:3128` }],
  ];
  for (const [label, argv, env] of cases) {
    it(`${label}: an error without the key, in every mode`, async () => {
      for (const mode of [[], ['--json'], ['--verbose'], ['--dry-run']]) {
        const r = await emu.runWithKey([...argv, ...mode], {
          env: { FCAST_API_KEY: ENV_KEY, FCAST_GATEWAY_KEY: GATEWAY_KEY, ...env },
        });
        expect(r.code, `${label} ${mode.join(' ')}: ${r.stderr}`).not.toBe(1);
        expectNoSecret(r, `${label} ${mode.join(' ')}`);
      }
    });
  }
});

describe('keys the server echoes', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const token = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
      if (req.url?.startsWith('/api/v1/agent/command')) {
        res.writeHead(401, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            ok: false,
            data: null,
            error: {
              code: 'unauthorized',
              message: `key ${token} is not valid (secret ${token.slice(7)})`,
              retry_after: 0,
            },
            meta: { request_id: 'r1' },
          }),
        );
        return;
      }
      res.writeHead(401, { 'content-type': 'application/problem+json' }).end(
        JSON.stringify({
          type: 'about:blank',
          title: 'Unauthorized',
          status: 401,
          detail: `the key ${token} was not recognised; its secret ${token.slice(7)} and \\"${token}\\"`,
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => server.close());

  for (const [label, argv] of [
    ['a 401 detail', ['symbols']],
    ['a gateway error.message', ['cmd', 'macro']],
  ] as const) {
    it(`${label}: masked on stderr, and inside the JSON body under --json (still valid JSON)`, async () => {
      for (const env of [{ FCAST_API_KEY: ENV_KEY }, { FCAST_API_KEY: ENV_KEY, FCAST_GATEWAY_KEY: GATEWAY_KEY }]) {
        const r = await emu.run([...argv], { env: { FCAST_BASE_URL: url, ...env } });
        expect(r.code).toBe(3);
        expect(r.stderr).toMatch(/HTTP 401/);
        expectNoSecret(r, label);
        const json = await emu.run([...argv, '--json', '--verbose'], { env: { FCAST_BASE_URL: url, ...env } });
        expect(json.code).toBe(3);
        expect(() => JSON.parse(json.stdout)).not.toThrow();
        expectNoSecret(json, `${label} --json`);
      }
    });
  }

  it('a stored key is known too, and so is a gateway key of any shape', async () => {
    const dir = (await emu.run(['auth', 'login', '--gateway'], { stdin: GATEWAY_KEY })).configDir;
    const r = await emu.run(['cmd', 'macro', '--json'], { configDir: dir, env: { FCAST_BASE_URL: url } });
    expect(r.code).toBe(3);
    expectNoSecret(r, 'stored gateway key');
  });
});

describe('the one exception', () => {
  it('register shows its new key once on stdout, and masks it everywhere after', async () => {
    const r = await emu.run(['register', '--email', `redact-${process.pid}@example.com`]);
    expect(r.code).toBe(0);
    const keys = r.stdout.match(/[A-Za-z0-9]+_ag_[0-9a-f]{40}/g) ?? [];
    expect(keys).toHaveLength(1);
    expect(r.stderr).not.toContain(keys[0]!.slice(7, 19));
  });
});
