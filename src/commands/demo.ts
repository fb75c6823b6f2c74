// `fcast demo [symbol]`: keyless forecasts for a demo symbol, once or as a watch.
import { isDelimited, type Run } from '../cmdutil/command.js';
import { defineCommand, type FlagValues } from '../cmdutil/define.js';
import { DEMO_SYMBOLS, DEFAULT_DEMO_SYMBOL } from '../core/domain.js';
import { parseDemoSymbol } from '../cmdutil/input.js';
import { checkTimeframes, FORECAST_VIEW, TF_FLAG } from '../cmdutil/forecast-flags.js';
import { runWatch, watchFlags, watchPlan } from '../cmdutil/watch-flags.js';
import { RECORD_FLAG, recordIfAsked } from '../cmdutil/record.js';
import type { Checked } from '../output/document.js';
import type { ForecastMarks } from '../output/forecast-table.js';
import type { Output } from '../output/io.js';
import type { FiredAlert } from '../watch/source.js';
import type { ForecastEnvelope } from '../schema/bodies.js';
import type { Fetched } from '../api/endpoints.js';

const DEMO_FLAGS = {
  tf: TF_FLAG,
  record: RECORD_FLAG,
  ...watchFlags('demo'),
};

type DemoFlags = FlagValues<typeof DEMO_FLAGS>;

export default defineCommand({
  name: 'demo',
  summary: 'keyless forecasts for a demo symbol (60 min delayed)',
  description: `Forecasts for one demo symbol, with no key (data delayed 60 minutes).\nSymbols: ${DEMO_SYMBOLS.join(', ')} (case-insensitive; default ${DEFAULT_DEMO_SYMBOL}).`,
  args: [{ name: '[symbol]', help: `one of ${DEMO_SYMBOLS.join(', ')}` }],
  flags: DEMO_FLAGS,
  ...FORECAST_VIEW,
  examples: [
    ['fcast demo', 'BTC/USD as a table'],
    ['fcast demo ETH/USD --tf 1h,6h', 'only these timeframes'],
    ['fcast demo eth/usd --json | jq .price', 'the body, for scripts'],
    ['fcast demo --watch', 'a live board, refreshed every minute'],
  ],
  run: (run, flags, symbol: string | undefined) => demo(run, flags, symbol),
});

async function demo(run: Run, opts: DemoFlags, symbol: string | undefined): Promise<number | undefined> {
  const canonical = parseDemoSymbol(symbol);
  const watch = watchPlan(run, opts, 'demo');
  const conn = await run.connect();
  const [{ fetchDemo, requests }, { withSpinner }] = await Promise.all([
    import('../api/endpoints.js'),
    import('../output/spinner.js'),
  ]);
  if (run.flags.dryRun) return run.dryRun(requests.demo(canonical));
  // The one fetch of a run, and of each refresh of a watch.
  const fetchOnce = () => fetchDemo(conn, canonical);
  // What each answer goes through before it is shown: the --tf check.
  const accept = (res: Fetched<ForecastEnvelope>) => {
    opts.tf = checkTimeframes(opts.tf, [res.body]);
    return res;
  };
  // What follows a run's (or a refresh's) output once it is written: the journal, when asked
  // (--record, or the record setting), of the timeframes shown.
  const shown = (
    answered: ReadonlyArray<{ symbol: string; fetched: Fetched<ForecastEnvelope> }>,
    alerts?: readonly FiredAlert[],
  ) => recordIfAsked(run, opts.record, answered, opts.tf, alerts);
  if (watch) {
    const render = await tableRenderer(opts);
    return runWatch(run, watch, {
      symbols: [canonical],
      fetch: async () => {
        const result = await fetchOnce().then(
          (value) => ({ status: 'fulfilled', value: accept(value) }) as const,
          (reason: unknown) => ({ status: 'rejected', reason }) as const,
        );
        return [result];
      },
      render: (out, answers, now, marks) => ({
        text: answers[0]
          ? render(out, answers[0].fetched, now, marks && (marks.get(canonical) ?? { tfs: new Map() }))
          : '',
        problems: [],
      }),
      shown,
      timeframes: () => opts.tf,
    });
  }
  const res = accept(await withSpinner(run.out, { json: run.flags.json, label: `fetching ${canonical}` }, fetchOnce()));
  if (run.flags.json) run.out.rawJson(res.raw);
  else if (isDelimited(run.format)) {
    const { forecastTable, renderRecords } = await import('../output/formats/tables.js');
    run.out.data(renderRecords(run.format, forecastTable([res.raw], opts.tf)));
  } else {
    const render = await tableRenderer(opts);
    run.out.data(render(run.out, res, run.nowSeconds()));
  }
  await shown([{ symbol: canonical, fetched: res }]);
}

/** The demo's table of a body (any other body as a document), for a run and for each frame of a watch. */
async function tableRenderer(opts: DemoFlags) {
  const [{ renderForecast }, { renderChecked }] = await Promise.all([
    import('../output/forecast-table.js'),
    import('../output/document.js'),
  ]);
  return (out: Output, res: Checked<ForecastEnvelope>, now: number, marks?: ForecastMarks) =>
    renderChecked(out, res, now, (body) => renderForecast(out, body, now, { tfs: opts.tf, marks }));
}
