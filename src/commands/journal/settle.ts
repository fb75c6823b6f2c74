// `fcast journal settle`: settles the recorded forecasts whose target time has passed.
import type { Run } from '../../cmdutil/command.js';
import { defineCommand, flag, type FlagValues } from '../../cmdutil/define.js';
import { FILTER_FLAGS, FLAT_BAND_FLAG } from '../../cmdutil/journal-flags.js';
import { dataDir } from '../../config/settings.js';
import { mapSettledWithLimit } from '../../core/concurrency.js';
import { amend, ConfigError, FcastError } from '../../core/errors.js';
import { DEFAULT_FLAT_BAND_PCT, priceRecord, type PriceRecord, type SettlementRecord } from '../../journal/record.js';
import { responseEvidence } from '../../journal/settle.js';
import { appendSettlements, judge, readOpen, withObservation, type SettleSummary } from '../../journal/settling.js';
import { openJournalDir } from '../../journal/journal-files.js';
import { renderSettleSummary } from '../../output/journal-views.js';
import { baseUrlOrigin, filterOf, PARALLEL_REQUESTS, warnProblems } from './shared.js';

const FLAGS = {
  ...FILTER_FLAGS,
  ...FLAT_BAND_FLAG,
  adoptUnknownOrigin: flag(
    '--adopt-unknown-origin',
    "also settle the forecasts recorded before fcast kept origins, with this base URL's prices (say so only if they came from it)",
  ),
};

export type SettleFlags = FlagValues<typeof FLAGS>;

export default defineCommand({
  name: 'settle',
  summary: 'settle the forecasts whose target time has passed',
  description:
    "Settles every recorded forecast whose target time has passed by the server's clock: the close at " +
    'target_t from the 15min/1h candles (one predictions.php?candles=1 request per symbol, with your ' +
    'key), or a recorded price taken at most 900 s after target_t; never a price from before it. What ' +
    'the data can no longer settle is marked unsettleable and counted.',
  flags: FLAGS,
  examples: [
    ['fcast journal settle', 'settle what is due'],
    ['fcast journal settle --symbol BTC/USD --json', 'one symbol; JSON counts'],
  ],
  run: settle,
});

export async function settle(run: Run, opts: SettleFlags): Promise<number> {
  const band = opts.flatBand ?? DEFAULT_FLAT_BAND_PCT;
  // Settled with the base URL's candles and prices: that service's forecasts only, and the
  // unknown ones if the user adopts them; any other origin's are counted, never touched. With
  // no base URL, nothing is settled (connecting says why, if anything is open).
  const origin = baseUrlOrigin(run);
  const filter = {
    ...filterOf(run, { ...opts, origin: 'all' }),
    origins: origin === undefined ? undefined : opts.adoptUnknownOrigin ? [origin, null] : [origin],
  };
  const data = dataDir(run.ctx);
  const dir = openJournalDir(data, { create: false });
  const state = readOpen(dir, filter);
  warnProblems(run, state.problems);
  const symbols = [...state.open.keys()].sort();
  const summary: SettleSummary = {
    settled: 0,
    fromCandles: 0,
    fromPrices: 0,
    unsettleable: 0,
    notDue: 0,
    waiting: 0,
    symbols: symbols.length,
    failed: [],
    flat_band_pct: band,
    otherOrigins: state.otherOrigins,
  };
  let code = 0;
  if (symbols.length > 0) {
    // The HTTP layer only when something is to settle: the definition above is read whenever
    // the journal's tree is built (its help, completion), which must not load it.
    const [{ fetchPredictions, requests }, { readCandles }] = await Promise.all([
      import('../../api/endpoints.js'),
      import('../../api/candles.js'),
    ]);
    const conn = await run.connect();
    conn.client.baseUrl();
    conn.client.keyFor('rest');
    if (run.flags.dryRun) return run.dryRun(...symbols.map((s) => requests.predictions(s, { candles: true })));
    const results = await mapSettledWithLimit(symbols, PARALLEL_REQUESTS, (s) =>
      fetchPredictions(conn, s, { candles: true }),
    );
    const now = run.nowSeconds();
    const settlements: SettlementRecord[] = [];
    const prices: PriceRecord[] = [];
    for (const [i, result] of results.entries()) {
      const symbol = symbols[i]!;
      if (result.status === 'rejected') {
        const err = result.reason;
        if (!(err instanceof FcastError) || err instanceof ConfigError) throw err;
        run.out.error(amend(err, { prefix: symbol }));
        summary.failed.push(symbol);
        if (code === 0) code = err.exitCode;
        continue;
      }
      const { body, wellFormed } = result.value;
      if (!wellFormed) {
        run.out.warn(`${symbol}: the response is off its documented shape; nothing settled from it`);
        summary.failed.push(symbol);
        continue;
      }
      const candles = await readCandles(body.candles);
      if (!candles.usable)
        run.out.warn(
          `${symbol}: the candles are unusable for settling (${candles.why}); forecasts that need them become unsettleable`,
        );
      const price = priceRecord({ symbol, body }, origin!, now);
      if (price) prices.push(price);
      const observations = withObservation(
        state.observations.get(symbol) ?? [],
        price ? { t: price.t, last: price.last } : undefined,
      );
      const evidence = responseEvidence(
        { serverT: body.meta.server_t, candles, price: price && { t: price.t, last: price.last } },
        observations,
        now,
      );
      for (const verdict of judge(state.open.get(symbol)!, evidence, band, now)) {
        if (verdict.status === 'open') {
          if (verdict.why === 'not due') summary.notDue++;
          else summary.waiting++;
        } else settlements.push(verdict.record);
      }
    }
    const written = await appendSettlements(data, settlements, prices, state.sizes);
    for (const s of written) {
      if (s.status === 'unsettleable') summary.unsettleable++;
      else {
        summary.settled++;
        if (s.settle_source === 'candles') summary.fromCandles++;
        else summary.fromPrices++;
      }
    }
  }
  if (run.flags.json) {
    run.out.json({
      settled: summary.settled,
      from_candles: summary.fromCandles,
      from_prices: summary.fromPrices,
      unsettleable: summary.unsettleable,
      open: { not_due: summary.notDue, waiting_for_data: summary.waiting },
      other_origins: summary.otherOrigins,
      origin,
      failed_symbols: summary.failed,
      flat_band_pct: band,
    });
  } else {
    run.out.data(renderSettleSummary(run.out, summary));
  }
  return code;
}
