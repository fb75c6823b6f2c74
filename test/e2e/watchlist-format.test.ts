// The watchlist setting (predict with no symbol) and the global --format flag: --format json
// is --json, and a format a command cannot give is exit 2 naming the ones it gives.
import { describe, expect, it } from 'vitest';
import { expectExit } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';

const emu = useEmulator();

describe('the watchlist', () => {
  it('predict with no symbol fetches the watchlist, in its order, from the environment or the config file', async () => {
    const r = await emu.runWithKey(['predict', '--json'], { env: { FCAST_WATCHLIST: 'eth-usd, BTC/USD' } });
    expectExit(r, 0);
    expect(JSON.parse(r.stdout).map((b: { symbol: string }) => b.symbol)).toEqual(['ETH/USD', 'BTC/USD']);

    const set = await emu.run(['config', 'set', 'watchlist', 'SOL/USD,btc-usd']);
    expectExit(set, 0);
    const stored = await emu.runWithKey(['predict', '--json'], { configDir: set.configDir });
    expect(JSON.parse(stored.stdout).map((b: { symbol: string }) => b.symbol)).toEqual(['SOL/USD', 'BTC/USD']);
    const shown = await emu.run(['config', 'get', 'watchlist'], { configDir: set.configDir });
    expect(shown.stdout).toBe('SOL/USD,BTC/USD\n');
  });

  it('symbols given on the command line win over the watchlist', async () => {
    const r = await emu.runWithKey(['predict', 'XAU/USD', '--json'], { env: { FCAST_WATCHLIST: 'ETH/USD' } });
    expectExit(r, 0);
    expect(JSON.parse(r.stdout).symbol).toBe('XAU/USD');
  });

  it('no symbol and no watchlist is exit 2 before any request, saying how to set one', async () => {
    const r = await emu.runWithKey(['predict']);
    expectExit(r, 2);
    expect(r.stderr).toContain('predict needs at least one symbol');
    expect(r.stderr).toContain('fcast config set watchlist BTC/USD,ETH/USD');
    expect(emu.server.requests).toHaveLength(0);
  });

  it('a malformed watchlist is exit 3 (environment) or 2 (typed into config set), naming the bad symbol', async () => {
    const env = await emu.runWithKey(['predict'], { env: { FCAST_WATCHLIST: 'BTC/USD,bitcoin' } });
    expectExit(env, 3);
    expect(env.stderr).toContain("FCAST_WATCHLIST must list symbols like BTC/USD,ETH/USD; 'bitcoin' is not BASE/QUOTE");
    const typed = await emu.run(['config', 'set', 'watchlist', 'bitcoin']);
    expectExit(typed, 2);
    expect(emu.server.requests).toHaveLength(0);
  });
});

describe('--format', () => {
  it('--format json is --json, before or after the command', async () => {
    const a = await emu.run(['demo', '--json']);
    const b = await emu.run(['--format', 'json', 'demo']);
    const c = await emu.run(['demo', '--format', 'JSON']);
    expectExit(b, 0);
    expect(b.stdout).toBe(a.stdout);
    expect(c.stdout).toBe(a.stdout);
  });

  it.each([
    [['discover', '--format', 'csv'], "discover gives --format table, json or markdown, not 'csv'", 'discover'],
    [
      ['track-record', '--format', 'nope'],
      "track-record gives --format table, json, csv, tsv or markdown, not 'nope'",
      'track-record',
    ],
    [
      ['config', 'path', '--format', 'markdown'],
      "config path gives --format table or json, not 'markdown'",
      'config path',
    ],
    // A shell script or export lines are no JSON: asked for JSON, they say so instead of printing them.
    [['completion', 'bash', '--json'], "completion gives --format table, not 'json'", 'completion'],
    [['mock', '--json'], "mock gives --format table, not 'json'", 'mock'],
    // A slip of the fingers gets its likely meaning, as a mistyped value does everywhere else.
    [
      ['demo', '--format', 'cvs'],
      "demo gives --format table, json, csv, tsv or markdown, not 'cvs'; did you mean csv?",
      'demo',
    ],
    [
      ['symbols', '--format', 'jsno'],
      "symbols gives --format table, json, csv, tsv or markdown, not 'jsno'; did you mean json?",
      'symbols',
    ],
  ])('%j is exit 2 before any request, naming the formats it gives', async (argv, message, path) => {
    const r = await emu.run(argv);
    expectExit(r, 2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`fcast: ${message}\n  hint: see 'fcast ${path} --help'\n`);
    expect(emu.server.requests).toHaveLength(0);
  });

  it('--watch with csv, tsv or markdown is exit 2 before any request: a header per refresh would break every reader', async () => {
    const r = await emu.run(['demo', '--watch', '--format', 'csv']);
    expectExit(r, 2);
    expect(r.stderr).toContain("--watch gives --format table or json, not 'csv'");
    expect(emu.server.requests).toHaveLength(0);
  });

  it('--json where a command gives no JSON is exit 2 even beside a --format it gives', async () => {
    const r = await emu.run(['journal', 'export', '--format', 'csv', '--json']);
    expectExit(r, 2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain("journal export gives --format csv, tsv or jsonl, not 'json'");
  });
});
