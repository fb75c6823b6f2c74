// `fcast config`: the group. Each subcommand is one file of this folder, its definition and its
// body together (list.ts, get.ts, set.ts, unset.ts, path.ts), listed below; shared.ts holds the
// keys they name. A line that names a subcommand right after `config` loads and registers that
// one alone; any other line registers them all.
import { defineCommand, type LazySubcommands } from '../../cmdutil/define.js';
import { KEY_LIST } from './shared.js';

/** The subcommands, in the order help lists them. */
const SUBCOMMANDS: LazySubcommands = [
  ['list', () => import('./list.js')],
  ['get', () => import('./get.js')],
  ['set', () => import('./set.js')],
  ['unset', () => import('./unset.js')],
  ['path', () => import('./path.js')],
];

export default defineCommand({
  name: 'config',
  summary: 'show and change settings',
  description: `Settings in the config file: ${KEY_LIST}.\nPrecedence: flag > environment variable > config file > default.`,
  flags: {},
  subcommands: SUBCOMMANDS,
  examples: [
    ['fcast config set base-url https://forecasts.example', 'remember the service'],
    ['fcast config list', 'every setting, its value and where it comes from'],
    ['fcast config get timeout', 'one value, for scripts'],
  ],
});
