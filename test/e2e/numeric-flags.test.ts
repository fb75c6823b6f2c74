// Numeric flags, variables and config values take decimal digits only: JavaScript's Number()
// reads 0x10 as 16, 1e2 as 100 and 0b1 as 1, none of which a person means. A flag is exit 2,
// a variable or config value exit 3 (settings come after the command line); nothing is sent.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';

// Nothing listens there: a run that got past its checks would say so, not what is asserted.
const env = { FCAST_BASE_URL: 'http://127.0.0.1:9', FCAST_API_KEY: `mfa_ag_${'0123456789abcdef0123'.repeat(2)}` };

describe('numeric flags take decimal digits only (exit 2)', () => {
  it.each([
    [
      ['demo', '--watch', '--interval', '0x10'],
      "--interval must be a number of seconds from 5 to 86400, got '0x10'",
      'demo',
    ],
    [
      ['demo', '--watch', '--interval', '1e2'],
      "--interval must be a number of seconds from 5 to 86400, got '1e2'",
      'demo',
    ],
    [['demo', '--watch', '--count', '0x2'], "--count must be a whole number >= 1, got '0x2'", 'demo'],
    [['demo', '--retries', '0x2'], "--retries must be a whole number from 0 to 10, got '0x2'", undefined],
    [['demo', '--retries', '2.0'], "--retries must be a whole number from 0 to 10, got '2.0'", undefined],
    [
      ['demo', '--timeout', '0x10'],
      "--timeout must be a number of seconds above 0, at most 86400, got '0x10'",
      undefined,
    ],
    [
      ['demo', '--timeout', 'Infinity'],
      "--timeout must be a number of seconds above 0, at most 86400, got 'Infinity'",
      undefined,
    ],
    [['demo', '--max-wait', '0b1'], "--max-wait must be a number of seconds from 0 to 86400, got '0b1'", undefined],
    [['demo', '--max-wait', '-0'], "--max-wait must be a number of seconds from 0 to 86400, got '-0'", undefined],
    [
      ['accuracy', '--tf', '1h', '--min-settled', '0x10'],
      "--min-settled must be a whole number, got '0x10'",
      'accuracy',
    ],
    [
      ['track-record', '--min-win-rate', '0x1'],
      "--min-win-rate must be a number from 0 to 1, got '0x1'",
      'track-record',
    ],
    [
      ['track-record', '--min-win-rate', '5e-1'],
      "--min-win-rate must be a number from 0 to 1, got '5e-1'",
      'track-record',
    ],
    [
      ['journal', 'report', '--bins', '0x4'],
      "--bins must be a whole number from 1 to 100, got '0x4'",
      'journal report',
    ],
    [
      ['journal', 'report', '--flat-band', '1e1'],
      "--flat-band must be a percentage from 0 to 100 (0.01 is the service's), got '1e1'",
      'journal report',
    ],
    [
      ['journal', 'report', '--max-brier', '+0.2'],
      "--max-brier must be a number from 0 to 1, got '+0.2'",
      'journal report',
    ],
    [['mock', '--port', '0x50'], "--port must be a whole number, got '0x50'", 'mock'],
    [['mock', '--speed', '0x2'], "--speed must be a number from 0 to 86400, got '0x2'", 'mock'],
    [['verify', '0x1'], "the forecast id must be a whole number >= 1, got '0x1'", 'verify'],
  ])('%j', async (argv, message, help) => {
    const r = await runCli(argv, { env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`fcast: ${message}\n  hint: see 'fcast ${help ? `${help} ` : ''}--help'\n`);
  });

  it.each([
    [['demo', '--retries', '2'], 'retries'],
    [['demo', '--timeout', '0.5'], 'timeout'],
    [['demo', '--timeout', '.5'], 'timeout'],
  ])('%j still reads as a number', async (argv) => {
    const r = await runCli([...argv, '--dry-run'], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});

describe('numeric settings from the environment or the config file (exit 3)', () => {
  it.each([
    ['FCAST_RETRIES', '0x2', "FCAST_RETRIES must be a whole number from 0 to 10, got '0x2'"],
    ['FCAST_TIMEOUT', '1e1', "FCAST_TIMEOUT must be a number of seconds above 0, at most 86400, got '1e1'"],
    ['FCAST_MAX_WAIT', '0x3c', "FCAST_MAX_WAIT must be a number of seconds from 0 to 86400, got '0x3c'"],
  ])('%s=%s', async (name, value, message) => {
    const r = await runCli(['demo'], { env: { ...env, [name]: value } });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`fcast: ${message}\n  hint: fix ${name} in your environment, or unset it\n`);
  });

  it('a config file value', async () => {
    const configDir = tempDir();
    writeFileSync(join(configDir, 'config.json'), JSON.stringify({ retries: '0x2' }), { mode: 0o600 });
    const r = await runCli(['demo'], { env: { FCAST_BASE_URL: env.FCAST_BASE_URL }, configDir });
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(
      `fcast: 'retries' in ${join(configDir, 'config.json')} must be a whole number from 0 to 10, got '0x2'\n` +
        "  hint: run 'fcast config set retries VALUE', or 'fcast config unset retries'\n",
    );
  });
});
