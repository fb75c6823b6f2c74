// `fcast help TOPIC`: what does not fit in the root help without making it a manual (as
// `gh help environment`). Each topic is laid out for the width it is shown at, at most 80.
import { settingRows } from '../config/setting-flags.js';
import { ACCURACY_TIMEFRAMES } from '../core/domain.js';
import { EXIT_CODE_HELP } from '../core/errors.js';
import { helpRows, wrapHelp } from './help.js';

export interface HelpTopic {
  summary: string;
  render(width: number): string;
}

export const HELP_TOPICS: Readonly<Record<string, HelpTopic>> = {
  settings: {
    summary: 'every setting: its flag, environment variable and config key',
    render: (width) =>
      [
        wrapHelp(
          'Each setting comes from its flag, else its environment variable, else the config file ' +
            "('fcast config set KEY VALUE'), else its default. 'fcast config list' shows each value " +
            "and where it came from; 'fcast doctor' checks them.",
          0,
          width,
        ),
        '',
        helpRows(settingRows(), width),
        '',
        'Also read:',
        helpRows(
          [
            ['FCAST_CONFIG_DIR', 'where config.json lives, a private directory of yours (default ~/.config/fcast)'],
            ['FCAST_DATA_DIR', 'where the journal lives (default ~/.local/share/fcast)'],
            ['NO_COLOR', 'no colour (as --no-color)'],
            ['FORCE_COLOR', 'colour even when stdout is not a terminal (--no-color wins)'],
            [
              'HTTPS_PROXY',
              'a proxy for https:// base URLs (HTTP_PROXY for http://; NO_PROXY: hosts to reach directly)',
            ],
          ],
          width,
        ),
      ].join('\n'),
  },
  'exit-codes': {
    summary: 'what each exit code means',
    render: (width) =>
      [
        wrapHelp('Every command exits with one of these; a script can tell the failures apart by them.', 0, width),
        '',
        helpRows(
          EXIT_CODE_HELP.map(([code, meaning]) => [String(code).padStart(3), meaning]),
          width,
        ),
      ].join('\n'),
  },
  forecasts: {
    summary: "predict's and demo's output: the columns, several symbols, --json",
    render: (width) =>
      [
        wrapHelp(
          'Several symbols are fetched twenty at a time and shown in the order given. A symbol that ' +
            'fails does not hide the others: its error goes to stderr and the exit code is that of the ' +
            'first failure in the order given.',
          0,
          width,
        ),
        '',
        wrapHelp(
          'In a table, several symbols start with an overview, one row per symbol: price, 24h change, ' +
            'direction and probability of a few headline timeframes (or of those given with --tf), and ' +
            "the forecast that resolves next; --detail adds each symbol's full table after it.",
          0,
          width,
        ),
        '',
        wrapHelp(
          'With --json and several symbols, stdout is a JSON array with one element per symbol, in ' +
            "order: its body, the server's error body, or null when no answer came.",
          0,
          width,
        ),
        '',
        wrapHelp(
          `Of the timeframes shown, only ${ACCURACY_TIMEFRAMES.join(', ')} have a track record ` +
            "('fcast accuracy --tf TF'): the table marks them *. --tf takes any spelling of the same " +
            'length of time (60min is 1h).',
          0,
          width,
        ),
        '',
        'Columns of the forecast table:',
        helpRows(FORECAST_COLUMNS, width),
        wrapHelp(
          'Open forecasts first, settled ones below. A narrow terminal drops columns from the end of ' +
            'this list first, and says so; --wide keeps them all.',
          2,
          width,
        ),
      ].join('\n'),
  },
  watch: {
    summary: 'how --watch behaves: the board, its keys, piped output',
    render: (width) =>
      [
        wrapHelp(
          'On a terminal: a board on the alternate screen, redrawn in place; countdowns tick each second; ' +
            'what changed since the previous refresh is marked; keys q quit (exit 0), r refresh now (never ' +
            'sooner than --interval after the last). Ctrl-Z suspends it; fg brings it back.',
          0,
          width,
        ),
        '',
        wrapHelp(
          "Piped: each refresh's table then a blank line; with --json, one line of JSON per response " +
            "(each symbol's body, or its error body) per refresh.",
          0,
          width,
        ),
        '',
        wrapHelp(
          'A failed refresh (rate limit, unavailable) keeps the last data, marked stale, and backs off; a ' +
            'permanent error (key, unknown symbol) ends the watch with its exit code. Each request is sent ' +
            'once per refresh.',
          0,
          width,
        ),
      ].join('\n'),
  },
  alerts: {
    summary: '--watch --alert: told once when a forecast or price crosses a line',
    render: (width) =>
      [
        wrapHelp(
          '--alert EXPR (repeatable, with --watch on predict or demo) names a condition: ' +
            '[SYMBOL:][TF.][ENGINE.]FIELD OP VALUE, or [SYMBOL:][TF.]direction changes.',
          0,
          width,
        ),
        '',
        helpRows(
          [
            [
              'FIELD',
              'price (the last price), p_long, p_short, p_flat (probabilities, 0 to 1), move (the forecast move, %)',
            ],
            ['OP', '> >= < <='],
            ['TF', 'a timeframe (1h, 15min, 6h); left out: each one shown (--tf) on its own'],
            ['ENGINE', 'ia3 (the default) or ia2; ia1 gives scores only'],
            ['SYMBOL', 'only this symbol, like BTC/USD:; left out: each symbol watched on its own'],
          ],
          width,
        ),
        '',
        'Examples:',
        helpRows(
          [
            ["'price > 100000'", 'the last price goes above 100000'],
            ["'1h.p_long >= 0.7'", "ia3's 1h probability of long reaches 0.7"],
            ["'6h.ia2.p_short > 0.6'", "the same of ia2's 6h short"],
            ["'ETH/USD:1h.move <= -1.5'", "ETH/USD's 1h forecast moves 1.5% down or more"],
            ["'1h.direction changes'", "ia3's 1h call flips"],
          ],
          width,
        ),
        '',
        wrapHelp(
          'An alert fires once when its condition becomes true, and again only after a refresh shows ' +
            'it false. True at the first refresh fires too, marked "already true". A stale refresh ' +
            '(one that failed for any symbol: an outage) fires nothing. Alerts read the refreshes the watch makes: ' +
            'they send no request of their own.',
          0,
          width,
        ),
        '',
        wrapHelp(
          'On a terminal: the bell, the alert at the top of the board and listed under it with its ' +
            'time. Piped: a line on stderr (fcast: alert: BTC/USD 1h p_long 0.71 >= 0.7); with --json, ' +
            'an {"alert": {...}} line in the stream, beside the bodies.',
          0,
          width,
        ),
        '',
        wrapHelp(
          '--on-alert CMD runs CMD by the shell at each alert, with FCAST_ALERT_SYMBOL, _TF, _FIELD, ' +
            '_VALUE, _THRESHOLD, _TEXT, _RULE and _TIME set (nothing of the alert is put in the command ' +
            'line; the key variables are left out). One at a time per alert, at most 4 at once and 10 ' +
            'a minute, each ended after 30s; its output goes to stderr, never on the board; a failure ' +
            'is a warning. --exit-on-alert ends the watch with exit 0 at the first alert; --count ' +
            'still bounds it.',
          0,
          width,
        ),
      ].join('\n'),
  },
};

/** What each column of the forecast table means (`fcast help forecasts`). */
const FORECAST_COLUMNS: ReadonlyArray<readonly [string, string]> = [
  ['TF', 'timeframe'],
  ['Dir', "ia3's direction; ≠ where the target price moves the other way"],
  ['Prob', "ia3's probability of that direction"],
  ['Resolves', 'when the target time comes ("in 3h20m") or how long ago it passed'],
  ['At (UTC)', 'the target time'],
  ['Target', 'the forecast price then'],
  ['Move', 'the target against the anchor price, in %'],
  ['Conf', "ia2's confidence"],
  ['Long, Short, Flat', "ia3's probabilities"],
  ['Horizon, Age', 'how far ahead the forecast looks; how old it is'],
  ['Anchor', 'the price when the forecast was made'],
  ['Status, ia2 Δ, ia1', "piped, or --wide: the status, ia2's predicted change, ia1's score"],
];
