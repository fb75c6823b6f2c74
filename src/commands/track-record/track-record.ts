// `fcast track-record`: the public track record, per timeframe, with the CI checks of shared/.
import { defineCommand } from '../../cmdutil/define.js';
import { EVIDENCE_FLAGS, EVIDENCE_FORMATS, EVIDENCE_HELP_NOTES } from './shared/flags.js';

export default defineCommand({
  name: 'track-record',
  summary: 'the public track record, per timeframe (no key)',
  description:
    'How the current protocol cohort of forecasts settled, one row per timeframe: wins, losses, neutrals, the resolved win rate with its Wilson 95% interval, and the sample maturity. Gates and --audit turn it into a CI check (exit 8 when one fails).',
  flags: EVIDENCE_FLAGS,
  formats: EVIDENCE_FORMATS,
  notesFirst: true,
  notes: [EVIDENCE_HELP_NOTES],
  examples: [
    ['fcast track-record', 'every timeframe, all symbols'],
    ['fcast track-record --symbol eth/usd', 'one symbol'],
    [
      'fcast track-record --min-maturity early_sample --min-settled 100',
      'CI gate: exit 8 unless every timeframe passes',
    ],
    ['fcast track-record --audit', 'recompute the win rates and intervals from the counts'],
    [
      'fcast track-record --baseline tr.json --save tr.json --min-new-settled 20,4h=0,1d=0',
      'CI: nothing removed since the last run, 20 new settlements in each timeframe but 4h and 1d',
    ],
    ['fcast track-record --format markdown >> "$GITHUB_STEP_SUMMARY"', 'a Markdown table for a CI summary'],
    ['fcast track-record --json | jq ".results[] | {timeframe, resolved_win_rate}"', 'the body, for scripts'],
  ],
  run: async (run, flags) =>
    (await import('./shared/run.js')).runEvidenceCommand(run, flags, 'track-record', { symbol: flags.symbol }),
});
