// Contract points that cut across commands: what goes to stdout when things fail, where a
// key may go and where it must never appear, flags anywhere on the line, colour, exit codes.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Transport } from '../../src/api/transport.js';
import { expectExit, tempDir } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';

const emu = useEmulator();

/** A wire that only counts: any send is a failure of "nothing is sent". */
function countingTransport() {
  const sends: string[] = [];
  const transport = (): Transport => ({
    send: async (req) => {
      sends.push(req.url.href);
      throw new Error('no network in this test');
    },
    close: async () => undefined,
  });
  return { sends, transport };
}

describe('stdout holds data only', () => {
  it.each([
    ['a usage error', ['demo', 'XRP/USD', '--json'], {}, 2],
    ['a missing base URL', ['demo', '--json'], { FCAST_BASE_URL: '' }, 3],
    ['a refused connection', ['demo', '--json', '--retries', '0'], { FCAST_BASE_URL: 'http://127.0.0.1:9' }, 6],
    ['a missing key', ['symbols', '--json'], {}, 3],
  ] as const)(
    'under --json, %s prints nothing to stdout and one error line to stderr',
    async (_what, argv, env, code) => {
      const r = await emu.run([...argv], { env });
      expect(r.code).toBe(code);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^fcast: .+\n/);
    },
  );
});

describe('--json on every command', () => {
  // What a script pipes into jq: one document, newline-terminated, whatever the command, local
  // ones included (a write says what it stored, as auth login does).
  it.each([
    [['discover']],
    [['demo', 'ETH/USD']],
    [['predict', 'BTC/USD', 'ETH/USD']],
    [['symbols']],
    [['track-record']],
    [['accuracy', '--symbol', 'BTC/USD']],
    [['verify', '7']],
    [['cmd', 'macro']],
    [['auth', 'status']],
    [['config', 'list']],
    [['config', 'get', 'timeout']],
    [['config', 'path']],
    [['config', 'set', 'timeout', '12']],
    [['config', 'unset', 'timeout']],
    [['journal', 'list']],
    [['journal', 'settle']],
    [['journal', 'report', '--offline']],
    [['journal', 'path']],
    [['journal', 'prune', '--before', '2026-01-01']],
  ])('%j prints exactly one JSON document', async (argv) => {
    const r = await emu.runWithKey([...argv, '--json']);
    expectExit(r, 0);
    expect(r.stdout).toMatch(/\n$/);
    expect(() => JSON.parse(r.stdout), r.stdout).not.toThrow();
  });

  it('config set and unset say what they stored and where; unset of a key not set says removed: null', async () => {
    const dir = tempDir();
    const path = join(dir, 'config.json');
    const set = await emu.run(['config', 'set', 'watchlist', 'btc/usd,eth-usd', '--json'], { configDir: dir });
    expectExit(set, 0);
    expect(JSON.parse(set.stdout)).toEqual({ set: 'watchlist', value: ['BTC/USD', 'ETH/USD'], path });
    const unset = await emu.run(['config', '--json', 'unset', 'watchlist'], { configDir: dir });
    expect(JSON.parse(unset.stdout)).toEqual({ removed: 'watchlist', path });
    const again = await emu.run(['--json', 'config', 'unset', 'watchlist'], { configDir: dir });
    expect(JSON.parse(again.stdout)).toEqual({ removed: null, path });
    // Without --json, stdout stays empty: the note is on stderr.
    const plain = await emu.run(['config', 'set', 'timeout', '12'], { configDir: dir });
    expect(plain).toMatchObject({ code: 0, stdout: '' });
  });
});

