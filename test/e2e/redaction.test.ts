// One redactor for every line: keys typed in the wrong place, keys in settings that are not
// keys, and keys the server echoes back never reach stdout or stderr, in any mode. The proof
// is strict: no 12 consecutive characters of any key's secret part appear in any output.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectExit, type RunResult, tempDir } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { fetchBody, rewriteStrings, serveForwarding, useTamperedServer } from '../helpers/tampered.js';

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

describe("keys in text the runner unescapes or a step output's name reshapes (GitHub Actions)", () => {
  const tampered = useTamperedServer();
  // `/` and `+` URL-encode to `%2F` and `%2B`: the runner's escape of `%` (%25) hid that spelling.
  const GW = 'gw/Tok+en/ABCDEF+ghij/KLMN';

  it('track-record with a failed gate: the annotation, the step outputs and the summary hold no spelling of it', async () => {
    const body = await fetchBody<{ results: Array<{ timeframe: string }> }>(
      emu.server.url,
      'api/agent/v1/track-record.php',
    );
    body.results[0]!.timeframe = `1h ${encodeURIComponent(GW)}`;
    body.results[1]!.timeframe = `2h ${GW}`;
    const url = await tampered.serve(() => ({ body }));
    const dir = tempDir();
    const files = { GITHUB_OUTPUT: join(dir, 'output'), GITHUB_STEP_SUMMARY: join(dir, 'summary') };
    const r = await emu.run(['track-record', '--min-win-rate', '0.99'], {
      env: { FCAST_BASE_URL: url, FCAST_GATEWAY_KEY: GW, GITHUB_ACTIONS: 'true', ...files },
    });
    expectExit(r, 8);
    const annotations = r.stderr.split('\n').filter((line) => line.startsWith('::error'));
    expect(annotations.length).toBeGreaterThan(0);
    // What the runner shows: the command's escapes decoded.
    const shown = annotations
      .join('\n')
      .replaceAll('%0D', '\r')
      .replaceAll('%0A', '\n')
      .replaceAll('%3A', ':')
      .replaceAll('%2C', ',')
      .replaceAll('%25', '%');
    const written = [
      shown,
      r.stdout,
      readFileSync(files.GITHUB_OUTPUT, 'utf8'),
      readFileSync(files.GITHUB_STEP_SUMMARY, 'utf8'),
    ];
    for (const text of written) {
      expect(text).not.toContain(encodeURIComponent(GW));
      expect(text).not.toContain(GW);
    }
    // A name keeps letters and digits in order: none of 12 in a row of the key's.
    const names = readFileSync(files.GITHUB_OUTPUT, 'utf8')
      .split('\n')
      .map((line) => line.split(/=|<</)[0]!);
    const letters = GW.replace(/[^A-Za-z0-9]/g, '');
    for (let i = 0; i + 12 <= letters.length; i++)
      expect(names.join(' ').replace(/[^A-Za-z0-9]/g, '')).not.toContain(letters.slice(i, i + 12));
  });

  it('a key sent \\u-escaped: masked in --json and --save, which keep its value', async () => {
    const body = await fetchBody<{ protocol: { id: string } }>(emu.server.url, 'api/agent/v1/track-record.php');
    body.protocol.id = ENV_KEY;
    const escaped = [...ENV_KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    const url = await tampered.serve(() => ({ body, raw: JSON.stringify(body).replace(ENV_KEY, escaped) }));
    const saved = join(tempDir(), 'track-record.json');
    const r = await emu.run(['track-record', '--json', '--save', saved], {
      env: { FCAST_BASE_URL: url, FCAST_API_KEY: ENV_KEY },
    });
    expectExit(r, 0);
    for (const text of [r.stdout, readFileSync(saved, 'utf8')]) {
      expect(JSON.parse(text).protocol.id).toBe('mfa_ag_0a1b...beef');
      expect(text).not.toContain(escaped);
    }
  });

  it('a key sent \\u-escaped: masked in the lines of --watch --json too', async () => {
    const body = await fetchBody<Record<string, unknown>>(emu.server.url, 'api/agent/v1/demo.php?symbol=BTC%2FUSD');
    body.note = ENV_KEY;
    const escaped = [...ENV_KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    const url = await tampered.serve(() => ({ body, raw: JSON.stringify(body).replace(ENV_KEY, escaped) }));
    const r = await emu.run(['demo', '--watch', '--json', '--count', '1'], {
      env: { FCAST_BASE_URL: url, FCAST_API_KEY: ENV_KEY },
    });
    expectExit(r, 0);
    expect(JSON.parse(r.stdout.trim()).note).toBe('mfa_ag_0a1b...beef');
    expect(r.stdout).not.toContain(escaped);
  });
});

describe('keys in a table cell cut to the terminal', () => {
  const tampered = useTamperedServer();

  it('are masked before the cell is measured and cut: no part of a spelling at the cut, no column padded to a key', async () => {
    const body = await fetchBody<{ predictions: Record<string, { status: string; tf: string }> }>(
      emu.server.url,
      'api/agent/v1/demo.php',
    );
    // A timeframe named after the key.
    const [first] = Object.keys(body.predictions);
    body.predictions[`tf0-${ENV_KEY}`] = { ...body.predictions[first!]!, tf: `tf0-${ENV_KEY}` };
    const url = await tampered.serve(() => ({ body }));
    for (const columns of [60, 80, 160]) {
      const r = await emu.run(['demo', '--no-color'], {
        tty: true,
        columns,
        env: { FCAST_BASE_URL: url, FCAST_API_KEY: ENV_KEY },
      });
      expectExit(r, 0);
      expectNoSecret(r, `demo at ${columns}`);
      // The timeframe's column as wide as its masked text, not as the key.
      const header = r.stdout.split('\n').find((l) => l.startsWith('TF'))!;
      expect(header).toMatch(/^TF {2,}Dir/);
      expect(header.indexOf('Dir')).toBeLessThanOrEqual('tf0-mfa_ag_0a1b...beef'.length + 4);
    }
  });

  it("a cell cut to its column's width (a gateway name) shows no part of a spelling at the cut", async () => {
    // The key's base64 after two other bytes: cut, it is no spelling the boundary knows.
    const b64 = Buffer.from(`ab${emu.server.testKey}`).toString('base64');
    const hostile = await serveForwarding(emu.server.url, (body) =>
      rewriteStrings(body, (text, key) => (key === 'name' ? `x${b64}` : text)),
    );
    try {
      for (const columns of [60, 80]) {
        const r = await emu.runWithKey(['cmd', 'search', 'BTC', '--no-color'], {
          tty: true,
          columns,
          env: { FCAST_BASE_URL: hostile.url },
        });
        expectExit(r, 0);
        expect(r.stdout).toContain('…');
        const stable = b64.slice(3, -2);
        for (let i = 0; i + 12 <= stable.length; i++)
          expect(r.stdout, `${columns}`).not.toContain(stable.slice(i, i + 12));
      }
    } finally {
      await hostile.close();
    }
  });
});
