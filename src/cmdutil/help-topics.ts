// `fcast help TOPIC`: what does not fit in the root help without making it a manual (as
// `gh help environment`). Each topic is laid out for the width it is shown at, at most 80.
import { settingRows } from '../config/settings.js';
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
};
