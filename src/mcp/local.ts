// The tools that read what fcast keeps on this machine: the journal (journal/'s readers, as
// `fcast journal report` and `list` use them) and the settings (service_info). Loaded only
// when one of them runs.
import { DEFAULT_BINS } from '../cmdutil/journal-flags.js';
import { dataDir, inspectSettings } from '../config/settings.js';
import { UsageError } from '../core/errors.js';
import type { TrackRecordResult } from '../schema/bodies.js';
import type { CompareScan } from '../journal/compare.js';
import type { Compared } from '../journal/compare-threads.js';
import { openJournalDir, journalDirOf } from '../journal/journal-files.js';
import { DEFAULT_FLAT_BAND_PCT, originLabel, originOf } from '../journal/record.js';
import { buildReport, disjointIntervals, scanJournal, type JournalFilter } from '../journal/report.js';
import { forEachRow, type JournalRow, type RowStatus } from '../journal/rows.js';
import type { ToolOutput } from './results.js';
import type { ToolCall } from './call.js';

/**
 * The journal's filter as the journal commands make it without --origin: the base URL's
 * origin when one is set, else whichever one service the journal holds (`auto`).
 */
async function filterOf(call: ToolCall): Promise<JournalFilter & { auto: boolean }> {
  const { canonicalSymbol } = await import('../cmdutil/input.js');
  const symbol = call.args.symbol === undefined ? undefined : canonicalSymbol(call.args.symbol as string);
  const base: JournalFilter = {
    symbols: symbol === undefined ? undefined : [symbol],
    tfs: call.args.timeframe === undefined ? undefined : [(call.args.timeframe as string).trim()],
  };
  const found = inspectSettings(call.ctx, call.flags).baseUrl;
  const origin = found.problem || found.found === undefined ? undefined : originOf(found.found.value);
  return origin === undefined ? { ...base, auto: true } : { ...base, origins: [origin], auto: false };
}

function checkOneOrigin(filter: { auto: boolean }, origins: ReadonlySet<string | null>): void {
  if (!filter.auto || origins.size < 2) return;
  throw new UsageError(
    `the journal holds the forecasts of ${origins.size} services (${[...origins].map(originLabel).sort().join(', ')}); fcast does not pool them`,
    { hint: 'set the base URL of the one to read (FCAST_BASE_URL, or `fcast config set base-url URL`)' },
  );
}

function warningsOf(problems: { damaged: number; newer: number; torn: number }, leftOut: number): string[] {
  const w: string[] = [];
  if (problems.torn > 0) w.push(`${problems.torn} month file(s) end in an incomplete line, skipped`);
  if (problems.damaged > 0) w.push(`${problems.damaged} damaged line(s) skipped`);
  if (problems.newer > 0) w.push(`${problems.newer} line(s) written by a newer fcast skipped`);
  if (leftOut > 0) w.push(`${leftOut} forecast(s) of other services (or of an unknown one) left out`);
  return w;
}

export async function readJournalReport(call: ToolCall): Promise<ToolOutput> {
  const filter = await filterOf(call);
  const opts = { bins: DEFAULT_BINS, flatBandPct: DEFAULT_FLAT_BAND_PCT, ahead: call.ctx.env.FCAST_SCAN_AHEAD };
  const dir = openJournalDir(dataDir(call.ctx), { create: false });
  const scan = scanJournal(dir, filter, opts);
  checkOneOrigin(filter, scan.origins);
  const warnings = warningsOf(scan.problems, scan.leftOut);
  // The service's figures beside the user's, as `journal report` shows them; a symbol whose
  // request fails leaves its figures out, with a warning: the report is about the journal.
  let records: Map<string, TrackRecordResult[] | null> | undefined;
  let meta: unknown;
  const settings = call.settings();
  if (scan.symbols.length > 0 && settings.baseUrl !== undefined) {
    const { fetchTrackRecords } = await import('../api/track-records.js');
    let done = 0;
    const got = await fetchTrackRecords(call.connect(), scan.symbols, 10, (symbol) =>
      call.progress(++done, scan.symbols.length, `track record of ${symbol}`),
    );
    records = got.records;
    meta = got.meta;
    warnings.push(...got.leftOut);
  } else if (scan.symbols.length > 0) {
    warnings.push("the service's figures are left out: no base URL is set");
  }
  const doc = buildReport(scan, opts, records);
  return {
    result: {
      ...doc,
      symbols: scan.symbols,
      first_ts: scan.first ?? null,
      last_ts: scan.last ?? null,
      recorded_tiers: scan.tiers,
      notes: disjointIntervals(doc),
      warnings,
    },
    list: ['timeframes'],
    meta,
  };
}

