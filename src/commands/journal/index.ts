// `fcast journal`: the group and its seven subcommands' flags and help (the command tree, which
// help and completion read). Each subcommand's body is its own module in this folder (settle.ts,
// report.ts, list.ts, export.ts, import.ts, path.ts, prune.ts), loaded by one dynamic import
// when it runs, so building the tree loads nothing heavy; a body imports what it uses statically.
// A line that names a subcommand right after `journal` registers that one alone (its help, its
// parse and its errors read nothing of the others); any other line registers all seven.
import type { Command } from 'commander';
import { action, addSubcommands, examples, type App, type Subcommands } from '../../cmdutil/command.js';
import { helpNotes } from '../../cmdutil/help.js';
import { parseChoice } from '../../cmdutil/input.js';
import {
  addFilterFlags,
  addGateFlags,
  DEFAULT_BINS,
  FLAT_BAND_OPTION,
  ORIGIN_OPTION,
  parseBins,
  parseInstantFlag,
  parseOriginFlag,
} from '../../cmdutil/journal-flags.js';
import type { ExportFlags } from './export.js';
import type { ListFlags } from './list.js';
import type { ReportFlags } from './report.js';
import type { SettleFlags } from './settle.js';

/**
 * `rest` is what the line holds after `journal` (program.ts); without it, the whole group
 * (completion, `fcast help journal`, an unknown or missing subcommand, `journal --help`).
 */
export function register(program: Command, app: App, rest?: readonly string[]): void {
  addSubcommands(journalCommand(program), app, SUBCOMMANDS, rest);
}

function journalCommand(program: Command): Command {
  return program
    .command('journal')
    .helpCommand(false)
    .summary('the forecasts you were shown: settle them, score them, export them')
    .description(
      'The journal holds every forecast shown by a command run with --record (or with the record ' +
        "setting, FCAST_RECORD=1), with the price observations, in FCAST_DATA_DIR. 'fcast journal settle' settles " +
        "the forecasts whose target time has passed by the rule in docs/journal.md; 'fcast journal report' scores " +
        'them per timeframe (hit rate, Brier scores and their decomposition, log loss, reliability) ' +
        "beside the service's published record.",
    )
    .addHelpText(
      'after',
      examples(
        ['fcast predict BTC/USD --record', 'record what is shown'],
        ['fcast journal settle', 'settle what is due'],
        ['fcast journal report', 'scores per timeframe'],
        ['fcast journal report --json | jq .timeframes', 'as JSON'],
        ['fcast journal report --offline --min-settled 30', 'a CI gate (exit 8)'],
      ),
    );
}

function settle(journal: Command, app: App): void {
  addFilterFlags(
    journal
      .command('settle')
      .summary('settle the forecasts whose target time has passed')
      .description(
        "Settles every recorded forecast whose target time has passed by the server's clock: the close at " +
          'target_t from the 15min/1h candles (one predictions.php?candles=1 request per symbol, with your ' +
          'key), or a recorded price taken at most 900 s after target_t; never a price from before it. What ' +
          'the data can no longer settle is marked unsettleable and counted.',
      ),
  )
    .addOption(FLAT_BAND_OPTION())
    .option(
      '--adopt-unknown-origin',
      "also settle the forecasts recorded before fcast kept origins, with this base URL's prices (say so only if they came from it)",
    )
    .addHelpText(
      'after',
      examples(
        ['fcast journal settle', 'settle what is due'],
        ['fcast journal settle --symbol BTC/USD --json', 'one symbol; JSON counts'],
      ),
    )
    .action(action(app, async (run, opts: SettleFlags) => (await import('./settle.js')).settle(run, opts)));
}

function report(journal: Command, app: App): void {
  addGateFlags(
    addFilterFlags(
      journal
        .command('report')
        .summary('scores, reliability and the service beside them, per timeframe')
        .description(
          'Per timeframe: settled forecasts, wins/losses/neutrals, the hit rate (wins over wins and losses) ' +
            'with its Wilson 95% interval, the 3-class Brier score and its skill, the log loss, and for the ' +
            "called direction's probability against a win the Brier score with its decomposition (reliability, " +
            'resolution, uncertainty, within-bin variance and covariance) and a reliability table and chart; ' +
            "beside them the service's published resolved win rate (one track-record request per symbol, " +
            'none with --offline).',
        ),
    ),
  )
    .addOption(ORIGIN_OPTION())
    .option('--bins <n>', `reliability bins over [0, 1] (default ${DEFAULT_BINS})`, parseBins)
    .addOption(FLAT_BAND_OPTION())
    .option('--offline', "no track-record requests: the service's figures are left out")
    .option(
      '--no-annotations',
      'under GitHub Actions (GITHUB_ACTIONS=true): no ::error/::warning lines on stderr, no step summary',
    )
    .addHelpText(
      'after',
      examples(
        ['fcast journal report', 'with charts'],
        ['fcast journal report --symbol BTC/USD --tf 1h', 'one slice'],
        ['fcast journal report --format markdown', 'for a CI summary'],
        ['fcast journal report --offline --max-brier 0.25', 'a gate (exit 8)'],
      ),
    )
    .addHelpText(
      'after',
      helpNotes(
        'Gates (exit 8 when a timeframe fails one)',
        'A figure equal to the threshold passes; a null one fails; a report with no timeframes fails each gate once.',
      ),
    )
    .action(
      action(app, async (run, opts: ReportFlags) => (await import('./report.js')).report(run, opts), {
        formats: ['table', 'json', 'markdown', 'csv', 'tsv'],
      }),
    );
}

