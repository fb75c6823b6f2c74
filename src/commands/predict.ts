// `fcast predict [symbol...]`: the latest forecasts of each symbol (or the watchlist), once or as a watch.
import { isDelimited, type Run } from '../cmdutil/command.js';
import { defineCommand, flag, type FlagValues } from '../cmdutil/define.js';
import { amend, ApiError, ConfigError, FcastError, UsageError } from '../core/errors.js';
import { canonicalSymbol } from '../cmdutil/input.js';
import { checkTimeframes, FORECAST_VIEW, TF_FLAG } from '../cmdutil/forecast-flags.js';
import { runWatch, watchFlags, watchPlan } from '../cmdutil/watch-flags.js';
import { RECORD_FLAG, recordIfAsked } from '../cmdutil/record.js';
import { withSettingOrigin } from '../cmdutil/setting-origin.js';
import type { Fetched } from '../api/endpoints.js';
import type { CandleReading, ForecastEnvelope } from '../schema/bodies.js';
import type { ForecastMarks } from '../output/forecast-table.js';
import type { Output } from '../output/io.js';
import type { FiredAlert } from '../watch/source.js';

/**
 * Symbols fetched at once: a watchlist of up to 20 costs one round trip (a latency paid twice
 * is most of what 20 symbols cost over one), and a list of hundreds still opens no more than
 * 20 connections. The seed gives no rate limit for REST; a 429 is retried after the wait the
 * server asks for, within --retries and --max-wait, as for one symbol.
 */
const PARALLEL_REQUESTS = 20;

const PREDICT_FLAGS = {
  candles: flag('--candles', 'ask for the 96 recent 15min and 1h candles too (candles=1)'),
  chart: flag('--chart', 'draw the recent closes with the last price and the targets (implies --candles)'),
  tf: TF_FLAG,
  detail: flag('--detail', "with several symbols: each symbol's full table after the overview"),
  record: RECORD_FLAG,
  ...watchFlags('predict'),
};

type PredictFlags = FlagValues<typeof PREDICT_FLAGS>;

export default defineCommand({
  name: 'predict',
  summary: 'latest forecasts for symbols (needs a key)',
  description:
    'The latest forecast per timeframe for each symbol, with your key (tier free: data delayed 15 ' +
    'minutes). Symbols are BASE/QUOTE or BASE-QUOTE, any case (eur-usd is sent as EUR/USD). Several ' +
    'start with an overview, one row per symbol. Timeframes marked * have a track record.',
  args: [{ name: '[symbol...]', help: 'symbols, e.g. BTC/USD eth-usd (default: the watchlist)' }],
  flags: PREDICT_FLAGS,
  ...FORECAST_VIEW,
  examples: [
    ['fcast predict BTC/USD', 'one symbol as a table'],
    ['fcast predict btc-usd eth/usd SOL/USD', 'several: an overview, one row per symbol'],
    ['fcast predict BTC/USD --chart', 'with a chart of recent closes and where the forecasts point'],
    ['fcast predict BTC/USD ETH/USD --json | jq ".[].price.last"', 'an array of bodies, for scripts'],
    ['fcast predict BTC/USD ETH/USD --watch', 'a live board of both, refreshed every minute'],
  ],
  run: (run, flags, symbols: string[]) => predict(run, flags, symbols),
});

