import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Argument, Command, Option } from 'commander';
import { HELP_TOPICS } from '../../src/cmdutil/help-topics.js';
import { describe, expect, it } from 'vitest';
import { COMPLETION_FILES, completionScript } from '../../src/completion/generate.js';
import { SHELLS } from '../../src/completion/names.js';
import {
  SYMBOLS_CACHE_MAX_AGE_MS,
  markRefreshStarted,
  needsRefresh,
  readSymbolsCache,
  symbolsCachePath,
  writeSymbolsCache,
} from '../../src/completion/symbols-cache.js';
import { Redactor } from '../../src/core/redact.js';
import { type CompletionNode, describeTree } from '../../src/completion/tree.js';
import { expectExit, runCli, tempDir } from '../helpers/cli.js';

describe('committed completion scripts', () => {
  for (const shell of SHELLS) {
    it(`completions/${COMPLETION_FILES[shell]} is what 'fcast completion ${shell}' prints (else: npm run build && npm run completions)`, async () => {
      const committed = readFileSync(new URL(`../../completions/${COMPLETION_FILES[shell]}`, import.meta.url), 'utf8');
      const r = await runCli(['completion', shell]);
      expectExit(r, 0);
      expect(r.stdout).toBe(committed);
    });
  }

  it('ships its templates: the installed package reads them from src/completion/', () => {
    const pack = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { encoding: 'utf8' });
    expectExit({ ...pack, code: pack.status }, 0);
    const files = (JSON.parse(pack.stdout) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(SHELLS.map((shell) => `src/completion/template.${shell}`)));
    expect(files).toEqual(expect.arrayContaining(SHELLS.map((shell) => `completions/${COMPLETION_FILES[shell]}`)));
  });

  it('does not depend on the environment of whoever generates it', async () => {
    const plain = await runCli(['completion', 'bash']);
    const other = await runCli(['completion', 'bash'], {
      env: { FCAST_BASE_URL: 'http://127.0.0.1:9', FCAST_TIMEOUT: '3', NO_COLOR: '1' },
    });
    expect(other.stdout).toBe(plain.stdout);
  });
});

/** A small tree with each feature the generator reads. */
function sampleTree(): Command {
  const root = new Command('fcast').option('--json', 'JSON out').option('--timeout <s>', 'deadline');
  root.command('demo').summary('a demo').argument('[symbol]');
  root
    .command('predict')
    .description('forecasts\nsecond line')
    .argument('<symbol...>')
    .option('--candles', 'with candles');
  root
    .command('accuracy')
    .option('--tf <tf>', 'timeframe')
    .addOption(new Option('--format <f>', 'output').choices(['table', 'markdown']))
    .option('--quiet', 'no output');
  root.command('secret', { hidden: true });
  root.command('list').alias('ls').summary('lists');
  const config = root.command('config').summary('settings');
  config.command('get').argument('<key>');
  config.command('pick').addArgument(new Argument('<color>').choices(['red', 'blue']));
  return root;
}

const has = (shell: string) => spawnSync('which', [shell]).status === 0;

const byLabel = (nodes: CompletionNode[], label: string) => nodes.find((n) => n.labels.includes(label))!;

describe('describeTree', () => {
  const nodes = describeTree(sampleTree());

  it('lists visible commands with their summaries, aliases too, and leaves hidden ones out', () => {
    const root = byLabel(nodes, '');
    expect(root.commands.map((c) => c.value)).toEqual(['demo', 'predict', 'accuracy', 'list', 'ls', 'config', 'help']);
    expect(root.commands.find((c) => c.value === 'predict')?.description).toBe('forecasts');
    expect(nodes.some((n) => n.labels.includes('secret'))).toBe(false);
    expect(byLabel(nodes, 'ls')).toBe(byLabel(nodes, 'list'));
  });

  it('gives the root options once, and each command its own', () => {
    expect(byLabel(nodes, '').options.map((o) => o.value)).toEqual(['--json', '--timeout', '-h', '--help']);
    expect(byLabel(nodes, 'predict').options.map((o) => o.value)).toEqual(['--candles']);
    expect(byLabel(nodes, '').options.find((o) => o.value === '--timeout')?.takesValue).toBe(true);
  });

  it("knows the contract's values by flag and argument, and commander's choices anywhere", () => {
    const accuracy = byLabel(nodes, 'accuracy');
    const values = (name: string) => accuracy.options.find((o) => o.value === name)?.values;
    expect(values('--tf')).toEqual({ words: expect.arrayContaining([{ value: '1h' }, { value: '1d' }]) });
    expect(values('--format')).toEqual({ words: [{ value: 'table' }, { value: 'markdown' }] });
    expect(values('--quiet')).toBeUndefined();
    expect(byLabel(nodes, 'demo').args).toEqual([
      { words: [{ value: 'BTC/USD' }, { value: 'ETH/USD' }, { value: 'EUR/USD' }] },
    ]);
    const keys = ['base-url', 'timeout', 'retries', 'max-wait', 'watchlist', 'record', 'config-dir', 'data-dir'];
    expect(byLabel(nodes, 'config get').args).toEqual([{ words: keys.map((value) => ({ value })) }]);
    expect(byLabel(nodes, 'config pick').args).toEqual([{ words: [{ value: 'red' }, { value: 'blue' }] }]);
  });

  it('repeats the last argument of a variadic command, symbols from the cache for predict', () => {
    const predict = byLabel(nodes, 'predict');
    expect(predict.args).toEqual(['symbols']);
    expect(predict.variadic).toBe(true);
  });

  it("completes `help` with its siblings' names, and the help topics at the root", () => {
    expect(byLabel(nodes, 'help').args).toEqual([
      {
        // The siblings of this test's tree, then every help topic (the topics' own list, not a copy).
        words: ['demo', 'predict', 'accuracy', 'list', 'config', ...Object.keys(HELP_TOPICS)].map((value) => ({
          value,
        })),
      },
    ]);
  });

  describe('quotes descriptions so that each shell reads them back verbatim and runs nothing', () => {
    const marker = join(tempDir(), 'ran');
    const text = `it's "quoted" $(touch ${marker}) \`touch ${marker}\` \\ back`;
    const script = (shell: (typeof SHELLS)[number]) => {
      const root = new Command('fcast');
      root.command('odd').summary(text);
      const path = join(tempDir(), shell);
      writeFileSync(path, completionScript(shell, root));
      return path;
    };
    const read = (shell: string, args: string[]) => {
      const r = spawnSync(shell, args, { encoding: 'utf8' });
      expect(existsSync(marker)).toBe(false);
      return r.stdout;
    };

    it('in bash', () => {
      const program = 'source "$1"; __fcast_spec ""; printf "%s" "$__fcast_commands"';
      expect(read('bash', ['--norc', '-c', program, 'bash', script('bash')])).toBe('odd help');
    });

    it.skipIf(!has('zsh'))('in zsh', () => {
      const program = 'compdef() { :; }; source "$1"; __fcast_spec ""; print -r -- "$__fcast_commands[1]"';
      expect(read('zsh', ['-f', '-c', program, 'zsh', script('zsh')])).toBe(`odd:${text}\n`);
    });

    it.skipIf(!has('fish'))('in fish', () => {
      const program = 'source $argv[1]; complete -C "fcast o"';
      expect(read('fish', ['--no-config', '-c', program, script('fish')])).toBe(`odd\t${text}\n`);
    });
  });
});

