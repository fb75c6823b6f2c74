import type { Command } from 'commander';
import { action, examples, type App, type Run } from '../command.js';
import { amend, ApiError, ConfigError, FcastError } from '../errors.js';
import { canonicalSymbol } from '../input.js';

interface PredictFlags {
  candles?: boolean;
  chart?: boolean;
}

/** Symbols fetched at once: quick for a watchlist, gentle on the rate limit. */
const PARALLEL_REQUESTS = 4;

export function register(program: Command, app: App): void {
  program
    .command('predict')
    .summary('latest forecasts for one or more symbols (needs a key)')
    .description(
      'The latest forecast per timeframe for each symbol, with your key (tier free: data delayed 15 ' +
        'minutes). Symbols are BASE/QUOTE or BASE-QUOTE, any case (eur-usd is sent as EUR/USD); several are ' +
        'fetched four at a time and shown in the order given. A symbol that fails does not hide the others: ' +
        'its error goes to stderr and the exit code is that of the first failure in the order given. With ' +
        '--json and several symbols, stdout is a JSON array with one element per symbol, in order: its body, ' +
        "the server's error body, or null when no answer came.",
    )
    .argument('<symbol...>', 'one or more symbols, e.g. BTC/USD eth-usd')
    .option('--candles', 'ask for the 96 recent 15min and 1h candles too (candles=1)', false)
    .option('--chart', 'draw the recent closes with the last price and the targets (implies --candles)', false)
    .addHelpText(
      'after',
      examples(
        ['fcast predict BTC/USD', 'one symbol as a table'],
        ['fcast predict btc-usd eth/usd SOL/USD', 'several, fetched concurrently, shown in this order'],
        ['fcast predict BTC/USD --chart', 'with a chart of recent closes and where the forecasts point'],
        ['fcast predict BTC/USD ETH/USD --json | jq ".[].price.last"', 'an array of bodies, for scripts'],
      ),
    )
    .action(action(app, (run, opts: PredictFlags, symbols: string[]) => predict(run, opts, symbols)));
}

async function predict(run: Run, opts: PredictFlags, typed: string[]): Promise<number> {
  const symbols = typed.map(canonicalSymbol);
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

  const { mapSettledWithLimit } = await import('../concurrency.js');
  const results = await mapSettledWithLimit(symbols, PARALLEL_REQUESTS, (symbol) =>
    fetchPredictions(conn, symbol, { candles }).catch((err: unknown) => {
      throw forSymbol(err, symbol, withContextHint);
    }),
  );

  if (symbols.length === 1) {
    const only = results[0]!;
    // One symbol fails like any command: main prints the error (and its body under --json).
    if (only.status === 'rejected') throw only.reason;
  }
  for (const r of results) {
    // A bug, or a refusal that concerns every symbol alike (plain http to a remote host): once.
    if (r.status === 'rejected' && (!(r.reason instanceof FcastError) || r.reason instanceof ConfigError))
      throw r.reason;
  }

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
  } else {
    const [{ renderPrediction }, { renderChecked }] = await Promise.all([
      import('../output/prediction.js'),
      import('../output/document.js'),
    ]);
    const now = run.nowSeconds();
    let first = true;
    results.forEach((r, i) => {
      if (r.status !== 'fulfilled') return;
      let problems: string[] = [];
      const text = renderChecked(run.out, r.value, now, (body) => {
        const view = renderPrediction(run.out, body, now, { candles, chart: opts.chart });
        problems = view.problems;
        return view.text;
      });
      run.out.data(first ? text : `\n${text}`);
      first = false;
      for (const problem of problems) run.out.note(`fcast: ${symbols[i]}: ${problem}`);
    });
  }

  let exitCode = 0;
  for (const r of results) {
    if (r.status !== 'rejected') continue;
    const err = r.reason as FcastError;
    run.out.error(err);
    if (exitCode === 0) exitCode = err.exitCode;
  }
  return exitCode;
}

/** Names the symbol in the error, since several may fail; a 404 is an unknown symbol. */
function forSymbol(err: unknown, symbol: string, withContextHint: (err: unknown, c: { symbol: true }) => unknown) {
  const told = withContextHint(err, { symbol: true });
  if (told instanceof FcastError && !(told instanceof ConfigError) && told.exitCode !== 0)
    return amend(told, { prefix: symbol });
  return told;
}
