// What a person sees on a terminal 60, 80 and 120 columns wide: every view fits, the least
// useful columns go first, and the snapshots show what stays.
import { describe, expect, it } from 'vitest';
import { COMMAND_LIST } from '../../src/cli/command-list.js';
import { SYMBOLS } from '../../src/mock/catalog.js';
import { displayWidth } from '../../src/output/table.js';
import { useEmulator } from '../helpers/emulator.js';

const emu = useEmulator();

const VIEWS: Array<[name: string, argv: string[]]> = [
  ['demo', ['demo']],
  ['predict', ['predict', 'ETH/USD']],
  ['predict several', ['predict', 'BTC/USD', 'ETH/USD', 'XAU/USD']],
  ['predict --candles', ['predict', 'BTC/USD', '--candles', '--tf', '15min,1h']],
  ['symbols', ['symbols']],
];

describe.each([60, 80, 120])('on a terminal %i columns wide', (columns) => {
  it.each(VIEWS)('%s fits', async (_name, argv) => {
    const r = await emu.runWithKey([...argv, '--no-color'], { tty: true, columns });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(columns);
    expect(lines.slice(-3).join('\n')).toMatch(/Source: .*\nTier: \w+ · data delayed \d+ min$/);
    expect(r.stdout).toMatchSnapshot();
  });
});

/** Every other view: each line within the width (their layouts are snapshotted elsewhere). */
const MORE_VIEWS: Array<[name: string, argv: string[]]> = [
  ['predict --chart', ['predict', 'BTC/USD', '--chart']],
  ['predict --detail', ['predict', 'BTC/USD', 'ETH/USD', '--detail']],
  ['track-record', ['track-record']],
  ['accuracy', ['accuracy', '--tf', '1h']],
  ['verify', ['verify', '1']],
  ['discover', ['discover']],
  ['cmd snapshot', ['cmd', 'snapshot']],
  ['cmd search', ['cmd', 'search', 'BTC']],
  ['cmd indicators', ['cmd', 'indicators', 'BTCUSD', '1h']],
  ['cmd analyze', ['cmd', 'analyze', 'BTCUSD', '1h']],
  ['cmd opportunities', ['cmd', 'opportunities', '5']],
  ['cmd macro', ['cmd', 'macro']],
  ['cmd calendar', ['cmd', 'calendar', 'EURUSD']],
  ['cmd events', ['cmd', 'events', 'economic']],
];

describe.each([60, 80])('every other view on a terminal %i columns wide', (columns) => {
  it.each(MORE_VIEWS)('%s fits', async (_name, argv) => {
    const r = await emu.runWithKey([...argv, '--no-color'], { tty: true, columns });
    expect(r.code, r.stderr).toBe(0);
    for (const line of r.stdout.trimEnd().split('\n')) expect([...line].length, line).toBeLessThanOrEqual(columns);
  });
});

it('piped output keeps every column, whatever COLUMNS says', async () => {
  const r = await emu.run(['demo'], { env: { COLUMNS: '40' } });
  expect(r.stdout).toMatch(
    /^TF\s+Dir\s+Prob\s+Resolves\s+At \(UTC\)\s+Target\s+Move\s+Long\s+Short\s+Flat\s+Conf\s+Horizon\s+Age\s+Anchor\s+Status\s+ia2 Δ\s+ia1$/m,
  );
});

