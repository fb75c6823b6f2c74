// Every command's --help: a summary, its arguments and flags, at least one realistic example;
// the root help lists the settings' environment variables and the exit codes. The whole help
// text is snapshot-tested, so a change to it is a reviewed change.
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import type { App } from '../../src/cmdutil/command.js';
import { HELP_TOPICS } from '../../src/cmdutil/help-topics.js';
import { buildProgram } from '../../src/cli/program.js';
import { runCli } from '../helpers/cli.js';

async function commandPaths(): Promise<string[][]> {
  const sink = { write: () => true };
  const program = await buildProgram({
    ctx: { version: '0.0.0', io: { stdout: sink, stderr: sink } } as unknown as App['ctx'],
    setExitCode: () => undefined,
  });
  const paths: string[][] = [];
  const walk = (cmd: Command, prefix: string[]) => {
    for (const sub of cmd.commands) {
      if ((sub as unknown as { _hidden?: boolean })._hidden) continue;
      const path = [...prefix, sub.name()];
      paths.push(path);
      walk(sub, path);
    }
  };
  walk(program, []);
  return paths;
}

const paths = await commandPaths();

describe('help', () => {
  it('the root help lists the commands and the help topics, on stdout, in at most 52 lines', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    for (const path of paths.filter((p) => p.length === 1))
      expect(r.stdout).toMatch(new RegExp(`^  ${path[0]}\\b`, 'm'));
    expect(r.stdout).toMatch(/^Help topics \('fcast help TOPIC'\):\n {2}settings {4}\S.*\n {2}exit-codes {2}\S/m);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(
      "the reference: reference.md in fcast's installed docs (~/.local/lib/node_modules/fcast/docs, or 'man fcast')",
    );
    expect(r.stdout).not.toContain('repository');
    // 50 before api, mcp and the alerts topic; a screen still holds it.
    expect(r.stdout.trimEnd().split('\n').length).toBeLessThanOrEqual(52);
  });

  it("'fcast help settings' gives every setting's environment variable and config key", async () => {
    const r = await runCli(['help', 'settings']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    for (const name of [
      'FCAST_BASE_URL',
      'FCAST_API_KEY',
      'FCAST_GATEWAY_KEY',
      'FCAST_TIMEOUT',
      'FCAST_RETRIES',
      'FCAST_MAX_WAIT',
      'FCAST_WATCHLIST',
      'FCAST_RECORD',
      'FCAST_CONFIG_DIR',
      'FCAST_DATA_DIR',
      'NO_COLOR',
      'FORCE_COLOR',
      'HTTPS_PROXY',
    ]) {
      expect(r.stdout).toContain(name);
    }
    expect(r.stdout).toMatch(/config keys +base-url, timeout, retries, max-wait/);
  });

  it("'fcast help exit-codes' gives every exit code", async () => {
    const r = await runCli(['help', 'exit-codes']);
    expect(r.code).toBe(0);
    for (const code of [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 130])
      expect(r.stdout).toMatch(new RegExp(`^\\s+${code}  \\S`, 'm'));
  });

  it.each(['predict', 'demo'])(
    'fcast %s --help fits in about 50 lines and names, in one line, the topics with the rest',
    async (name) => {
      const r = await runCli([name, '--help']);
      expect(r).toMatchObject({ code: 0, stderr: '' });
      expect(r.stdout.trimEnd().split('\n').length).toBeLessThanOrEqual(50);
      expect(r.stdout).toContain("\nMore: 'fcast help forecasts' (columns, symbols, --json), 'fcast help watch'.\n");
      expect(r.stdout).not.toContain('Columns of the forecast table');
    },
  );

  it("'fcast help forecasts' and 'fcast help watch' give what predict's help left out", async () => {
    const forecasts = await runCli(['help', 'forecasts']);
    expect(forecasts).toMatchObject({ code: 0, stderr: '' });
    expect(forecasts.stdout).toMatch(/^Columns of the forecast table:\n {2}TF {18}timeframe$/m);
    expect(forecasts.stdout).toMatch(/^ {2}Move {16}\S/m);
    const prose = forecasts.stdout.replace(/\s+/g, ' ');
    expect(prose).toContain('stdout is a JSON array with one element per symbol');
    expect(prose).toMatch(/only 1min, 5min, .* have a track record/);
    const watch = await runCli(['help', 'watch']);
    expect(watch).toMatchObject({ code: 0, stderr: '' });
    expect(watch.stdout.replace(/\s+/g, ' ')).toContain('keys q quit (exit 0), r refresh now');
    expect(watch.stdout.replace(/\s+/g, ' ')).toContain('marked stale');
  });

  it("'fcast help' gives text only: --json is exit 2 naming the one format it gives, nothing on stdout", async () => {
    for (const argv of [
      ['help', 'exit-codes', '--json'],
      ['--json', 'help'],
    ]) {
      const r = await runCli(argv);
      expect(r).toMatchObject({ code: 2, stdout: '' });
      expect(r.stderr).toMatch(/^fcast: help gives --format table, not 'json'/);
    }
  });

  it("'fcast help COMMAND' is the command's --help; an unknown topic is exit 2 with the likely one", async () => {
    const viaHelp = await runCli(['help', 'auth', 'login']);
    const viaFlag = await runCli(['auth', 'login', '--help']);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toBe(viaFlag.stdout);
    const typo = await runCli(['help', 'setings']);
    expect(typo.code).toBe(2);
    expect(typo.stdout).toBe('');
    expect(typo.stderr).toMatch(/^fcast: no command or help topic 'setings'; did you mean 'settings'\?\n {2}hint: /);
    // Names every object inherits are no topics either.
    for (const word of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const r = await runCli(['help', word]);
      expect(r.code, word).toBe(2);
      expect(r.stderr, word).toContain(`no command or help topic '${word}'`);
    }
  });

  it('covers every command of the tree', () => {
    expect(paths.map((p) => p.join(' '))).toEqual(
      expect.arrayContaining([
        'demo',
        'predict',
        'register',
        'auth login',
        'auth status',
        'auth logout',
        'config set',
        'track-record',
        'accuracy',
        'verify',
        'cmd',
        'cmd analyze',
        'api',
        'completion',
        'doctor',
        'mock',
      ]),
    );
  });

  it.each(paths.map((p) => [p.join(' '), p]))(
    'fcast %s --help has a summary, usage and examples',
    async (_name, path) => {
      const r = await runCli([...(path as string[]), '--help']);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      const lines = r.stdout.split('\n');
      expect(lines[0]).toMatch(new RegExp(`^Usage: fcast ${(path as string[]).join(' ')}\\b`));
      expect(lines[2]?.trim().length).toBeGreaterThan(10); // the description
      expect(r.stdout).toMatch(/^Examples:\n {2}# .+\n {2}\$ .*\bfcast /m);
      expect(r.stdout).not.toMatch(/not yet available/);
    },
  );

  // Walks the tree, so a command added later is held to it too.
  it.each([
    ['a terminal 80 columns wide', { tty: true, columns: 80 }, 80],
    ['a pipe', {}, 80],
    ['a terminal 160 columns wide', { tty: true, columns: 160 }, 80],
    ['a terminal 60 columns wide', { tty: true, columns: 60 }, 60],
  ])('every help page and topic fits on %s', async (_name, opts, width) => {
    const pages = [...[[], ...paths].map((p) => [...p, '--help']), ...Object.keys(HELP_TOPICS).map((t) => ['help', t])];
    for (const argv of pages) {
      const r = await runCli(argv, { ...opts, env: { NO_COLOR: '1' } });
      expect(r.code, argv.join(' ')).toBe(0);
      for (const line of r.stdout.split('\n'))
        expect([...line].length, `fcast ${argv.join(' ')}: ${line}`).toBeLessThanOrEqual(width);
    }
  });

  it.each([80, 60])(
    'every description wraps as prose at %i columns: no line ends where the next word would fit',
    async (width) => {
      for (const path of [[], ...paths]) {
        const r = await runCli([...path, '--help'], { tty: true, columns: width, env: { NO_COLOR: '1' } });
        const lines = r.stdout.split('\n');
        // The description: from the line after Usage's blank line to the next blank line.
        const description = lines.slice(2, lines.indexOf('', 2));
        for (const [i, line] of description.slice(0, -1).entries()) {
          const next = description[i + 1]!.trim().split(' ')[0]!;
          // A line that ends a sentence may end a paragraph early.
          if (/[.:]$/.test(line)) continue;
          expect(
            [...line].length + 1 + [...next].length,
            `fcast ${path.join(' ')}: '${line}' then '${next}'`,
          ).toBeGreaterThan(width);
        }
      }
    },
  );

  it("no help page shows commander's stock lines or Markdown: every command of the tree, every topic", async () => {
    // The tree's own commands (commandPaths walks it), not a list kept by hand.
    expect(paths.length).toBeGreaterThan(20);
    const pages = [...[[], ...paths].map((p) => [...p, '--help']), ...Object.keys(HELP_TOPICS).map((t) => ['help', t])];
    // Commander's own help command and its option's wording (fcast's root has a help command of its own).
    const STOCK = [/^\s+help \[command\]/m, /display help for command/];
    const MARKDOWN = [/`/, /\*\*/, /\[[^\]]+\]\([^)]+\)/];
    for (const argv of pages) {
      const r = await runCli(argv, { env: { NO_COLOR: '1' } });
      expect(r.code, argv.join(' ')).toBe(0);
      for (const rule of [...STOCK, ...MARKDOWN])
        expect(r.stdout, `fcast ${argv.join(' ')}: ${rule}`).not.toMatch(rule);
    }
  });

  it('matches the reviewed help text of every command', async () => {
    const texts: string[] = [];
    for (const path of [[], ...paths]) {
      const r = await runCli([...path, '--help']);
      texts.push(`$ fcast ${[...path, '--help'].join(' ')}\n${r.stdout}`);
    }
    await expect(texts.join('\n')).toMatchFileSnapshot('__snapshots__/help.txt');
  });
});
