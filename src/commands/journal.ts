import { resolve } from 'node:path';
import type { Command } from 'commander';
import { action, examples, type App, type Run } from '../cmdutil/command.js';
import {
  addFilterFlags,
  addGateFlags,
  checkTimeRange,
  FLAT_BAND_OPTION,
  ORIGIN_OPTION,
  parseBins,
  parseOriginFlag,
  parseInstantFlag,
  type JournalFilterFlags,
} from '../cmdutil/journal-flags.js';
import { parseChoice } from '../cmdutil/input.js';
import { helpNotes } from '../cmdutil/help.js';
import { dataDir, inspectSettings } from '../config/settings.js';
import { amend, CheckFailedError, ConfigError, FcastError, UsageError } from '../core/errors.js';
import { DEFAULT_FLAT_BAND_PCT, originLabel, originOf } from '../journal/record.js';

const DEFAULT_BINS = 10;
const PARALLEL_REQUESTS = 20;

interface ReportFlags extends JournalFilterFlags {
  bins?: number;
  flatBand?: number;
  offline?: boolean;
  minSettled?: number;
  maxBrier?: number;
  minHitRate?: number;
  /** False with --no-annotations. */
  annotations?: boolean;
}

interface ListFlags extends JournalFilterFlags {
  status?: string[];
  flatBand?: number;
}

interface SettleFlags extends ListFlags {
  adoptUnknownOrigin?: boolean;
}

/**
 * The filter of a reading command. Its origins: --origin's, else the base URL's (the service
 * fcast talks to now), else, with no base URL set, whichever one the journal holds (`auto`:
 * the command refuses to pool two; checkOneOrigin).
 */
function filterOf(run: Run, f: JournalFilterFlags) {
  checkTimeRange(f);
  const base = { symbols: f.symbol, tfs: f.tf, since: f.since, until: f.until };
  if (f.origin === 'all') return { ...base, auto: false };
  if (f.origin === 'unknown') return { ...base, origins: [null], auto: false };
  if (f.origin !== undefined) return { ...base, origins: [f.origin], auto: false };
  const origin = baseUrlOrigin(run);
  return origin === undefined ? { ...base, auto: true } : { ...base, origins: [origin], auto: false };
}

/**
 * The base URL's origin when one is set (flag, environment or config file), without checking
 * the other settings: `report --offline` and `list` read the journal alone, and a wrong
 * FCAST_TIMEOUT is no reason to refuse them.
 */
function baseUrlOrigin(run: Run): string | undefined {
  const found = inspectSettings(run.ctx, run.flags).baseUrl;
  return found.problem || found.found === undefined ? undefined : originOf(found.found.value);
}

/** With no origin chosen and no base URL: one service's records, or exit 2 naming them. */
function checkOneOrigin(filter: { auto: boolean }, origins: ReadonlySet<string | null>): void {
  if (!filter.auto || origins.size < 2) return;
  throw new UsageError(
    `the journal holds the forecasts of ${origins.size} services (${[...origins].map(originLabel).sort().join(', ')}); fcast does not pool them`,
    { hint: 'choose one with --origin URL (or unknown), set the base URL, or pool them with --origin all' },
  );
}

/** Says how many forecasts of other services the origin filter left out. */
function noteLeftOut(run: Run, leftOut: number): void {
  if (leftOut > 0)
    run.out.note(
      `journal: ${leftOut} forecast(s) of other services (or of an unknown one) left out; --origin URL|unknown|all shows them`,
    );
}

export function register(program: Command, app: App): void {
  const journal = program
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
    .action(action(app, (run, opts: SettleFlags) => settle(run, opts)));

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
      action(app, (run, opts: ReportFlags) => report(run, opts), {
        formats: ['table', 'json', 'markdown', 'csv', 'tsv'],
      }),
    );

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
    .addOption(ORIGIN_OPTION())
    .addOption(FLAT_BAND_OPTION())
    .addHelpText(
      'after',
      examples(
        ['fcast journal list --status open', 'what is still to settle'],
        ['fcast journal list --tf 1h --format csv', 'for a spreadsheet'],
      ),
    )
    .action(action(app, (run, opts: ListFlags) => list(run, opts), { formats: ['table', 'json', 'csv', 'tsv'] }));

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
    .addHelpText(
      'after',
      examples(
        ['fcast journal export > journal.csv', 'everything, as CSV'],
        ['fcast journal export --format jsonl', 'JSON Lines'],
      ),
    )
    .action(action(app, (run, opts: ListFlags) => exportRows(run, opts), { formats: ['csv', 'tsv', 'jsonl'] }));

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
    .action(action(app, (run, opts: { origin?: string }, file: string) => importFile(run, file, opts.origin)));

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
    .action(action(app, (run) => path(run)));

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
    .action(action(app, (run, opts: { before: number }) => prune(run, opts.before)));
}

