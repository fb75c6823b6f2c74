import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { COMPLETE_SYMBOLS_COMMAND } from '../../src/completion/names.js';
import { symbolsCachePath, writeSymbolsCache } from '../../src/completion/symbols-cache.js';
import { Redactor } from '../../src/core/redact.js';
import { packageVersion, type Ctx } from '../../src/core/context.js';
import {
  ACCURACY_TIMEFRAMES,
  DEMO_SYMBOLS,
  GATEWAY_COMMAND_NAMES,
  MATURITY_LEVELS,
  OUTPUT_FORMATS,
} from '../../src/core/domain.js';
import { buildProgram } from '../../src/cli/program.js';
import { CONFIG_KEYS } from '../../src/config/settings.js';
import { expectExit, fakeClock, runCli, spawnFcast, tempDir } from '../helpers/cli.js';
import { useTamperedServer } from '../helpers/tampered.js';
import { useEmulator } from '../helpers/emulator.js';

const emu = useEmulator();
const tampered = useTamperedServer();

// What the stubbed `fcast` prints when a script asks for the cached symbols.
const CACHED = ['BTC/USD', 'SOL/USD', 'AAPL/USD'];

/** The names `fcast <TAB>` must offer: every visible command of the tree, read from the tree. */
async function rootCommandNames(): Promise<string[]> {
  const silent = { write: () => true };
  const ctx: Ctx = {
    io: { stdout: silent, stderr: silent, stdin: Readable.from([]) },
    env: {},
    clock: fakeClock(),
    signal: new AbortController().signal,
    platform: 'linux',
    homedir: tempDir(),
    nodeVersion: process.versions.node,
    version: packageVersion(),
  };
  const program = await buildProgram({ ctx, setExitCode: () => undefined });
  return program
    .createHelp()
    .visibleCommands(program)
    .map((c) => c.name());
}

async function scriptFile(shell: 'bash' | 'zsh' | 'fish'): Promise<string> {
  const r = await runCli(['completion', shell]);
  expectExit(r, 0);
  const path = join(tempDir(), `fcast.${shell}`);
  writeFileSync(path, r.stdout);
  return path;
}

const has = (shell: string) => spawnSync('which', [shell]).status === 0;

/** Sources the script in bash, fills COMP_* as readline would, calls _fcast and returns COMPREPLY. */
function bashComplete(script: string, words: string[]): string[] {
  const program = [
    'source "$1"; shift',
    `fcast() { [ "$1" = ${COMPLETE_SYMBOLS_COMMAND} ] && printf '%s\\n' ${CACHED.join(' ')}; }`,
    'COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}',
    '_fcast',
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  const r = spawnSync('bash', ['--norc', '--noprofile', '-c', program, 'bash', script, ...words], { encoding: 'utf8' });
  expectExit({ ...r, code: r.status }, 0);
  expect(r.stderr).toBe('');
  return r.stdout.split('\n').filter((l) => l !== '');
}

/** Sources the script in zsh with compsys's _describe stubbed to print what it was given. */
function zshComplete(script: string, words: string[]): string[] {
  const program = [
    'compdef() { :; }',
    'compset() { print -r -- "compset $*"; }',
    '_describe() { print -rl -- "${(@P)4}"; }',
    'source "$1"; shift',
    `fcast() { [[ $1 == ${COMPLETE_SYMBOLS_COMMAND} ]] && print -l ${CACHED.join(' ')}; }`,
    'words=("$@"); CURRENT=${#words}',
    '_fcast',
  ].join('\n');
  const r = spawnSync('zsh', ['-f', '-c', program, 'zsh', script, ...words], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  // `value:description`, colons in values escaped: the value is what precedes the first bare colon.
  return r.stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => l.replace(/(?<!\\):.*$/, '').replace(/\\:/g, ':'));
}

/** fish's own `complete -C`: what TAB would list for the line, descriptions cut off. */
function fishComplete(script: string, line: string): string[] {
  const program = [
    'source $argv[1]',
    `function fcast; test "$argv[1]" = ${COMPLETE_SYMBOLS_COMMAND}; and printf '%s\\n' ${CACHED.join(' ')}; end`,
    'complete -C $argv[2]',
  ].join('\n');
  const r = spawnSync('fish', ['--no-config', '-c', program, script, line], { encoding: 'utf8' });
  expectExit({ ...r, code: r.status }, 0);
  expect(r.stderr).toBe('');
  return r.stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => l.split('\t')[0]!);
}

