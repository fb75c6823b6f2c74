// `fcast journal`: the group. Each subcommand is one file of this folder, its definition (flags,
// help) and its body together (settle.ts, report.ts, compare.ts, list.ts, export.ts, import.ts, path.ts,
// prune.ts), listed below. A line that names a subcommand right after `journal` loads and
// registers that one alone (its help, its parse and its errors read nothing of the others);
// any other line registers them all.
import { docsPointer } from '../../core/docs-pointer.js';
import { defineCommand, type LazySubcommands } from '../../cmdutil/define.js';

/** The subcommands, in the order help lists them. */
const SUBCOMMANDS: LazySubcommands = [
  ['settle', () => import('./settle.js')],
  ['report', () => import('./report.js')],
  ['compare', () => import('./compare.js')],
  ['list', () => import('./list.js')],
  ['export', () => import('./export.js')],
  ['import', () => import('./import.js')],
  ['path', () => import('./path.js')],
  ['prune', () => import('./prune.js')],
];

export default defineCommand({
  name: 'journal',
  summary: 'settle, score and export the forecasts you were shown',
  description:
    'The journal holds every forecast shown by a command run with --record (or with the record ' +
    "setting, FCAST_RECORD=1), with the price observations, in FCAST_DATA_DIR. 'fcast journal settle' settles " +
    `the forecasts whose target time has passed by the rule in ${docsPointer('journal.md')}; 'fcast journal report' scores ` +
    'them per timeframe (hit rate, Brier scores and their decomposition, log loss, reliability) ' +
    "beside the service's published record; 'fcast journal compare' compares the engines ia2 and ia3 on them.",
  flags: {},
  helpCommand: false,
  subcommands: SUBCOMMANDS,
  examples: [
    ['fcast predict BTC/USD --record', 'record what is shown'],
    ['fcast journal settle', 'settle what is due'],
    ['fcast journal report', 'scores per timeframe'],
    ['fcast journal report --json | jq .timeframes', 'as JSON'],
    ['fcast journal report --offline --min-settled 30', 'a CI gate (exit 8)'],
  ],
});