// --- settle ----------------------------------------------------------------------------------

async function settle(run: Run, opts: SettleFlags): Promise<number> {
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
  const [{ openJournalDir }, settling, { readCandles }, settleRule, record] = await Promise.all([
    import('../journal/store.js'),
    import('../journal/settling.js'),
    import('../journal/candles.js'),
    import('../journal/settle.js'),
    import('../journal/record.js'),
  ]);
  const dir = openJournalDir(data, { create: false });
  const state = settling.readOpen(dir, filter);
  warnProblems(run, state.problems);
  const symbols = [...state.open.keys()].sort();
  const summary: import('../journal/settling.js').SettleSummary = {
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
    const conn = await run.connect();
    conn.client.baseUrl();
    conn.client.keyFor('rest');
    const { fetchPredictions, requests } = await import('../api/endpoints.js');
    if (run.flags.dryRun) return run.dryRun(...symbols.map((s) => requests.predictions(s, { candles: true })));
    const { mapSettledWithLimit } = await import('../core/concurrency.js');
    const results = await mapSettledWithLimit(symbols, PARALLEL_REQUESTS, (s) =>
      fetchPredictions(conn, s, { candles: true }),
    );
    const now = run.nowSeconds();
    const settlements: import('../journal/record.js').SettlementRecord[] = [];
    const prices: import('../journal/record.js').PriceRecord[] = [];
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
      const price = record.priceRecord({ symbol, body }, origin!, now);
      if (price) prices.push(price);
      const observations = settling.withObservation(
        state.observations.get(symbol) ?? [],
        price ? { t: price.t, last: price.last } : undefined,
      );
      const evidence = settleRule.responseEvidence(
        { serverT: body.meta.server_t, candles, price: price && { t: price.t, last: price.last } },
        observations,
        now,
      );
      for (const verdict of settling.judge(state.open.get(symbol)!, evidence, band, now)) {
        if (verdict.status === 'open') {
          if (verdict.why === 'not due') summary.notDue++;
          else summary.waiting++;
        } else settlements.push(verdict.record);
      }
    }
    const written = await settling.appendSettlements(data, settlements, prices, state.sizes);
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
    const { renderSettleSummary } = await import('../output/journal-views.js');
    run.out.data(renderSettleSummary(run.out, summary));
  }
  return code;
}

// --- report ----------------------------------------------------------------------------------

async function report(run: Run, opts: ReportFlags): Promise<number | undefined> {
  const bins = opts.bins ?? DEFAULT_BINS;
  const flatBandPct = opts.flatBand ?? DEFAULT_FLAT_BAND_PCT;
  const filter = filterOf(run, opts);
  const [{ openJournalDir }, reporting, gates, { SMALL_SAMPLE }] = await Promise.all([
    import('../journal/store.js'),
    import('../journal/report.js'),
    import('../journal/gates.js'),
    import('../journal/score.js'),
  ]);
  const dir = openJournalDir(dataDir(run.ctx), { create: false });
  const scan = reporting.scanJournal(dir, filter, { bins, flatBandPct });
  warnProblems(run, scan.problems);
  checkOneOrigin(filter, scan.origins);
  noteLeftOut(run, scan.leftOut);

  let records: Map<string, import('../api/schemas.js').TrackRecordResult[] | null> | undefined;
  let serviceMeta: unknown;
  if (!opts.offline && scan.symbols.length > 0) {
    const fetched = await fetchServiceRecords(run, scan.symbols);
    if (fetched === 'dry-run') return 0;
    records = fetched?.records;
    serviceMeta = fetched?.meta;
  }
  const doc = reporting.buildReport(scan, { bins, flatBandPct }, records);
  const notes = reporting.disjointIntervals(doc);
  const view = {
    report: doc,
    symbols: scan.symbols,
    first: scan.first,
    last: scan.last,
    notes,
    serviceMeta,
    smallSample: SMALL_SAMPLE,
  };
  const render = await import('../output/journal-report.js');
  if (run.format === 'json') run.out.json(doc);
  else if (run.format === 'markdown') run.out.data(render.renderJournalReportMarkdown(run.out, view));
  else if (run.format === 'csv' || run.format === 'tsv')
    run.out.data(render.renderJournalReportDelimited(run.format, view));
  else run.out.data(render.renderJournalReportTable(run.out, view));
  // The table shows the notes; every other format leaves stdout to data.
  if (run.format !== 'table' && run.format !== 'markdown') for (const note of notes) run.out.note(`note: ${note}`);

  const failures = gates.evaluateJournalGates(doc.timeframes, opts);
  // In GitHub Actions, a run with gates also says so as annotations and a step summary; a
  // failure is then said there alone (once on stderr).
  const annotating = gates.hasJournalGates(opts) && opts.annotations !== false && run.ctx.env.GITHUB_ACTIONS === 'true';
  if (!annotating) for (const f of failures) run.out.note(gates.describeJournalGateFailure(f));
  if (gates.hasJournalGates(opts) && run.ctx.env.GITHUB_OUTPUT) {
    const { writeJournalOutputs } = await import('../cmdutil/journal-annotations.js');
    writeJournalOutputs(run.out, run.ctx.env, failures, doc.timeframes);
  }
  if (annotating) {
    const { annotateJournal } = await import('../cmdutil/journal-annotations.js');
    annotateJournal(run.out, run.ctx.env, {
      failures,
      timeframes: doc.timeframes,
      markdown: render.renderJournalReportMarkdown(run.out, view),
    });
  }
  if (failures.length > 0)
    throw new CheckFailedError(`check failed: ${failures.length} gate failure${failures.length === 1 ? '' : 's'}`);
  return undefined;
}