const sorted = (list: readonly string[]) => [...list].sort();

describe('fcast completion', () => {
  it('prints a script for each shell on stdout, nothing on stderr', async () => {
    for (const [shell, marker] of [
      ['bash', 'complete -F _fcast fcast'],
      ['zsh', '#compdef fcast'],
      ['fish', 'complete -c fcast'],
    ] as const) {
      const r = await runCli(['completion', shell]);
      expectExit(r, 0);
      expect(r.stderr).toBe('');
      expect(r.stdout).toContain(marker);
      expect(r.stdout.endsWith('\n')).toBe(true);
    }
  });

  it('refuses another shell with exit 2, naming bash, zsh and fish', async () => {
    const r = await runCli(['completion', 'tcsh']);
    expectExit(r, 2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^fcast: .*tcsh/);
    expect(r.stderr).toMatch(/bash, zsh, fish/);
  });

  it('exits 2 without a shell', async () => {
    const r = await runCli(['completion']);
    expectExit(r, 2);
    expect(r.stdout).toBe('');
  });
});

describe('the bash script', () => {
  it('offers every visible command after `fcast `, and not the hidden ones', async () => {
    const script = await scriptFile('bash');
    const offered = bashComplete(script, ['fcast', '']);
    expect(sorted(offered)).toEqual(sorted(await rootCommandNames()));
    expect(offered).toEqual(expect.arrayContaining(['demo', 'predict', 'cmd', 'doctor', 'completion', 'help']));
    expect(offered).not.toContain(COMPLETE_SYMBOLS_COMMAND);
    expect(bashComplete(script, ['fcast', 'd'])).toEqual(expect.arrayContaining(['demo', 'discover', 'doctor']));
  });

  it('offers the gateway commands after `fcast cmd `', async () => {
    const script = await scriptFile('bash');
    expect(sorted(bashComplete(script, ['fcast', 'cmd', '']))).toEqual(sorted(GATEWAY_COMMAND_NAMES));
    expect(bashComplete(script, ['fcast', '--json', 'cmd', 'op'])).toEqual(['opportunities']);
  });

  it('offers the service paths after `fcast api `, and the methods after -X and --method', async () => {
    const script = await scriptFile('bash');
    expect(bashComplete(script, ['fcast', 'api', ''])).toEqual(
      expect.arrayContaining(['api/agent/v1/symbols.php', 'api/v1/agent/command']),
    );
    for (const flag of ['-X', '--method'])
      expect(bashComplete(script, ['fcast', 'api', flag, ''])).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
  });

  it('offers the accuracy timeframes after `--tf`, also written --tf=', async () => {
    const script = await scriptFile('bash');
    expect(bashComplete(script, ['fcast', 'accuracy', '--tf', ''])).toEqual([...ACCURACY_TIMEFRAMES]);
    expect(bashComplete(script, ['fcast', 'accuracy', '--tf', '1'])).toEqual(
      ACCURACY_TIMEFRAMES.filter((tf) => tf.startsWith('1')),
    );
    // bash breaks `--tf=1` into `--tf`, `=`, `1` (COMP_WORDBREAKS).
    expect(bashComplete(script, ['fcast', 'accuracy', '--tf', '=', ''])).toEqual([...ACCURACY_TIMEFRAMES]);
    expect(bashComplete(script, ['fcast', 'accuracy', '--tf', '=', '1h'])).toEqual(['1h']);
    // A value already given does not count as an argument: the next word is a flag or an argument again.
    expect(bashComplete(script, ['fcast', 'accuracy', '--tf', '1h', '--min-m'])).toEqual(['--min-maturity']);
  });

  it('offers the maturity levels, demo symbols, config keys and shells where they apply', async () => {
    const script = await scriptFile('bash');
    expect(bashComplete(script, ['fcast', 'track-record', '--min-maturity', ''])).toEqual([...MATURITY_LEVELS]);
    expect(bashComplete(script, ['fcast', 'demo', ''])).toEqual([...DEMO_SYMBOLS]);
    expect(bashComplete(script, ['fcast', 'config', 'set', ''])).toEqual([...CONFIG_KEYS]);
    expect(bashComplete(script, ['fcast', 'config', 'set', 'timeout', ''])).toEqual([]);
    expect(bashComplete(script, ['fcast', 'completion', ''])).toEqual(['bash', 'zsh', 'fish']);
    expect(bashComplete(script, ['fcast', 'config', ''])).toEqual(
      expect.arrayContaining(['list', 'get', 'set', 'unset', 'path']),
    );
    expect(bashComplete(script, ['fcast', 'auth', ''])).toEqual(expect.arrayContaining(['login', 'status', 'logout']));
  });

  it('offers after --format the formats of the command it follows, every format before one', async () => {
    const script = await scriptFile('bash');
    expect(bashComplete(script, ['fcast', 'demo', '--format', ''])).toEqual([
      'table',
      'json',
      'csv',
      'tsv',
      'markdown',
    ]);
    expect(bashComplete(script, ['fcast', 'track-record', '--format', 'm'])).toEqual(['markdown']);
    expect(bashComplete(script, ['fcast', 'journal', 'export', '--format', ''])).toEqual(['csv', 'tsv', 'jsonl']);
    expect(bashComplete(script, ['fcast', 'cmd', 'analyze', '--format', '=', ''])).toEqual([
      'table',
      'json',
      'markdown',
    ]);
    expect(bashComplete(script, ['fcast', '--format', ''])).toEqual([...OUTPUT_FORMATS]);
  });

  it('offers global and per-command flags', async () => {
    const script = await scriptFile('bash');
    const onPredict = bashComplete(script, ['fcast', 'predict', '--']);
    expect(onPredict).toEqual(
      expect.arrayContaining(['--candles', '--chart', '--json', '--base-url', '--no-color', '--help']),
    );
    expect(onPredict).toEqual(expect.arrayContaining(['--tf', '--detail', '--wide']));
    expect(new Set(onPredict).size).toBe(onPredict.length);
    expect(bashComplete(script, ['fcast', '--ti'])).toEqual(['--timeout']);
    // A global flag's value is not taken for the subcommand.
    expect(bashComplete(script, ['fcast', '--timeout', '5', 'dem'])).toEqual(['demo']);
    expect(bashComplete(script, ['fcast', '--base-url', ''])).toEqual([]);
  });

  it('offers the cached symbols after `predict`, for every symbol given, and after --symbol', async () => {
    const script = await scriptFile('bash');
    expect(bashComplete(script, ['fcast', 'predict', ''])).toEqual(CACHED);
    expect(bashComplete(script, ['fcast', 'predict', 'BTC/USD', 'S'])).toEqual(['SOL/USD']);
    expect(bashComplete(script, ['fcast', 'accuracy', '--symbol', 'A'])).toEqual(['AAPL/USD']);
    expect(bashComplete(script, ['fcast', 'cmd', 'analyze', ''])).toEqual(CACHED);
  });
});

