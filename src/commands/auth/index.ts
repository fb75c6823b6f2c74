// `fcast auth`: the group. Each subcommand is one file of this folder, its definition (flags,
// help) and its body together (login.ts, status.ts, logout.ts), listed below. A line that names
// a subcommand right after `auth` loads and registers that one alone; any other line registers them all.
import { defineCommand, type LazySubcommands } from '../../cmdutil/define.js';

/** The subcommands, in the order help lists them. */
const SUBCOMMANDS: LazySubcommands = [
  ['login', () => import('./login.js')],
  ['status', () => import('./status.js')],
  ['logout', () => import('./logout.js')],
];

export default defineCommand({
  name: 'auth',
  summary: 'store, show and remove API keys',
  description:
    'Store a key you already have (auth login), see which keys are in use and where they come from (auth ' +
    'status), or remove a stored key (auth logout). Keys are read from stdin or a hidden prompt, never ' +
    'from arguments, and are only ever shown masked.',
  flags: {},
  subcommands: SUBCOMMANDS,
  examples: [
    ['fcast auth login < key.txt', 'store the REST key kept in a file'],
    ['fcast auth status --check', 'which keys are used, and does the REST key work?'],
    ['fcast auth logout --yes', 'remove the stored REST key without asking'],
  ],
});