async function predict(run: Run, opts: PredictFlags, typed: string[]): Promise<number> {
  const symbols = typed.length > 0 ? typed.map(canonicalSymbol) : [];
  const watch = watchPlan(run, opts, 'predict');
  if (symbols.length === 0) symbols.push(...watchlist(run));
  const candles = opts.candles === true || opts.chart === true;
  const conn = await run.connect();
  // Settings checks up front, once: a missing base URL or key must stop every symbol before
  // any request goes out, not be reported once per symbol.
  conn.client.baseUrl();
  conn.client.keyFor('rest');
  const [{ fetchPredictions, requests }, { withContextHint }] = await Promise.all([
    import('../api/endpoints.js'),
    import('../api/response-errors.js'),
  ]);
  // Every request, in the order given, as one document: nothing is sent.
  if (run.flags.dryRun) return run.dryRun(...symbols.map((symbol) => requests.predictions(symbol, { candles })));

  const [{ mapSettledWithLimit }, { withSpinner }] = await Promise.all([
    import('../core/concurrency.js'),
    import('../output/spinner.js'),
  ]);
  // Each well-formed body's candles, read through the schema when they were asked for.
  const candleReadings = new WeakMap<ForecastEnvelope, CandleReading>();
  // The one fetch of a run, and of each refresh of a watch: every symbol, once, checked.
  const fetchAll = async () => {
    const results = await mapSettledWithLimit(symbols, PARALLEL_REQUESTS, (symbol) =>
      fetchPredictions(conn, symbol, { candles }).catch((err: unknown) => {
        throw forSymbol(err, symbol, withContextHint);
      }),
    );
    failOnce(results);
    opts.tf = checkTimeframes(opts.tf, answeredBodies(results));
    if (candles) await readCandlesOf(results, candleReadings);
    return results;
  };
  // What follows a run's (or a refresh's) output once it is written: the journal, when asked
  // (--record, or the record setting), of the timeframes shown.
  const shown = (
    answered: ReadonlyArray<{ symbol: string; fetched: Fetched<ForecastEnvelope> }>,
    alerts?: readonly FiredAlert[],
  ) => recordIfAsked(run, opts.record, answered, opts.tf, alerts);
  if (watch) {
    const render = await tableRenderer(opts, symbols.length > 1, candleReadings);
    return runWatch(run, watch, {
      symbols,
      fetch: fetchAll,
      render: (out, answers, now, marks) => render(out, answers, now, marks),
      shown,
      timeframes: () => opts.tf,
    });
  }
  const results = await withSpinner(
    run.out,
    { json: run.flags.json, label: `fetching ${symbols.length === 1 ? symbols[0] : `${symbols.length} symbols`}` },
    fetchAll(),
  );

  if (symbols.length === 1) {
    const only = results[0]!;
    // One symbol fails like any command: main prints the error (and its body under --json).
    if (only.status === 'rejected') throw only.reason;
  }
  const answered = results.flatMap((r, i) =>
    r.status === 'fulfilled' ? [{ symbol: symbols[i]!, fetched: r.value }] : [],
  );

  if (run.flags.json) {
    // One element per symbol given, in order: the body, the server's error body, or null when
    // no answer came, so that `.[i]` is always the i-th symbol's.
    const raws = results.map((r) =>
      r.status === 'fulfilled'
        ? r.value.raw
        : r.reason instanceof ApiError && r.reason.details.raw !== undefined
          ? r.reason.details.raw
          : 'null',
    );
    if (symbols.length === 1) run.out.rawJson(raws[0]!);
    else {
      const { jsonArrayOf } = await import('../output/json.js');
      run.out.data(jsonArrayOf(raws));
    }
  } else if (isDelimited(run.format)) {
    // One table of every symbol that answered, in the order given; the others' errors follow on stderr.
    const { forecastTable, renderRecords } = await import('../output/formats/tables.js');
    const raws = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value.raw] : []));
    if (raws.length > 0) run.out.data(renderRecords(run.format, forecastTable(raws, opts.tf)));
  } else {
    const render = await tableRenderer(opts, symbols.length > 1, candleReadings);
    const view = render(run.out, answered, run.nowSeconds());
    if (view.text !== '') run.out.data(view.text);
    for (const problem of view.problems) run.out.note(`fcast: ${problem}`);
  }

  let exitCode = 0;
  for (const r of results) {
    if (r.status !== 'rejected') continue;
    // Told as main tells one command's error: with where the setting behind it came from.
    const err = withSettingOrigin(r.reason, run.settings()) as FcastError;
    run.out.error(err);
    if (exitCode === 0) exitCode = err.exitCode;
  }
  await shown(answered);
  return exitCode;
}

