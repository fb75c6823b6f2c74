// A server's title, detail or message longer than SERVER_TEXT_LIMIT is cut in the error line,
// with a note of how much more there was; --verbose shows all of it (through the redactor).
import { describe, expect, it } from 'vitest';
import { boundServerText } from '../../src/core/errors.js';
import { expectExit, runCli } from '../helpers/cli.js';
import { FIXED_NOW } from '../helpers/emulator.js';
import { useTamperedServer } from '../helpers/tampered.js';

const tampered = useTamperedServer();

const run = (url: string, argv: string[]) =>
  runCli(argv, {
    now: FIXED_NOW,
    env: { FCAST_BASE_URL: url, FCAST_API_KEY: `mfa_ag_${'0123456789abcdef0123'.repeat(2)}` },
  });

describe('bounded messages', () => {
  it('boundServerText: as it is up to the limit; past it, the limit and how much more', () => {
    expect(boundServerText('x'.repeat(1000))).toBe('x'.repeat(1000));
    expect(boundServerText('x'.repeat(15_000_000))).toBe(
      `${'x'.repeat(1000)}… (14,999,000 more characters; --verbose shows all)`,
    );
    // Never half of a surrogate pair.
    expect(boundServerText(`${'x'.repeat(999)}😀😀`)).toBe(
      `${'x'.repeat(999)}… (4 more characters; --verbose shows all)`,
    );
  });

  it('a 1.5 MB problem detail: one line of about 1,000 characters; --verbose shows it whole', async () => {
    const detail = `start ${'y'.repeat(1_500_000)} end`;
    const url = await tampered.serve(() => ({ status: 404, body: { title: 'Not Found', detail } }));
    const r = await run(url, ['predict', 'BTC/USD']);
    expectExit(r, 4);
    expect(r.stdout).toBe('');
    const [line, ...rest] = r.stderr.split('\n');
    expect(line).toBe(
      `fcast: BTC/USD: HTTP 404 Not Found: start ${'y'.repeat(994)}… (1,499,010 more characters; --verbose shows all)`,
    );
    expect(rest.join('\n')).toMatch(/^ {2}hint: .*\n$/);
    const verbose = await run(url, ['predict', 'BTC/USD', '--verbose']);
    expectExit(verbose, 4);
    expect(verbose.stderr).toContain(`\nfcast: BTC/USD: HTTP 404 Not Found: ${detail}\n`);
  });

  it('a gateway message and code past the limit are cut the same way, and the key in them masked', async () => {
    const key = `mfa_ag_${'0123456789abcdef0123'.repeat(2)}`;
    const message = `${key} ${'m'.repeat(5000)}`;
    const url = await tampered.serve(() => ({
      status: 400,
      body: { ok: false, error: { code: 'c'.repeat(1200), message }, meta: { request_id: 'req_1' } },
    }));
    const r = await run(url, ['cmd', 'macro']);
    expectExit(r, 2);
    const line = r.stderr.split('\n')[0]!;
    expect(line).toBe(
      // Masked before it is cut: the note counts what is left of the message once masked.
      `fcast: HTTP 400 ${'c'.repeat(1000)}… (200 more characters; --verbose shows all): mfa_ag_0123...0123 ${'m'.repeat(1000 - 'mfa_ag_0123...0123'.length - 1)}… (4,019 more characters; --verbose shows all) (request id req_1)`,
    );
    const verbose = await run(url, ['cmd', 'macro', '--verbose']);
    expect(verbose.stderr).toContain(
      `fcast: HTTP 400 ${'c'.repeat(1200)}: mfa_ag_0123...0123 ${'m'.repeat(5000)} (request id req_1)\n`,
    );
    expect(verbose.stderr).not.toContain(key);
  });

  it('masks a key spelled across the cut: the message is redacted whole, then cut', async () => {
    const key = `mfa_ag_${'0123456789abcdef0123'.repeat(2)}`;
    for (const prefix of ['', 'a', 'ab']) {
      // The base64 of the key after `prefix`, from 19 characters before the cut.
      const b64 = Buffer.from(`${prefix}${key}`).toString('base64');
      const detail = `${'d'.repeat(980)} ${b64}${' and more'.repeat(30)}`;
      const url = await tampered.serve(() => ({ status: 404, body: { title: 'Not Found', detail } }));
      const r = await run(url, ['predict', 'BTC/USD']);
      expectExit(r, 4);
      const line = r.stderr.split('\n')[0]!;
      expect(line).toMatch(/… \(\d+ more characters; --verbose shows all\)$/);
      const stable = b64.slice(Math.ceil((prefix.length * 8) / 6) + 1, -2);
      for (let i = 0; i + 12 <= stable.length; i++) expect(line, prefix).not.toContain(stable.slice(i, i + 12));
    }
  });
});
