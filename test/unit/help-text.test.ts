import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { examples, helpNotes, helpRows, wrapHelp } from '../../src/cmdutil/help.js';
import { closest } from '../../src/cmdutil/input.js';

/** Commander's context for help shown on a terminal `columns` wide. */
const at = (columns: number) => ({
  error: false,
  command: new Command().configureOutput({ getOutHelpWidth: () => columns }),
});
const widest = (text: string) => Math.max(...text.split('\n').map((l) => [...l].length));

describe('help text', () => {
  it('wraps prose between words, within the width, keeping a line’s own indent', () => {
    const text = wrapHelp('one two three four five six seven eight nine ten', 2, 20);
    expect(text).toBe('  one two three four\n  five six seven\n  eight nine ten');
    expect(wrapHelp('label:\n  a command with words', 2, 16)).toBe('  label:\n    a command\n    with words');
  });

  it('rows keep a hanging indent under their text', () => {
    expect(helpRows([['3', 'auth or config: no base URL or key, malformed key']], 30)).toBe(
      '  3  auth or config: no base\n     URL or key, malformed key',
    );
  });

  it('examples: the comment, then the command; a long command carried over with \\ between words, quotes kept whole', () => {
    const help = examples(
      ['fcast demo', 'the demo'],
      ['fcast track-record --json | jq ".results[] | {timeframe, resolved_win_rate}" --and-more', 'for scripts'],
    );
    const text = help(at(80));
    expect(text).toBe(
      '\nExamples:\n  # the demo\n  $ fcast demo\n\n  # for scripts\n' +
        '  $ fcast track-record --json | jq \\\n      ".results[] | {timeframe, resolved_win_rate}" --and-more',
    );
    expect(widest(text)).toBeLessThanOrEqual(80);
    expect(widest(help(at(60)))).toBeLessThanOrEqual(60);
    // Wider terminals still get 80 columns: prose reads best there.
    expect(help(at(160))).toBe(text);
  });

  it('notes fit the terminal, at most 80 columns', () => {
    const notes = helpNotes('Title', 'word '.repeat(60).trim());
    expect(widest(notes(at(60)))).toBeLessThanOrEqual(60);
    expect(widest(notes(at(200)))).toBeLessThanOrEqual(80);
  });
});

describe('closest: the value a typo most likely meant', () => {
  it.each([
    ['btc', ['BTC/USD', 'ETH/USD', 'EUR/USD'], 'BTC/USD'],
    ['btcusd', ['BTC/USD', 'ETH/USD', 'EUR/USD'], 'BTC/USD'],
    ['eur-usd', ['BTC/USD', 'ETH/USD', 'EUR/USD'], 'EUR/USD'],
    ['1hr', ['15min', '1h', '4h', '1d'], '1h'],
    ['grow', ['insufficient_sample', 'early_sample', 'growing_sample'], 'growing_sample'],
    ['tmeout', ['base-url', 'timeout', 'retries'], 'timeout'],
    ['analyse', ['analyze', 'macro'], 'analyze'],
    ['bsh', ['bash', 'zsh', 'fish'], 'bash'],
    ['opportunity', ['opportunities', 'macro', 'events'], 'opportunities'],
    ['slw', ['429', 'slow', 'shrink'], 'slow'],
  ])('%s -> %s', (typed, allowed, expected) => {
    expect(closest(typed, allowed)).toBe(expected);
  });

  it.each([
    ['xau', ['BTC/USD', 'ETH/USD', 'EUR/USD']],
    ['e', ['BTC/USD', 'ETH/USD', 'EUR/USD']],
    ['completely-else', ['bash', 'zsh', 'fish']],
    ['', ['bash']],
    // Two words with the same long start: no guess between them.
    ['opportun', ['opportunities', 'opportunists']],
  ])('%s -> nothing', (typed, allowed) => {
    expect(closest(typed, allowed)).toBeUndefined();
  });
});