describe('--dry-run writes nothing, local writes included', () => {
  it('config set and unset say what they would do and leave the file as it was', async () => {
    const dir = tempDir();
    const path = join(dir, 'config.json');
    const set = await emu.run(['config', 'set', 'timeout', '12', '--dry-run', '--json'], { configDir: dir });
    expectExit(set, 0);
    expect(JSON.parse(set.stdout)).toEqual({ set: 'timeout', value: 12, path });
    expect(set.stderr).toMatch(/dry run: would set timeout in .*; nothing written/);
    expect(existsSync(path)).toBe(false);

    await emu.run(['config', 'set', 'timeout', '12'], { configDir: dir });
    const before = readFileSync(path, 'utf8');
    const unset = await emu.run(['--dry-run', 'config', 'unset', 'timeout', '--json'], { configDir: dir });
    expectExit(unset, 0);
    expect(JSON.parse(unset.stdout)).toEqual({ removed: 'timeout', path });
    expect(readFileSync(path, 'utf8')).toBe(before);
  });

  it('auth login and logout print the document they would, and save or remove nothing', async () => {
    const dir = tempDir();
    const path = join(dir, 'config.json');
    const key = emu.server.testKey;
    const login = await emu.run(['auth', 'login', '--dry-run', '--json'], { configDir: dir, stdin: `${key}\n` });
    expectExit(login, 0);
    expect(JSON.parse(login.stdout)).toEqual({ saved: 'api-key', key: expect.stringMatching(/\.\.\./), path });
    expect(existsSync(path)).toBe(false);

    await emu.run(['auth', 'login'], { configDir: dir, stdin: `${key}\n` });
    const logout = await emu.run(['auth', 'logout', '--yes', '--dry-run', '--json'], { configDir: dir });
    expectExit(logout, 0);
    expect(JSON.parse(logout.stdout)).toEqual({ removed: 'api-key', key: expect.stringMatching(/\.\.\./), path });
    expect(JSON.parse(readFileSync(path, 'utf8'))['api-key']).toBe(key);
  });

  it('journal import counts what it would add and writes nothing, not even the directory', async () => {
    const from = join(tempDir(), 'data');
    expectExit(await emu.run(['demo', '--record'], { env: { FCAST_DATA_DIR: from } }), 0);
    const exported = await emu.run(['journal', 'export'], { env: { FCAST_DATA_DIR: from } });
    const file = join(tempDir(), 'journal.csv');
    writeFileSync(file, exported.stdout);
    const rows = exported.stdout.trimEnd().split('\n').length - 1;
    expect(rows).toBeGreaterThan(0);

    const to = join(tempDir(), 'data');
    const dry = await emu.run(['journal', 'import', file, '--dry-run', '--json'], { env: { FCAST_DATA_DIR: to } });
    expectExit(dry, 0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ rows, forecasts: rows });
    expect(existsSync(to)).toBe(false);
    const table = await emu.run(['journal', 'import', file, '--dry-run'], { env: { FCAST_DATA_DIR: to } });
    expect(table.stdout).toMatch(new RegExp(`^would add +${rows} forecasts`, 'm'));

    const real = await emu.run(['journal', 'import', file, '--json'], { env: { FCAST_DATA_DIR: to } });
    expect(JSON.parse(real.stdout)).toMatchObject({ forecasts: rows });
    const again = await emu.run(['journal', 'import', file, '--dry-run', '--json'], { env: { FCAST_DATA_DIR: to } });
    expect(JSON.parse(again.stdout)).toMatchObject({ forecasts: 0, duplicates: rows });
  });
});

describe('keys', () => {
  it('are refused over plain http to a remote host before any connection, for every keyed command', async () => {
    for (const argv of [
      ['symbols'],
      ['predict', 'BTC/USD', 'ETH/USD'],
      ['cmd', 'snapshot'],
      ['auth', 'status', '--check'],
    ]) {
      const { sends, transport } = countingTransport();
      const r = await emu.runWithKey([...argv, '--base-url', 'http://192.0.2.1'], { transport });
      expect(r.code, argv.join(' ')).toBe(3);
      expect(r.stderr).toMatch(/refusing to send a key over plain http to 192\.0\.2\.1/);
      expect(sends).toEqual([]);
    }
  });

  it('never come back in an error about what was typed', async () => {
    const key = emu.server.testKey;
    for (const argv of [['demo', `--api-key=${key}`], [key], ['auth', 'login', key]]) {
      const r = await emu.run(argv);
      expect(r.code).toBe(2);
      expect(r.stdout + r.stderr).not.toContain(key);
    }
  });

  it('a malformed key in the config file exits 3 naming the file, and nothing is sent', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ 'api-key': 'garbage' }));
    const r = await emu.run(['symbols'], { configDir: dir });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(join(dir, 'config.json'));
    expect(r.stderr).not.toContain('garbage');
    expect(emu.server.requests).toHaveLength(0);
  });
});