describe('fitting says what it left out, and keeps what a view needs', () => {
  it.each([60, 80])(
    'track-record at %i columns keeps Settled, Wins, Losses, the rate and Maturity, each value whole, and says how many went',
    async (columns) => {
      const r = await emu.run(['track-record', '--no-color'], { tty: true, columns });
      expect(r.code).toBe(0);
      const lines = r.stdout.split('\n');
      for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(columns);
      const header = lines.find((l) => l.startsWith('TF '))!;
      const shown = header.split(/\s{2,}/);
      // At 60 the rate's header is short (Rate), which spares Maturity's longest value its end.
      const rate = columns === 60 ? 'Rate' : 'Win rate';
      expect(shown).toEqual([
        'TF',
        'Settled',
        'Wins',
        'Losses',
        rate,
        ...(columns === 60 ? [] : ['vs 50%']),
        'Maturity',
      ]);
      // The emulator's 4h and 1d have fewer than 30 settled: insufficient_sample, as the service says it.
      const rows = lines.filter((l) => /^(4h|1d) /.test(l));
      expect(rows).toHaveLength(2);
      for (const row of rows) expect(row).toMatch(/ {2}insufficient_sample$/);
      expect(r.stdout).not.toContain('…');
      const all = (await emu.run(['track-record', '--no-color', '--wide'], { tty: true, columns })).stdout
        .split('\n')
        .find((l) => l.startsWith('TF '))!
        .split(/\s{2,}/);
      expect(r.stderr).toBe(`fcast: ${all.length - shown.length} columns left out to fit; --wide shows them\n`);
    },
  );

  it('predict with three symbols at 60 columns says it left two out; at 160 nothing is left out, nothing said', async () => {
    const argv = ['predict', 'BTC/USD', 'ETH/USD', 'XAU/USD', '--no-color'];
    const narrow = await emu.runWithKey(argv, { tty: true, columns: 60 });
    expect(narrow.stdout.split('\n')[0]!.split(/\s{2,}/)).toEqual(['Symbol', 'Price', '15min', '1h', 'Next']);
    expect(narrow.stderr).toBe('fcast: 2 columns left out to fit; --wide shows them\n');
    const wide = await emu.runWithKey(argv, { tty: true, columns: 160 });
    expect(wide.stderr).toBe('');
    const piped = await emu.runWithKey(argv, { columns: 60 });
    expect(piped.stderr).toBe('');
  });

  it('journal list at 60 columns keeps the time of day of the target time', async () => {
    const recorded = await emu.runWithKey(['predict', 'BTC/USD', 'ETH/USD', '--record']);
    expect(recorded.code).toBe(0);
    const r = await emu.runWithKey(['journal', 'list', '--tf', '1h', '--no-color'], {
      tty: true,
      columns: 60,
      configDir: recorded.configDir,
    });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toContain('Target (UTC)');
    expect(lines.slice(1)).toHaveLength(2);
    for (const line of lines.slice(1)) expect(line).toMatch(/^\S+\s+1h\s+\d{4}-\d\d-\d\d \d\d:\d\d\s/);
    expect(r.stderr).toMatch(/^fcast: \d columns left out to fit; --wide shows them\n$/);
  });
});

/** Every symbol the emulator knows, with and without its slash (the gateway's BTCUSD). */
const SYMBOL_NAMES = SYMBOLS.flatMap((s) => [s.symbol, s.symbol.replace('/', '')]);
/** A symbol cut short: the start of one, then the ellipsis, where a cell begins. */
const cutSymbol = (text: string): string | undefined =>
  SYMBOL_NAMES.flatMap((name) =>
    Array.from({ length: name.length - 1 }, (_, i) => `${name.slice(0, i + 1)}…`).filter((cut) =>
      new RegExp(`(^|\\s)${cut.replace(/[/.*+?^${}()|[\]\\]/g, '\\$&')}`, 'm').test(text),
    ),
  )[0];

/** The words of a text, ellipses taken off: what a reader can find in it. */
const words = (text: string) => new Set(text.split(/\s+/).map((w) => w.replace(/…$/, '')));

describe('the rule of every table view: no symbol cut, nothing wider than the terminal, what is left out said', () => {
  let journal: string;
  const ALL: Array<[name: string, argv: string[]]> = [
    ...VIEWS,
    ...MORE_VIEWS,
    ['config list', ['config', 'list']],
    ['journal list', ['journal', 'list']],
    ['journal report', ['journal', 'report', '--offline']],
  ];
  it('covers every command that prints a table', () => {
    // Derived from the tree: each top-level command is in the list above, or prints no table.
    const NO_TABLE = new Set(['register', 'auth', 'completion', 'doctor', 'mock', 'help', 'api', 'mcp']);
    const covered = new Set(ALL.map(([, argv]) => argv[0]));
    const missing = COMMAND_LIST.filter((c) => !c.hidden && !covered.has(c.name) && !NO_TABLE.has(c.name));
    expect(missing.map((c) => c.name)).toEqual([]);
  });

  describe.each([60, 80, 160])('at %i columns', (columns) => {
    it.each(ALL)('%s', async (_name, argv) => {
      journal ??= (await emu.runWithKey(['predict', 'BTC/USD', 'ETH/USD', '--record'])).configDir;
      const run = (width: number) =>
        emu.runWithKey([...argv, '--no-color'], { tty: true, columns: width, configDir: journal });
      const r = await run(columns);
      expect(r.code, r.stderr).toBe(0);
      const over = r.stdout.split('\n').filter((line) => displayWidth(line) > columns);
      expect(over, `wider than ${columns}`).toEqual([]);
      expect(cutSymbol(r.stdout), r.stdout).toBeUndefined();
      // What a terminal wide enough shows and this one does not: a column left out (said), or a
      // cell cut (an ellipsis). (Columns a terminal shows only with --wide are the view's choice.)
      const wide = await run(1000);
      const shown = words(r.stdout);
      // (A chart is drawn to the width: its strokes are no words.)
      const lost = [...words(wide.stdout)].filter((w) => !shown.has(w) && /[A-Za-z0-9]/.test(w));
      if (lost.length > 0) expect(`${r.stdout}${r.stderr}`, lost.join(' ')).toMatch(/left out to fit|…/);
    });
  });
});
