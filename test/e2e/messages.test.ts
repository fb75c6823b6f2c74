// Messages that lead somewhere: a usage error names the help of the command it is about, a
// near miss gets the likely value, each hint is a different next step, and an error caused by a
// setting says where that setting came from.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closedPort, runCli, tempDir } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { buildProgram } from '../../src/cli/program.js';

const sink = { write: () => true };

const emu = useEmulator();

describe('usage errors name the help of their command, and the likely value', () => {
  it.each([
    [
      ['register'],
      /^fcast: required option '--email <address>' not specified\n {2}hint: see 'fcast register --help'\n$/,
    ],
    [['auth', 'logn'], /^fcast: unknown command 'logn' \(did you mean login\?\)\n {2}hint: see 'fcast auth --help'\n$/],
    [['bogus'], /^fcast: unknown command 'bogus'\n {2}hint: see 'fcast --help'\n$/],
    [['demo', '--bogus'], /^fcast: unknown option '--bogus'\n {2}hint: see 'fcast demo --help'\n$/],
    [
      ['demo', 'btc'],
      /^fcast: the demo has no symbol 'btc' \(did you mean BTC\/USD\?\).*\n {2}hint: run 'fcast demo BTC\/USD'\n$/,
    ],
    [['demo', 'eth-usdt'], /\(did you mean ETH\/USD\?\)/],
    [
      ['demo', 'XAU/USD'],
      /^fcast: the demo has no symbol 'XAU\/USD'; choose one of .*\n {2}hint: other symbols need a free key/,
    ],
    [
      ['accuracy', '--tf', '1hh'],
      /^fcast: invalid --tf '1hh' \(did you mean 1h\?\).*\n {2}hint: see 'fcast accuracy --help'\n$/,
    ],
    [
      ['track-record', '--min-maturity', 'grow'],
      /\(did you mean growing_sample\?\).*\n {2}hint: see 'fcast track-record --help'/,
    ],
    [
      ['track-record', '--min-win-rate', '2'],
      /^fcast: --min-win-rate must be .*\n {2}hint: see 'fcast track-record --help'\n$/,
    ],
    [
      ['completion', 'bsh'],
      /^fcast: invalid <shell> 'bsh' \(did you mean bash\?\); choose one of bash, zsh, fish\n {2}hint: see 'fcast completion --help'\n$/,
    ],
    [
      ['config', 'get', 'tmeout'],
      /^fcast: unknown config key 'tmeout' \(did you mean timeout\?\).*\n {2}hint: see 'fcast config get --help'\n$/,
    ],
    [
      ['cmd', 'analyse'],
      /^fcast: unknown gateway command 'analyse' \(did you mean analyze\?\).*\n {2}hint: see 'fcast cmd analyze --help'\n$/,
    ],
    [['cmd', 'opportunity', '10'], /^fcast: unknown gateway command 'opportunity' \(did you mean opportunities\?\)/],
    [
      ['cmd', 'analyze', 'BTC/USD', '1hr'],
      /^fcast: analyze: timeframe: invalid timeframe '1hr' \(did you mean 1h\?\).*\n {2}hint: see 'fcast cmd analyze --help'\n$/,
    ],
    [['cmd', 'indicators', 'BTC/USD', '15mins'], /invalid timeframe '15mins' \(did you mean 15m\?\)/],
    [
      ['predict', 'btc'],
      /^fcast: invalid symbol 'btc': did you mean BTC\/USD\?\n {2}hint: see 'fcast predict --help'\n$/,
    ],
    [['predict', 'BTC/USD', 'xau'], /^fcast: invalid symbol 'xau': did you mean XAU\/USD\?/],
    [['mock', '--fault', 'slw'], /^fcast: --fault slw: no fault 'slw'; did you mean slow\? /],
    [['verify', '0'], /\n {2}hint: see 'fcast verify --help'\n$/],
    [['--timeout', 'x', 'demo'], /^fcast: --timeout must be .*\n {2}hint: see 'fcast --help'\n$/],
  ])('fcast %j', async (argv, stderr) => {
    const r = await emu.run(argv as string[]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(stderr);
    expect(emu.server.requests).toHaveLength(0);
  });
});

describe('an error caused by a setting says where the setting came from', () => {
  it('a base URL from the config file: the file is named', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ 'base-url': `http://127.0.0.1:${await closedPort()}` }), {
      mode: 0o600,
    });
    const r = await runCli(['demo', '--retries', '0'], { configDir: dir });
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(
      new RegExp(
        `^fcast: connection to \\S+ refused; the base URL \\S+ comes from the config file ${join(dir, 'config.json')}\\n`,
      ),
    );
  });

  it('from the environment, and from the flag', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const env = await runCli(['demo', '--retries', '0'], { env: { FCAST_BASE_URL: url } });
    expect(env.stderr).toContain(`the base URL ${url} comes from FCAST_BASE_URL in the environment`);
    const flag = await runCli(['demo', '--retries', '0', '--base-url', url]);
    expect(flag.stderr).toContain(`the base URL ${url} comes from the --base-url flag`);
  });

  it('a key refused over plain http: the base URL and where it came from, from each source', async () => {
    const url = 'http://forecasts.example';
    const key = { FCAST_API_KEY: emu.server.testKey };
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ 'base-url': url }), { mode: 0o600 });
    for (const [r, origin] of [
      [await runCli(['symbols'], { configDir: dir, env: key }), `the config file ${join(dir, 'config.json')}`],
      [await runCli(['symbols'], { env: { ...key, FCAST_BASE_URL: url } }), 'FCAST_BASE_URL in the environment'],
      [await runCli(['symbols', '--base-url', url], { env: key }), 'the --base-url flag'],
    ] as const) {
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(
        new RegExp(
          `^fcast: refusing to send a key over plain http to forecasts\\.example; the base URL ${url} comes from ${origin.replaceAll('.', '\\.')}\n`,
        ),
      );
    }
  });

  it('a REST key the service refuses (401): where the key came from, for one symbol or several', async () => {
    const dir = tempDir();
    const bad = `mfa_ag_${'0'.repeat(40)}`;
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ 'api-key': bad }), { mode: 0o600 });
    const stored = await emu.run(['symbols'], { configDir: dir });
    expect(stored.code).toBe(3);
    expect(stored.stderr).toContain(
      `401 Unauthorized: API key invalid or unknown; the API key comes from the config file ${join(dir, 'config.json')}\n`,
    );
    const env = await emu.run(['predict', 'BTC/USD', 'ETH/USD'], { env: { FCAST_API_KEY: bad } });
    expect(env.code).toBe(3);
    expect(env.stderr.match(/; the API key comes from FCAST_API_KEY in the environment\n/g)).toHaveLength(2);
  });

  it('a setting that does not parse: the hint fixes it where it was found', async () => {
    const env = await runCli(['demo'], { env: { FCAST_TIMEOUT: 'soon' } });
    expect(env.code).toBe(3);
    expect(env.stderr).toBe(
      "fcast: FCAST_TIMEOUT must be a number of seconds above 0, at most 86400, got 'soon'\n  hint: fix FCAST_TIMEOUT in your environment, or unset it\n",
    );
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ 'base-url': 'ftp://x' }), { mode: 0o600 });
    const file = await runCli(['demo'], { configDir: dir });
    expect(file.code).toBe(3);
    expect(file.stderr).toMatch(
      /^fcast: 'base-url' in \S+ must be an http\(s\) URL, got 'ftp:\/\/x'\n {2}hint: run 'fcast config set base-url VALUE', or 'fcast config unset base-url'\n$/,
    );
  });

  it('not for an error no setting caused (a 404 for a symbol)', async () => {
    const r = await emu.runWithKey(['predict', 'NOPE/USD']);
    expect(r.code).toBe(4);
    expect(r.stderr).not.toMatch(/comes from/);
  });
});