/**
 * The published track record of each symbol (one request each), for the report's `service`
 * figures; a symbol whose request fails gets null and a warning, and without a base URL the
 * figures are left out with a warning: the report is about the journal, which needs no service.
 */
async function fetchServiceRecords(
  run: Run,
  symbols: readonly string[],
): Promise<
  | { records: Map<string, import('../api/schemas.js').TrackRecordResult[] | null>; meta: unknown }
  | undefined
  | 'dry-run'
> {
  // No base URL leaves the service out; a setting that is wrong (FCAST_TIMEOUT=abc, a config
  // file that cannot be read) is exit 3 as for every command that reads the settings.
  if (run.settings().baseUrl === undefined) {
    run.out.warn("the service's figures are left out: no base URL is set (--offline leaves them out quietly)");
    return undefined;
  }
  const conn = await run.connect();
  const { fetchTrackRecord, requests } = await import('../api/endpoints.js');
  if (run.flags.dryRun) {
    await run.dryRun(...symbols.map((symbol) => requests.trackRecord({ symbol })));
    return 'dry-run';
  }
  const { mapSettledWithLimit } = await import('../core/concurrency.js');
  const results = await mapSettledWithLimit(symbols, PARALLEL_REQUESTS, (symbol) => fetchTrackRecord(conn, { symbol }));
  const records = new Map<string, import('../api/schemas.js').TrackRecordResult[] | null>();
  let meta: unknown;
  for (const [i, r] of results.entries()) {
    const symbol = symbols[i]!;
    if (r.status === 'fulfilled' && r.value.wellFormed) {
      records.set(symbol, r.value.body.results);
      meta ??= r.value.body.meta;
    } else {
      records.set(symbol, null);
      const why = r.status === 'rejected' ? (r.reason as Error).message : 'the response is off its documented shape';
      run.out.warn(`${symbol}: the service's figures are left out: ${why}`);
    }
  }
  return { records, meta };
}

// --- list, export ----------------------------------------------------------------------------

async function list(run: Run, opts: ListFlags): Promise<void> {
  const filter = {
    ...filterOf(run, opts),
    status: opts.status as import('../journal/rows.js').RowStatus[] | undefined,
  };
  const [{ openJournalDir }, { forEachRow, LIST_COLUMNS }] = await Promise.all([
    import('../journal/store.js'),
    import('../journal/rows.js'),
  ]);
  const dir = openJournalDir(dataDir(run.ctx), { create: false });
  const rows: import('../journal/rows.js').JournalRow[] = [];
  const read = forEachRow(dir, filter, opts.flatBand ?? DEFAULT_FLAT_BAND_PCT, (r) => rows.push(r));
  warnProblems(run, read);
  checkOneOrigin(filter, read.origins);
  noteLeftOut(run, read.leftOut);
  if (run.format === 'json') return run.out.json(rows);
  if (run.format === 'csv' || run.format === 'tsv') {
    const { renderDelimited } = await import('../output/formats/delimited.js');
    const header = LIST_COLUMNS;
    return run.out.data(
      renderDelimited(
        run.format,
        header,
        rows.map((r) => header.map((c) => r[c])),
      ),
    );
  }
  const { renderJournalRows } = await import('../output/journal-views.js');
  run.out.data(renderJournalRows(run.out, rows));
}

