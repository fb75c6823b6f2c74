// `fcast accuracy`: the track record of one symbol or timeframe; track-record's table and checks.
import { defineCommand, valueFlag } from '../../cmdutil/define.js';
import { parseAccuracyTimeframe } from '../../cmdutil/input.js';
import { ACCURACY_TIMEFRAMES } from '../../core/domain.js';
import { EVIDENCE_FLAGS, EVIDENCE_FORMATS, EVIDENCE_HELP_NOTES } from './shared/flags.js';

export default defineCommand({
  name: 'accuracy',
  summary: 'the track record of a symbol or timeframe (no key)',
  description: `The public track record, optionally for one symbol and one timeframe; the same table, gates and --audit as 'fcast track-record'. Timeframes: ${ACCURACY_TIMEFRAMES.join(', ')}.`,
  flags: {
    tf: valueFlag('--tf <timeframe>', `only this timeframe: ${ACCURACY_TIMEFRAMES.join(', ')}`, parseAccuracyTimeframe),
    ...EVIDENCE_FLAGS,
  },
  formats: EVIDENCE_FORMATS,
  notesFirst: true,
  notes: [EVIDENCE_HELP_NOTES],
  examples: [
    ['fcast accuracy --tf 1h', 'the 1h timeframe, all symbols'],
    ['fcast accuracy --symbol BTC/USD --tf 15min', 'one symbol, one timeframe'],
    ['fcast accuracy --tf 1h --min-maturity growing_sample --min-win-rate 0.55', 'CI gate: exit 8 unless both hold'],
    ['fcast accuracy --tf 1h --audit', 'check the published interval against the counts'],
    [
      'fcast accuracy --tf 1h --baseline 1h.json --min-new-win-rate 0.5',
      'how the 1h forecasts did since 1h.json was saved',
    ],
    ['fcast accuracy --tf 1h --format markdown >> "$GITHUB_STEP_SUMMARY"', 'a Markdown table for a CI summary'],
    ['fcast accuracy --tf 1h --json | jq ".results[0].resolved_win_rate"', 'one figure, for scripts'],
  ],
  run: async (run, flags) =>
    (await import('./shared/run.js')).runEvidenceCommand(run, flags, 'accuracy', {
      symbol: flags.symbol,
      tf: flags.tf,
    }),
});