/** A bug, or a refusal that concerns every symbol alike (plain http to a remote host): once, for all. */
function failOnce(results: Array<PromiseSettledResult<unknown>>): void {
  for (const r of results) {
    if (r.status === 'rejected' && (!(r.reason instanceof FcastError) || r.reason instanceof ConfigError))
      throw r.reason;
  }
}

/** Reads the candles of each well-formed answer (api/candles.ts), for the chart or the summary. */
async function readCandlesOf(
  results: Array<PromiseSettledResult<Fetched<ForecastEnvelope>>>,
  readings: WeakMap<ForecastEnvelope, CandleReading>,
): Promise<void> {
  const { readCandlesByTimeframe } = await import('../api/candles.js');
  for (const r of results) {
    if (r.status === 'fulfilled' && r.value.wellFormed)
      readings.set(r.value.body, await readCandlesByTimeframe(r.value.body.candles));
  }
}

const answeredBodies = <T>(results: Array<PromiseSettledResult<{ body: T }>>): T[] =>
  results.flatMap((r) => (r.status === 'fulfilled' ? [r.value.body] : []));

/**
 * predict's table of the symbols that answered, for a run and for each frame of a watch (with
 * its marks): bodies of the documented shape share the overview and one footer; any other is
 * shown on its own by the generic renderer (its warning was given when it was checked).
 */
async function tableRenderer(
  opts: PredictFlags,
  several: boolean,
  candleReadings: WeakMap<ForecastEnvelope, CandleReading>,
) {
  const [{ renderPredictions }, { renderChecked, renderDocument }] = await Promise.all([
    import('../output/prediction.js'),
    import('../output/document.js'),
  ]);
  const candles = opts.candles === true || opts.chart === true;
  return (
    out: Output,
    answered: ReadonlyArray<{ symbol: string; fetched: Fetched<ForecastEnvelope> }>,
    now: number,
    marks?: ReadonlyMap<string, ForecastMarks>,
  ): { text: string; problems: string[] } => {
    const shaped = answered
      .filter((a) => a.fetched.wellFormed)
      .map((a) => ({ symbol: a.symbol, body: a.fetched.body, candles: candleReadings.get(a.fetched.body) }));
    const parts: string[] = [];
    let problems: string[] = [];
    if (shaped.length > 0)
      parts.push(
        renderChecked(out, { wellFormed: true, body: shaped }, now, (bodies) => {
          const view = renderPredictions(out, bodies, now, {
            candles,
            chart: opts.chart,
            tfs: opts.tf,
            headline: opts.tf,
            several,
            // Candles and charts belong to each symbol's section: asking for them asks for the detail.
            detail: opts.detail === true || candles,
            marks,
          });
          problems = view.problems;
          return view.text;
        }),
      );
    for (const a of answered) if (!a.fetched.wellFormed) parts.push(renderDocument(out, a.fetched.body, now));
    return { text: parts.join('\n\n'), problems };
  };
}

/** The watchlist setting, for a predict given no symbol; without one, exit 2 saying how to give them. */
function watchlist(run: Run): string[] {
  const list = run.settings().watchlist;
  if (list) return list.value;
  throw new UsageError('predict needs at least one symbol, like BTC/USD', {
    hint: "give symbols, or set a watchlist: 'fcast config set watchlist BTC/USD,ETH/USD' (or FCAST_WATCHLIST)",
  });
}

/** Names the symbol in the error, since several may fail; a 404 is an unknown symbol. */
function forSymbol(err: unknown, symbol: string, withContextHint: (err: unknown, c: { symbol: true }) => unknown) {
  const told = withContextHint(err, { symbol: true });
  if (told instanceof FcastError && !(told instanceof ConfigError) && told.exitCode !== 0)
    return amend(told, { prefix: symbol });
  return told;
}
