import type { Command } from 'commander';
import { action, examples, type App } from '../cli/command.js';
import { DEMO_SYMBOLS, DEFAULT_DEMO_SYMBOL } from '../core/domain.js';
import { parseDemoSymbol } from '../cli/input.js';
import { checkTimeframes, FORECAST_COLUMNS_HELP, parseTimeframeList, TF_FLAG } from '../cli/forecast-flags.js';
import { RECORD_FLAG, recordIfAsked } from '../cli/record.js';

export function register(program: Command, app: App): void {
  program
    .command('demo')
    .summary('keyless forecast for a demo symbol, 60 minutes delayed')
    .description(
      `Forecasts for one demo symbol, with no key (data delayed 60 minutes).\nSymbols: ${DEMO_SYMBOLS.join(', ')} (case-insensitive; default ${DEFAULT_DEMO_SYMBOL}).`,
    )
    .argument('[symbol]', `one of ${DEMO_SYMBOLS.join(', ')}`)
    .option(TF_FLAG[0], TF_FLAG[1], parseTimeframeList)
    .option(RECORD_FLAG[0], RECORD_FLAG[1])
    .addHelpText('after', FORECAST_COLUMNS_HELP)
    .addHelpText(
      'after',
      examples(
        ['fcast demo', 'BTC/USD as a table'],
        ['fcast demo ETH/USD --tf 1h,6h', 'only these timeframes'],
        ['fcast demo eth/usd --json | jq .price', 'the body, for scripts'],
      ),
    )
    .action(
      action(app, async (run, opts: { tf?: string[]; record?: boolean }, symbol: string | undefined) => {
        const canonical = parseDemoSymbol(symbol);
        const conn = await run.connect();
        const [{ fetchDemo, requests }, { withSpinner }] = await Promise.all([
          import('../api/endpoints.js'),
          import('../output/spinner.js'),
        ]);
        if (run.flags.dryRun) return run.dryRun(requests.demo(canonical));
        const res = await withSpinner(
          run.out,
          { json: run.flags.json, label: `fetching ${canonical}` },
          fetchDemo(conn, canonical),
        );
        checkTimeframes(opts.tf, [res.body]);
        if (run.flags.json) run.out.rawJson(res.raw);
        else {
          const [{ renderForecast }, { renderChecked }] = await Promise.all([
            import('../output/forecast-table.js'),
            import('../output/document.js'),
          ]);
          const now = run.nowSeconds();
          run.out.data(
            renderChecked(run.out, res, now, (body) => renderForecast(run.out, body, now, { tfs: opts.tf })),
          );
        }
        await recordIfAsked(run, opts.record, [{ symbol: canonical, res }]);
      }),
    );
}