describe('settings', () => {
  it('a data directory that is a file: exit 3 for the journal saying which variable moves it, a warning for a recorder', async () => {
    const file = join(tempDir(), 'not-a-dir');
    writeFileSync(file, '');
    const env = { FCAST_DATA_DIR: file };
    const list = await emu.run(['journal', 'list'], { env });
    expectExit(list, 3);
    expect(list.stderr).toBe(
      `fcast: journal: the data directory ${file} is not a directory\n  hint: point FCAST_DATA_DIR at a directory\n`,
    );
    const recorded = await emu.run(['demo', '--record', '--json'], { env });
    expectExit(recorded, 0);
    expect(recorded.stderr).toMatch(/^warning: journal: not recorded: .*not a directory/);
  });

  it('a config file that cannot be read exits 3 naming it', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'config.json'));
    for (const argv of [['demo'], ['config', 'set', 'retries', '1']]) {
      const r = await emu.run(argv, { configDir: dir });
      expect(r.code).toBe(3);
      expect(r.stderr).toContain(join(dir, 'config.json'));
      expect(r.stdout).toBe('');
    }
  });

  it('arguments are checked before settings: a bad argument exits 2 even with a broken environment', async () => {
    for (const argv of [
      ['demo', 'XRP/USD'],
      ['verify', '0'],
      ['predict', 'BTC'],
      ['track-record', '--min-win-rate', '5'],
      ['register', '--email', 'nope'],
    ]) {
      const r = await emu.run(argv, { env: { FCAST_TIMEOUT: 'soon', FCAST_BASE_URL: '' } });
      expect(r.code, argv.join(' ')).toBe(2);
    }
    expect(emu.server.requests).toHaveLength(0);
  });

  it.each([
    [['--json', 'auth', 'status']],
    [['config', '--json', 'list']],
    [['--json', 'cmd', 'analyze', 'BTC/USD', '1h']],
    [['--json', 'predict', 'BTC/USD', 'ETH/USD']],
    [['--json', 'track-record', '--symbol', 'BTC/USD']],
    [['verify', '--json', '7']],
  ])('global flags work before or after the subcommand: %j', async (argv) => {
    const r = await emu.runWithKey(argv);
    expect(r.code).toBe(0);
    expect(() => JSON.parse(r.stdout)).not.toThrow();
  });

  it('the shared command flags before the command are the same as after it', async () => {
    const after = await emu.run(['demo', '--watch', '--count', '1', '--interval', '5', '--json']);
    const before = await emu.run(['--watch', '--interval', '5', '--count=1', '--json', 'demo']);
    expectExit(before, 0);
    expect(before.stdout).toBe(after.stdout);
    expect(before.stdout.trimEnd().split('\n')).toHaveLength(1);

    const data = join(tempDir(), 'data');
    expectExit(await emu.run(['--record', 'demo', 'ETH/USD'], { env: { FCAST_DATA_DIR: data } }), 0);
    const listed = await emu.run(['journal', 'list', '--json'], { env: { FCAST_DATA_DIR: data } });
    expect(JSON.parse(listed.stdout).length).toBeGreaterThan(0);

    const summary = join(tempDir(), 'summary.md');
    const gated = await emu.run(['--no-annotations', 'track-record', '--min-settled', '1000000000'], {
      env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary },
    });
    expectExit(gated, 8);
    expect(gated.stderr).not.toMatch(/::error/);
    expect(existsSync(summary)).toBe(false);

    // Checked as after the command: a bad value, and a command that takes no such flag, exit 2.
    const fast = await emu.run(['--interval', '2', '--watch', 'demo']);
    expectExit(fast, 2);
    expect(fast.stderr).toMatch(/--interval must be a number of seconds from 5/);
    const symbols = await emu.runWithKey(['--watch', 'symbols']);
    expectExit(symbols, 2);
    expect(symbols.stderr).toMatch(/unknown option '--watch'\n {2}hint: see 'fcast symbols --help'/);
    // Two demos, the recorded one and the track record: nothing for the two refused.
    expect(emu.server.requests).toHaveLength(4);
  });

  it('--base-url, --retries and --max-wait before the subcommand', async () => {
    emu.server.setFaults([{ kind: '503', times: 1, retryAfter: 2 }]);
    const r = await emu.run(['--base-url', emu.server.url, '--retries', '1', '--max-wait', '5', 'demo', '--json'], {
      env: { FCAST_BASE_URL: '' },
    });
    expect(r.code).toBe(0);
    expect(r.sleeps).toEqual([2000]);
  });
});

describe('colour', () => {
  it('NO_COLOR turns it off on a terminal', async () => {
    const r = await emu.run(['demo'], { tty: true, env: { NO_COLOR: '1' } });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/\x1b\[/);
  });
});

describe('exit codes', () => {
  it('an internal error exits 1 with one line and no stack trace, unless --verbose', async () => {
    const broken = () => {
      throw new Error('wire exploded');
    };
    const r = await emu.run(['demo'], { transport: broken });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^fcast: internal error: wire exploded$/m);
    expect(r.stderr).not.toMatch(/^\s+at /m);
    const verbose = await emu.run(['demo', '--verbose'], { transport: broken });
    expect(verbose.code).toBe(1);
    expect(verbose.stderr).toMatch(/^\s+at /m);
  });

  it('--strict accepts unknown fields: only missing or mistyped documented ones fail', async () => {
    const body = (await (await fetch(`${emu.server.url}/api/agent/v1/demo.php`)).json()) as Record<string, any>;
    body.extra_top = { nested: true };
    const [first] = Object.keys(body.predictions);
    body.predictions[first!].ia3.extra_field = 'kept';
    const server = createServer((_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      const r = await emu.run(['demo', '--json', '--strict'], { env: { FCAST_BASE_URL: url } });
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      expect(JSON.parse(r.stdout)).toEqual(body);
    } finally {
      server.close();
    }
  });
});

describe('attribution', () => {
  it.each([
    [['track-record']],
    [['accuracy', '--tf', '1h']],
    [['verify', '7']],
    [['symbols']],
    [['predict', 'BTC/USD', '--candles']],
    [['discover']],
  ])('%j ends with the source, tier and delay in its last three lines', async (argv) => {
    const r = await emu.runWithKey(argv);
    expect(r.code).toBe(0);
    const last = r.stdout.trimEnd().split('\n').slice(-3).join('\n');
    expect(last).toMatch(/^Source: Market Forecast Agent \(forecast-agent\.example\)$/m);
    expect(last).toMatch(/^Tier: (demo|free) · data delayed \d+ min$/m);
  });
});