/** Rows written as they are read, a batch at a time: an export of a million rows is not held whole. */
async function exportRows(run: Run, opts: ListFlags): Promise<void> {
  const filter = filterOf(run, opts);
  const [
    { openJournalDir, journalOrigins, monthFiles },
    { forEachRow, EXPORT_COLUMNS, EXTRA_COLUMNS },
    { renderDelimited },
  ] = await Promise.all([
    import('../journal/store.js'),
    import('../journal/rows.js'),
    import('../output/formats/delimited.js'),
  ]);
  const dir = openJournalDir(dataDir(run.ctx), { create: false });
  // Rows are written as they are read: two services, or a month file that is no regular file,
  // are refused before the header.
  if (dir !== undefined) monthFiles(dir);
  if (filter.auto) checkOneOrigin(filter, journalOrigins(dir));
  const header = [...EXPORT_COLUMNS, ...EXTRA_COLUMNS];
  // CSV or TSV: the header once, then each batch's rows without it.
  const delimited = run.format === 'tsv' ? 'tsv' : 'csv';
  const headerLine = renderDelimited(delimited, header, []);
  if (run.format !== 'jsonl') run.out.data(headerLine);
  let batch: import('../journal/rows.js').JournalRow[] = [];
  const flush = () => {
    if (batch.length === 0) return;
    if (run.format === 'jsonl') run.out.data(batch.map((r) => JSON.stringify(r)).join('\n'));
    else
      run.out.data(
        renderDelimited(
          delimited,
          header,
          batch.map((r) => header.map((c) => r[c])),
        ).slice(headerLine.length),
      );
    batch = [];
  };
  const problems = forEachRow(dir, filter, opts.flatBand ?? DEFAULT_FLAT_BAND_PCT, (row) => {
    batch.push(row);
    if (batch.length >= 5000) flush();
  });
  flush();
  warnProblems(run, problems);
  noteLeftOut(run, problems.leftOut);
}

// --- import, path, prune -----------------------------------------------------------------------

async function importFile(run: Run, file: string, origin: string | undefined): Promise<number | undefined> {
  const { importJournal, importStdin } = await import('../journal/import.js');
  const dryRun = run.flags.dryRun === true;
  const opts = {
    dryRun,
    origin: origin === undefined || origin === 'unknown' ? null : origin,
    signal: run.ctx.signal,
  };
  const summary =
    file === '-'
      ? await importStdin(dataDir(run.ctx), run.ctx.io.stdin, run.nowSeconds(), opts)
      : await importJournal(dataDir(run.ctx), file, run.nowSeconds(), opts);
  const shown = file === '-' ? 'stdin' : file;
  for (const p of summary.problems) run.out.warn(`${shown}:${p.line}: row skipped: ${p.error}`);
  if (summary.skipped > summary.problems.length)
    run.out.warn(`${summary.skipped - summary.problems.length} more row(s) skipped`);
  if (run.flags.json) {
    run.out.json(summary);
    return undefined;
  }
  const { renderImportSummary } = await import('../output/journal-views.js');
  run.out.data(renderImportSummary(summary, shown, dryRun));
  return undefined;
}

async function path(run: Run): Promise<void> {
  const { journalDirOf, openJournalDir, monthFiles } = await import('../journal/store.js');
  const where = resolve(journalDirOf(dataDir(run.ctx)));
  if (!run.flags.json) return run.out.data(where);
  const dir = openJournalDir(dataDir(run.ctx), { create: false });
  run.out.json({ path: where, exists: dir !== undefined, files: dir ? monthFiles(dir) : [] });
}

async function prune(run: Run, before: number): Promise<void> {
  const { pruneJournal } = await import('../journal/prune.js');
  const summary = await pruneJournal(dataDir(run.ctx), before, run.flags.dryRun === true);
  if (run.flags.json) return run.out.json(summary);
  const { renderPruneSummary } = await import('../output/journal-views.js');
  run.out.data(renderPruneSummary(summary, run.flags.dryRun === true));
}

function warnProblems(run: Run, problems: { damaged: number; newer: number; torn: number }): void {
  if (problems.torn > 0)
    run.out.warn(
      `journal: the last line of ${problems.torn === 1 ? 'a month file' : `${problems.torn} month files`} is incomplete, skipped (a write cut short by a crash, or one in progress); the next recording ends it`,
    );
  if (problems.damaged > 0)
    run.out.warn(
      `journal: ${problems.damaged} damaged line(s) skipped (a write cut short by a crash, or an edit by hand)`,
    );
  if (problems.newer > 0)
    run.out.warn(`journal: ${problems.newer} line(s) written by a newer fcast skipped; upgrade to read them`);
}