function list(journal: Command, app: App): void {
  addFilterFlags(
    journal
      .command('list')
      .summary('the recorded forecasts, one row each')
      .description('The recorded forecasts with their settlement, one row each.'),
  )
    .option(
      '--status <status,...>',
      'only open, settled or unsettleable ones (comma-separated)',
      (raw: string, previous: string[] = []) => [
        ...previous,
        ...raw.split(',').map((s) => parseChoice(s, ['open', 'settled', 'unsettleable'] as const, '--status')),
      ],
    )
    .option('--alerts', 'the alerts a watch noted instead (--watch --alert --record)')
    .addOption(ORIGIN_OPTION())
    .addOption(FLAT_BAND_OPTION())
    .addHelpText(
      'after',
      examples(
        ['fcast journal list --status open', 'what is still to settle'],
        ['fcast journal list --tf 1h --format csv', 'for a spreadsheet'],
      ),
    )
    .action(
      action(app, async (run, opts: ListFlags) => (await import('./list.js')).list(run, opts), {
        formats: ['table', 'json', 'csv', 'tsv', 'markdown'],
      }),
    );
}

function exportCommand(journal: Command, app: App): void {
  addFilterFlags(
    journal
      .command('export')
      .summary('every forecast with its settlement, as CSV or JSON Lines')
      .description(
        'Every recorded forecast with its settlement, one row each, on stdout: CSV (the columns of the ' +
          'contract in its order, then extras with ISO twins of the times) or JSON Lines (--format jsonl).',
      ),
  )
    .addOption(ORIGIN_OPTION())
    .addOption(FLAT_BAND_OPTION())
    .option(
      '--prices',
      "with --format jsonl: also the recorded price observations, as the journal's own lines after each month's rows (what an import into an empty journal needs to give every record back)",
    )
    .addHelpText(
      'after',
      examples(
        ['fcast journal export > journal.csv', 'everything, as CSV'],
        ['fcast journal export --format jsonl', 'JSON Lines'],
        ['fcast journal export --format jsonl --prices > journal.jsonl', 'every record, prices too'],
      ),
    )
    .action(
      action(app, async (run, opts: ExportFlags) => (await import('./export.js')).exportRows(run, opts), {
        formats: ['csv', 'tsv', 'jsonl'],
      }),
    );
}

function importCommand(journal: Command, app: App): void {
  journal
    .command('import')
    .summary('merge an export into the journal')
    .description(
      'Merges an export (CSV with the export columns in any order, others ignored; or its JSON Lines) ' +
        'into the journal, without duplicates; --dry-run counts what it would add without writing.',
    )
    .argument('<file>', 'a file written by fcast journal export, or - for stdin')
    .option(
      '--origin <url|unknown>',
      'the service of the rows that name none (an export from before fcast kept origins); default unknown',
      (raw: string) => parseOriginFlag(raw, ['unknown']),
    )
    .addHelpText(
      'after',
      examples(
        ['fcast journal import journal.csv', 'merge an export'],
        ['fcast journal import journal.jsonl --json', 'the counts as JSON'],
        ['fcast journal export | FCAST_DATA_DIR=copy fcast journal import -', 'from stdin'],
      ),
    )
    .action(
      action(app, async (run, opts: { origin?: string }, file: string) =>
        (await import('./import.js')).importFile(run, file, opts.origin),
      ),
    );
}

function path(journal: Command, app: App): void {
  journal
    .command('path')
    .summary('where the journal is')
    .description('The journal directory (in FCAST_DATA_DIR, else the OS data directory).')
    .addHelpText(
      'after',
      examples(
        ['fcast journal path', 'where the month files are'],
        ['jq -c .symbol "$(fcast journal path)"/*.jsonl', 'read it with jq'],
      ),
    )
    .action(action(app, async (run) => (await import('./path.js')).path(run)));
}

function prune(journal: Command, app: App): void {
  journal
    .command('prune')
    .summary('remove the records dated before a date')
    .description(
      'Removes the records dated before DATE (a forecast and its settlement by its ts, a price by its t); ' +
        '--dry-run counts them without removing anything.',
    )
    .requiredOption('--before <date>', 'ISO 8601 time or epoch seconds', (raw: string) =>
      parseInstantFlag(raw, '--before'),
    )
    .addHelpText(
      'after',
      examples(
        ['fcast journal prune --before 2026-01-01 --dry-run', 'count only'],
        ['fcast journal prune --before 2026-01-01', 'remove it'],
      ),
    )
    .action(action(app, async (run, opts: { before: number }) => (await import('./prune.js')).prune(run, opts.before)));
}

/** The subcommands, in the order help lists them. */
const SUBCOMMANDS: Subcommands = [
  ['settle', settle],
  ['report', report],
  ['list', list],
  ['export', exportCommand],
  ['import', importCommand],
  ['path', path],
  ['prune', prune],
];