describe("doctor's hints", () => {
  it('an unreachable service: the fix names where the base URL is set, not doctor itself', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ 'base-url': `http://127.0.0.1:${await closedPort()}` }), {
      mode: 0o600,
    });
    const r = await runCli(['doctor'], { configDir: dir });
    expect(r.code).toBe(6);
    const service = r.stdout.slice(r.stdout.indexOf('✗ service'));
    expect(service).toMatch(/fix: check the base URL \(from the config file .*config\.json\)/);
    expect(service).not.toMatch(/fcast doctor/);
  });
});

describe('quiet by default: a cause told once, and no wait for what no wait fixes', () => {
  const START = `  hint: nothing listens there: start the emulator with 'fcast mock' (in the background: eval "$(fcast mock --print-env &)")\n`;

  it('a refused loopback base URL: exit 6 at once, no retry announced, and how to start the emulator', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const r = await runCli(['demo'], { env: { FCAST_BASE_URL: url } });
    expect(r.code).toBe(6);
    expect(r.stderr).toBe(
      `fcast: connection to ${url.slice(7)} refused; the base URL ${url} comes from FCAST_BASE_URL in the environment\n${START}`,
    );
  });

  it('three symbols failing for one cause: the hint once, each symbol its line', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const r = await runCli(['predict', 'BTC/USD', 'ETH/USD', 'XAU/USD'], {
      env: { FCAST_BASE_URL: url, FCAST_API_KEY: emu.server.testKey },
    });
    expect(r.code).toBe(6);
    const lines = r.stderr.split('\n');
    expect(lines.filter((l) => l.startsWith('  hint: '))).toEqual([START.slice(0, -1)]);
    expect(lines.filter((l) => l.startsWith('fcast: '))).toHaveLength(3);
    for (const symbol of ['BTC/USD', 'ETH/USD', 'XAU/USD']) expect(r.stderr).toContain(symbol);
  });
});

describe('a group given no command says so in one line, as fcast cmd does', () => {
  it.each(['journal', 'auth', 'config'])(
    'fcast %s: one line naming its commands, the pointer to its help, exit 2',
    async (group) => {
      // The group's subcommands as the whole tree has them, in its order.
      const tree = await buildProgram({
        ctx: { version: '0.0.0', io: { stdout: sink, stderr: sink } } as never,
        setExitCode: () => {},
      });
      const names = tree.commands
        .find((c) => c.name() === group)!
        .commands.map((c) => c.name())
        .join(', ');
      expect(names.split(', ').length).toBeGreaterThan(2);
      const r = await runCli([group]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`fcast: 'fcast ${group}' needs a command: ${names}\n  hint: see 'fcast ${group} --help'\n`);
    },
  );

  it('fcast journal --help has no stock "help [command]" line, and no Markdown backticks', async () => {
    const r = await runCli(['journal', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/help \[command\]|`/);
  });
});