/**
 * The engines compared, as `fcast journal compare --json` computes them with its defaults, and
 * the verdict and notes it prints. The Murphy diagrams are left out (1,200 numbers a timeframe,
 * a page of the budget each); `fcast journal compare --json` has them.
 */
export async function readJournalCompare(call: ToolCall): Promise<ToolOutput> {
  const filter = await filterOf(call);
  const [{ openComparison }, defaults, { compareNotes, verdictLine }, { SMALL_SAMPLE }] = await Promise.all([
    import('../journal/compare-threads.js'),
    import('../evidence/compare/defaults.js'),
    import('../output/compare-verdict.js'),
    import('../journal/score.js'),
  ]);
  call.progress(0, 2, 'reading the journal');
  const dir = openJournalDir(dataDir(call.ctx), { create: false });
  const comparing = openComparison(dir, filter, DEFAULT_FLAT_BAND_PCT, call.ctx.env.FCAST_SCAN_AHEAD);
  let scan: CompareScan;
  let doc: Compared['doc'];
  try {
    scan = comparing.scan();
    checkOneOrigin(filter, scan.origins);
    call.progress(1, 2, `comparing the engines on ${scan.samples.reduce((n, s) => n + s.ts.length, 0)} forecasts`);
    ({ doc } = await comparing.compare(scan.samples, {
      flatBandPct: DEFAULT_FLAT_BAND_PCT,
      alpha: defaults.DEFAULT_ALPHA,
      replicates: defaults.DEFAULT_REPLICATES,
      seed: defaults.DEFAULT_SEED,
    }));
  } finally {
    comparing.close();
  }
  call.progress(2, 2, 'compared');
  const timeframes = doc.timeframes.map((t) => {
    const { murphy: _, ...figures } = t;
    const main = t.pairs.find((p) => p.a === 'ia3' && p.b === 'ia2');
    return { ...figures, verdict: main === undefined ? null : verdictLine(t, main, doc.alpha) };
  });
  return {
    result: {
      flat_band_pct: doc.flat_band_pct,
      alpha: doc.alpha,
      bootstrap: doc.bootstrap,
      timeframes,
      lacking_ia2: scan.lackingIa2,
      notes: compareNotes({ doc, lackingIa2: scan.lackingIa2, smallSample: SMALL_SAMPLE }),
      warnings: warningsOf(scan.problems, scan.leftOut),
    },
    list: ['timeframes'],
  };
}

export async function readJournalList(call: ToolCall): Promise<ToolOutput> {
  const filter = await filterOf(call);
  const status = call.args.status === undefined ? undefined : [call.args.status as RowStatus];
  const dir = openJournalDir(dataDir(call.ctx), { create: false });
  const rows: JournalRow[] = [];
  const read = forEachRow(dir, { ...filter, status }, DEFAULT_FLAT_BAND_PCT, (r) => rows.push(r));
  checkOneOrigin(filter, read.origins);
  return {
    result: { count: rows.length, rows, warnings: warningsOf(read, read.leftOut) },
    list: ['rows'],
    pageSize: (call.args.limit as number | undefined) ?? 50,
  };
}

export async function readServiceInfo(call: ToolCall): Promise<ToolOutput> {
  const found = inspectSettings(call.ctx, call.flags);
  const settings = call.settings();
  const base = settings.baseUrl?.value;
  // The URL without any user or password in it: only where it points.
  const shownBase = base === undefined ? null : withoutCredentials(base);
  const service: Record<string, unknown> = {};
  let meta: unknown;
  if (base === undefined) {
    service.reachable = false;
    service.error = 'no base URL is set: the user sets one with `fcast config set base-url URL` or FCAST_BASE_URL';
  } else {
    const { fetchDiscovery } = await import('../api/endpoints.js');
    try {
      const res = await fetchDiscovery(call.connect());
      meta = (res.body as { meta?: unknown }).meta;
      const m = (meta ?? {}) as Record<string, unknown>;
      Object.assign(service, {
        reachable: true,
        tier: m.tier ?? null,
        data_delay_min: m.data_delay_min ?? null,
        mcp_endpoint: m.mcp ?? null,
        docs: m.docs ?? null,
      });
    } catch (err) {
      Object.assign(service, { reachable: false, error: (err as Error).message });
    }
  }
  return {
    result: {
      fcast_version: call.ctx.version,
      base_url: shownBase,
      base_url_from: settings.baseUrl?.source ?? null,
      rest_key_configured: settings.apiKey !== undefined,
      gateway_key_configured: settings.gatewayKey !== undefined,
      gateway_falls_back_to_rest_key: settings.gatewayKey === undefined && settings.apiKey !== undefined,
      journal_dir: journalDirOf(dataDir(call.ctx)),
      config_file: found.configPath,
      service,
    },
    meta,
  };
}

function withoutCredentials(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return url;
  }
}