describe('the bash script', () => {
  it.skipIf(!has('shellcheck'))('is clean for shellcheck', async () => {
    const r = await runCli(['completion', 'bash']);
    const check = spawnSync('shellcheck', ['-'], { input: r.stdout, encoding: 'utf8' });
    expectExit({ ...check, code: check.status }, 0);
    expect(check.stdout).toBe('');
  });
});

describe('symbols cache', () => {
  it('round-trips the list, dropping anything that is not a plain symbol', () => {
    const dir = tempDir();
    expect(writeSymbolsCache(dir, ['BTC/USD', 'BRK.B/USD', '$(reboot)', 'a b', ''], new Redactor())).toBe(true);
    expect(readSymbolsCache(dir)?.symbols).toEqual(['BTC/USD', 'BRK.B/USD']);
    expect(statSync(symbolsCachePath(dir)).mode & 0o777).toBe(0o600);
  });

  it('creates the config directory private, and never throws when it cannot write', () => {
    const parent = tempDir();
    const dir = join(parent, 'fcast');
    expect(writeSymbolsCache(dir, ['BTC/USD'], new Redactor())).toBe(true);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const blocked = join(parent, 'a-file');
    writeFileSync(blocked, '');
    expect(writeSymbolsCache(join(blocked, 'fcast'), ['BTC/USD'], new Redactor())).toBe(false);
  });

  it('ignores a cache written by hand with the wrong shape', () => {
    const dir = tempDir();
    mkdirSync(dir, { recursive: true });
    writeFileSync(symbolsCachePath(dir), JSON.stringify({ symbols: [1, 'ETH/USD', { s: 'x' }] }));
    expect(readSymbolsCache(dir)?.symbols).toEqual(['ETH/USD']);
    writeFileSync(symbolsCachePath(dir), JSON.stringify(['BTC/USD']));
    expect(readSymbolsCache(dir)?.symbols).toEqual([]);
  });

  it('needs a refresh when missing or a day old, not before', () => {
    const now = Date.UTC(2026, 10, 22);
    expect(needsRefresh(undefined, now)).toBe(true);
    expect(needsRefresh({ symbols: [], modifiedMs: now - SYMBOLS_CACHE_MAX_AGE_MS + 1 }, now)).toBe(false);
    expect(needsRefresh({ symbols: [], modifiedMs: now - SYMBOLS_CACHE_MAX_AGE_MS }, now)).toBe(true);
  });

  it('marks a refresh as started so the next TABs do not start another', () => {
    const dir = tempDir();
    const now = Date.now();
    expect(markRefreshStarted(dir, undefined, now)).toBe(true);
    const created = readSymbolsCache(dir);
    expect(created?.symbols).toEqual([]);
    expect(needsRefresh(created, now)).toBe(false);

    writeSymbolsCache(dir, ['BTC/USD'], new Redactor());
    const later = now + 2 * SYMBOLS_CACHE_MAX_AGE_MS;
    expect(needsRefresh(readSymbolsCache(dir), later)).toBe(true);
    expect(markRefreshStarted(dir, readSymbolsCache(dir), later)).toBe(true);
    const touched = readSymbolsCache(dir);
    expect(touched?.symbols).toEqual(['BTC/USD']);
    expect(needsRefresh(touched, later)).toBe(false);
  });
});