describe('symbols complete whatever case is typed, to the symbol as written', () => {
  it('bash: `fcast demo b`, `btc` and `eth/` complete to BTC/USD and ETH/USD; the shell keeps its nocasematch', async () => {
    const script = await scriptFile('bash');
    expect(bashComplete(script, ['fcast', 'demo', 'b'])).toEqual(['BTC/USD']);
    expect(bashComplete(script, ['fcast', 'demo', 'btc'])).toEqual(['BTC/USD']);
    expect(bashComplete(script, ['fcast', 'demo', 'eth/'])).toEqual(['ETH/USD']);
    expect(bashComplete(script, ['fcast', 'predict', 'sol'])).toEqual(['SOL/USD']);
    const r = spawnSync(
      'bash',
      [
        '--norc',
        '--noprofile',
        '-c',
        'source "$1"; COMP_WORDS=(fcast demo b); COMP_CWORD=2; _fcast; shopt nocasematch',
        'bash',
        script,
      ],
      { encoding: 'utf8' },
    );
    expect(r.stdout).toMatch(/^nocasematch\s+off$/m);
  });

  it('zsh: the candidates go to compadd with a matcher that ignores case', async (ctx) => {
    ctx.skip(!has('zsh'), 'zsh is not installed (`which zsh` failed)');
    const script = await scriptFile('zsh');
    const program = [
      'compdef() { :; }',
      '_describe() { print -r -- "$@"; }',
      'source "$1"; shift',
      'words=("$@"); CURRENT=${#words}',
      '_fcast',
    ].join('\n');
    const r = spawnSync('zsh', ['-f', '-c', program, 'zsh', script, 'fcast', 'demo', 'b'], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('-t fcast fcast __fcast_reply -M m:{a-zA-Z}={A-Za-z}');
  });

  it('fish: `fcast demo b` and `btc` complete to BTC/USD', async (ctx) => {
    ctx.skip(!has('fish'), 'fish is not installed (`which fish` failed)');
    const script = await scriptFile('fish');
    expect(fishComplete(script, 'fcast demo b')).toEqual(['BTC/USD']);
    expect(fishComplete(script, 'fcast demo btc')).toEqual(['BTC/USD']);
    expect(fishComplete(script, 'fcast predict sol')).toEqual(['SOL/USD']);
  });
});

describe('the zsh script', () => {
  it('offers commands, gateway commands, timeframes and cached symbols', async (ctx) => {
    ctx.skip(!has('zsh'), 'zsh is not installed (`which zsh` failed)');
    const script = await scriptFile('zsh');
    expect(sorted(zshComplete(script, ['fcast', '']))).toEqual(sorted(await rootCommandNames()));
    expect(sorted(zshComplete(script, ['fcast', 'cmd', '']))).toEqual(sorted(GATEWAY_COMMAND_NAMES));
    expect(zshComplete(script, ['fcast', 'accuracy', '--tf', ''])).toEqual([...ACCURACY_TIMEFRAMES]);
    expect(zshComplete(script, ['fcast', 'accuracy', '--tf=1'])).toEqual(['compset -P *=', ...ACCURACY_TIMEFRAMES]);
    expect(zshComplete(script, ['fcast', 'predict', ''])).toEqual(CACHED);
    expect(zshComplete(script, ['fcast', 'predict', '--format', ''])).toEqual([
      'table',
      'json',
      'csv',
      'tsv',
      'markdown',
    ]);
    expect(zshComplete(script, ['fcast', 'predict', '--c'])).toEqual(
      expect.arrayContaining(['--candles', '--chart', '--json']),
    );
  });
});

describe('the fish script', () => {
  it('offers commands, gateway commands, timeframes and cached symbols', async (ctx) => {
    ctx.skip(!has('fish'), 'fish is not installed (`which fish` failed)');
    const script = await scriptFile('fish');
    expect(sorted(fishComplete(script, 'fcast '))).toEqual(sorted(await rootCommandNames()));
    expect(sorted(fishComplete(script, 'fcast cmd '))).toEqual(sorted(GATEWAY_COMMAND_NAMES));
    expect(sorted(fishComplete(script, 'fcast accuracy --tf '))).toEqual(sorted(ACCURACY_TIMEFRAMES));
    expect(sorted(fishComplete(script, 'fcast accuracy --tf=1'))).toEqual(
      sorted(ACCURACY_TIMEFRAMES.filter((tf) => tf.startsWith('1')).map((tf) => `--tf=${tf}`)),
    );
    expect(sorted(fishComplete(script, 'fcast predict '))).toEqual(sorted(CACHED));
    expect(sorted(fishComplete(script, 'fcast journal export --format '))).toEqual(['csv', 'jsonl', 'tsv']);
    expect(fishComplete(script, 'fcast predict --c')).toEqual(expect.arrayContaining(['--candles', '--chart']));
    expect(fishComplete(script, 'fcast discover ')).toEqual([]);
  });
});

describe(`fcast ${COMPLETE_SYMBOLS_COMMAND}`, () => {
  it('prints the cached symbols, one per line', async () => {
    const dir = tempDir();
    writeSymbolsCache(dir, ['BTC/USD', 'ETH/USD'], new Redactor());
    const r = await runCli([COMPLETE_SYMBOLS_COMMAND], { configDir: dir });
    expectExit(r, 0);
    expect(r.stdout).toBe('BTC/USD\nETH/USD\n');
    expect(r.stderr).toBe('');
  });

  it('offers the watchlist first, then the cached symbols it does not hold', async () => {
    const dir = tempDir();
    writeSymbolsCache(dir, ['BTC/USD', 'ETH/USD'], new Redactor());
    const r = await runCli([COMPLETE_SYMBOLS_COMMAND], {
      configDir: dir,
      env: { FCAST_WATCHLIST: 'sol-usd,ETH/USD' },
    });
    expectExit(r, 0);
    expect(r.stdout).toBe('SOL/USD\nETH/USD\nBTC/USD\n');
    // A watchlist that does not parse offers the cache alone, quietly.
    const bad = await runCli([COMPLETE_SYMBOLS_COMMAND], { configDir: dir, env: { FCAST_WATCHLIST: 'nope' } });
    expect([bad.code, bad.stdout, bad.stderr]).toEqual([0, 'BTC/USD\nETH/USD\n', '']);
  });

  it('offers nothing, quietly, without a cache or with a broken one', async () => {
    const missing = await runCli([COMPLETE_SYMBOLS_COMMAND]);
    expect([missing.code, missing.stdout, missing.stderr]).toEqual([0, '', '']);
    const dir = tempDir();
    writeFileSync(symbolsCachePath(dir), '{not json');
    const broken = await runCli([COMPLETE_SYMBOLS_COMMAND], { configDir: dir });
    expect([broken.code, broken.stdout, broken.stderr]).toEqual([0, '', '']);
  });

  it('sends nothing on TAB while the cache is less than a day old', async () => {
    const dir = tempDir();
    writeSymbolsCache(dir, ['BTC/USD'], new Redactor());
    const hourAgo = new Date(Date.now() - 3600_000);
    utimesSync(symbolsCachePath(dir), hourAgo, hourAgo);
    const r = await emu.runWithKey([COMPLETE_SYMBOLS_COMMAND], { configDir: dir, now: Date.now() });
    expect(r.stdout).toBe('BTC/USD\n');
    expect(emu.server.requests).toHaveLength(0);
    // Not marked for a refresh either.
    expect(Math.round(statSync(symbolsCachePath(dir)).mtimeMs)).toBe(hourAgo.getTime());
  });

  it('--refresh fetches symbols.php with the key and rewrites the cache', async () => {
    const dir = tempDir();
    const r = await emu.runWithKey([COMPLETE_SYMBOLS_COMMAND, '--refresh'], { configDir: dir });
    expectExit(r, 0);
    expect(r.stdout).toBe('');
    expect(emu.server.requests.map((q) => q.path)).toEqual(['/api/agent/v1/symbols.php']);
    const served = (await (
      await fetch(`${emu.server.url}/api/agent/v1/symbols.php`, {
        headers: { authorization: `Bearer ${emu.server.testKey}` },
      })
    ).json()) as { symbols: Array<{ symbol: string }> };
    const cached = JSON.parse(readFileSync(symbolsCachePath(dir), 'utf8')) as { symbols: string[] };
    expect(cached.symbols).toEqual(served.symbols.map((s) => s.symbol));
    expect(cached.symbols.length).toBeGreaterThan(0);
    const listed = await runCli([COMPLETE_SYMBOLS_COMMAND], { configDir: dir });
    expect(listed.stdout.trimEnd().split('\n')).toEqual(cached.symbols);
  });

  it('keeps no symbol the redactor would mask, so TAB (which loads none) never prints one', async () => {
    const secretPart = emu.server.testKey.slice(emu.server.testKey.indexOf('_ag_') + 4);
    const body = (await (
      await fetch(`${emu.server.url}/api/agent/v1/symbols.php`, {
        headers: { authorization: `Bearer ${emu.server.testKey}` },
      })
    ).json()) as { symbols: Array<{ symbol: string }> };
    body.symbols = [{ ...body.symbols[0]!, symbol: secretPart }, ...body.symbols];
    const url = await tampered.serve(() => ({ body }));
    for (const argv of [['symbols'], [COMPLETE_SYMBOLS_COMMAND, '--refresh']]) {
      const dir = tempDir();
      const r = await emu.runWithKey(argv, { configDir: dir, env: { FCAST_BASE_URL: url } });
      expectExit(r, 0);
      const cached = JSON.parse(readFileSync(symbolsCachePath(dir), 'utf8')) as { symbols: string[] };
      expect(cached.symbols).toEqual(body.symbols.slice(1).map((s) => s.symbol));
      const tab = await spawnFcast([COMPLETE_SYMBOLS_COMMAND], { FCAST_CONFIG_DIR: dir });
      expect(tab.stdout).not.toContain(secretPart.slice(0, 12));
      expect(tab.stdout.trimEnd().split('\n')).toEqual(cached.symbols);
    }
  });
});
