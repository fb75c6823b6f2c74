// The tools of `fcast mcp`, in the order tools/list gives them. Each sends through the api/
// endpoint functions the commands use, computes with evidence/ and reads the journal with
// journal/'s readers, and hands back a ToolOutput (results.ts fits it to the budget). None
// takes a key: the key comes from fcast's settings, as for every command.
// Not exposed: register, auth, config changes, import, export, prune, mock, watch.
import { GATEWAY_COMMANDS, DEMO_SYMBOLS, equivalentTimeframe, ACCURACY_TIMEFRAMES } from '../core/domain.js';
import { UsageError } from '../core/errors.js';
import type { ToolCall } from './call.js';
import type { ToolOutput } from './results.js';
import { type JsonSchema, nullable, objectOf } from './schema.js';

export const TOOLSETS = ['forecasts', 'evidence', 'gateway', 'journal', 'service'] as const;
export type Toolset = (typeof TOOLSETS)[number];

export interface Annotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface Tool {
  name: string;
  toolset: Toolset;
  description: string;
  inputSchema: JsonSchema;
  /** The schema of the envelope's `result`. */
  resultSchema: JsonSchema;
  annotations: Annotations;
  run(call: ToolCall): Promise<ToolOutput>;
}

const str = (description: string, extra: JsonSchema = {}): JsonSchema => ({ type: 'string', description, ...extra });
const obj = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({
  type: 'object',
  properties,
  ...(required.length > 0 && { required }),
  additionalProperties: false,
});
/** A body as the service sent it (its fields kept, server text sanitised). */
const body = (description: string): JsonSchema => ({ type: 'object', description });

const CURSOR = str('the nextCursor of a truncated result, to get its next page (opaque)');
const TIMEFRAME = str('one timeframe, e.g. 1h', { maxLength: 10 });
const SYMBOL = str('one symbol, e.g. BTC/USD', { maxLength: 40 });
/** The journal tools' selection, as the journal commands' --tf and --symbol. */
const JOURNAL_SELECTION = { timeframe: TIMEFRAME, symbol: SYMBOL };
/** A result's schema: its properties, and those it always has (by default, all of them). */
const result = objectOf;
const listOf = (items: JsonSchema): JsonSchema => ({ type: 'array', items });
const STRINGS = listOf({ type: 'string' });
const OBJECTS = listOf({ type: 'object' });
const NUMBER: JsonSchema = { type: 'number' };
const INTEGER: JsonSchema = { type: 'integer' };
/** The journal results' notes and warnings. */
const NOTES = { notes: STRINGS, warnings: STRINGS };
/** A tool whose body is in local.ts (the journal and the settings), loaded when it runs. */
const local =
  (name: 'readJournalReport' | 'readJournalCompare' | 'readJournalList' | 'readServiceInfo') =>
  async (call: ToolCall): Promise<ToolOutput> =>
    (await import('./local.js'))[name](call);

const readOnly = (title: string, openWorld = true): Annotations => ({
  title,
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: openWorld,
});

/** Requests at once to the service (the symbols of get_forecasts, the report's track records). */
const PARALLEL = 10;

/** Loaded together: the endpoints and their helpers, only once a tool runs. */
const api = () => import('../api/endpoints.js');

function timeframeFilter(predictions: unknown, wanted: readonly string[] | undefined): unknown {
  if (wanted === undefined || predictions === null || typeof predictions !== 'object') return predictions;
  return Object.fromEntries(
    Object.entries(predictions as Record<string, unknown>).filter(([tf]) => equivalentTimeframe(tf, wanted)),
  );
}

export const TOOLS: readonly Tool[] = [
  {
    name: 'get_forecasts',
    toolset: 'forecasts',
    description:
      'Latest probabilistic forecasts for 1 to 10 symbols (BASE/QUOTE, e.g. BTC/USD, EUR/USD, AAPL/USD), one per timeframe, from the forecast service with the user\'s key: each timeframe\'s direction (long/short), probabilities p_long/p_short/p_flat of three engines (ia1, ia2, ia3; ia3 is the service\'s call), anchor and target price, horizon. Use `timeframes` (e.g. ["1h","4h"]) to keep only some. A symbol the service refuses is listed under `failed`; the others still come back. Use list_symbols to find symbols.',
    inputSchema: obj(
      {
        symbols: {
          type: 'array',
          items: { type: 'string', minLength: 1, maxLength: 40 },
          minItems: 1,
          maxItems: 10,
          description: 'symbols like BTC/USD (btc-usd and btcusd are read as BTC/USD)',
        },
        timeframes: {
          type: 'array',
          items: { type: 'string', minLength: 1, maxLength: 10 },
          minItems: 1,
          maxItems: 20,
          description: 'only these timeframes, e.g. ["15min","1h","1d"]; default all',
        },
        cursor: CURSOR,
      },
      ['symbols'],
    ),
    resultSchema: result({
      forecasts: listOf(body('one symbol: the service body (symbol, price, predictions by timeframe, meta)')),
      failed: listOf(objectOf({ symbol: { type: 'string' }, error: { type: 'string' } })),
    }),
    annotations: readOnly('Latest forecasts'),
    async run(call) {
      const { canonicalSymbol } = await import('../cmdutil/input.js');
      const symbols = [...new Set((call.args.symbols as string[]).map(canonicalSymbol))];
      const tfs = call.args.timeframes as string[] | undefined;
      // Setup problems (no key, no base URL) fail the call as a whole, before anything is sent.
      call.settings().requireKey('rest');
      const conn = call.connect();
      const [{ fetchPredictions }, { mapSettledWithLimit }] = await Promise.all([
        api(),
        import('../core/concurrency.js'),
      ]);
      let done = 0;
      const results = await mapSettledWithLimit(symbols, PARALLEL, async (symbol) => {
        const r = await fetchPredictions(conn, symbol);
        call.progress(++done, symbols.length, symbol);
        return r;
      });
      const failures = results.flatMap((r, i) =>
        r.status === 'rejected' ? [{ symbol: symbols[i]!, reason: r.reason }] : [],
      );
      // Every symbol failed: the first failure is the answer (a 401 or a 429 says what to do).
      if (failures.length === symbols.length) throw failures[0]!.reason;
      const forecasts = results.flatMap((r) => {
        if (r.status !== 'fulfilled') return [];
        const b = r.value.body as Record<string, unknown>;
        return [{ ...b, predictions: timeframeFilter(b.predictions, tfs) } as Record<string, unknown>];
      });
      return {
        result: {
          forecasts,
          failed: failures.map((f) => ({ symbol: f.symbol, error: (f.reason as Error).message })),
        },
        list: ['forecasts'],
        meta: forecasts[0]?.meta,
      };
    },
  },
  {
    name: 'get_demo_forecasts',
    toolset: 'forecasts',
    description: `Keyless demo forecasts (delayed) for one of ${DEMO_SYMBOLS.join(', ')}: the same fields as get_forecasts, for trying the service without a key. Default BTC/USD.`,
    inputSchema: obj({
      symbol: str('the demo symbol', { enum: DEMO_SYMBOLS }),
      cursor: CURSOR,
    }),
    resultSchema: result({ forecast: body('the service body') }),
    annotations: readOnly('Demo forecasts'),
    async run(call) {
      const { parseDemoSymbol } = await import('../cmdutil/input.js');
      const symbol = parseDemoSymbol(call.args.symbol as string | undefined);
      const { fetchDemo } = await api();
      const res = await fetchDemo(call.connect(), symbol);
      return { result: { forecast: res.body }, meta: res.body.meta };
    },
  },
  {
    name: 'list_symbols',
    toolset: 'forecasts',
    description:
      'The symbols the user\'s key can forecast, each with its timeframes. `query` keeps those whose symbol contains it (case-insensitive: "usd", "BTC"); `limit` caps a page (default 100); a longer list pages by `nextCursor`.',
    inputSchema: obj({
      query: str('text the symbol contains', { maxLength: 40 }),
      limit: { type: 'integer', minimum: 1, maximum: 500, description: 'symbols per page (default 100)' },
      cursor: CURSOR,
    }),
    resultSchema: result({
      count: { type: 'integer', description: 'symbols matching, across all pages' },
      symbols: listOf(body('a symbol and its timeframes')),
    }),
    annotations: readOnly('Symbols'),
    async run(call) {
      call.settings().requireKey('rest');
      const { fetchSymbols } = await api();
      const res = await fetchSymbols(call.connect());
      const query = (call.args.query as string | undefined)?.trim().toLowerCase();
      const symbols = res.body.symbols.filter((s) => !query || s.symbol.toLowerCase().includes(query));
      return {
        result: { count: symbols.length, symbols },
        list: ['symbols'],
        pageSize: (call.args.limit as number | undefined) ?? 100,
        meta: res.body.meta,
      };
    },
  },
  {
    name: 'get_track_record',
    toolset: 'evidence',
    description: `The service's public track record (no key): per timeframe the settled forecasts, wins, losses, neutrals, resolved win rate with its Wilson 95% interval, and the sample's maturity; for one symbol with \`symbol\`, or one timeframe with \`timeframe\` (${ACCURACY_TIMEFRAMES.join(', ')}). \`audit\` recomputes each win rate and interval from the counts (as \`fcast track-record --audit\`) and lists any figure that disagrees.`,
    inputSchema: obj({
      symbol: str('a symbol like BTC/USD; default all symbols', { maxLength: 40 }),
      timeframe: str('one timeframe', { maxLength: 10 }),
      cursor: CURSOR,
    }),
    resultSchema: result({
      track_record: body('the service body (protocol, totals, results by timeframe, meta)'),
      audit: objectOf({
        audited: { type: 'integer' },
        agrees: { type: 'boolean' },
        disagreements: { type: 'array' },
        not_auditable: { type: 'array' },
      }),
    }),
    annotations: readOnly('Track record'),
    async run(call) {
      const { canonicalSymbol, parseAccuracyTimeframe } = await import('../cmdutil/input.js');
      const symbol = call.args.symbol === undefined ? undefined : canonicalSymbol(call.args.symbol as string);
      const tf = call.args.timeframe === undefined ? undefined : parseAccuracyTimeframe(call.args.timeframe as string);
      const [{ fetchTrackRecord, fetchAccuracy }, { auditTrackRecord }] = await Promise.all([
        api(),
        import('../evidence/audit.js'),
      ]);
      const conn = call.connect();
      const res =
        tf === undefined ? await fetchTrackRecord(conn, { symbol }) : await fetchAccuracy(conn, { symbol, tf });
      const audit = auditTrackRecord(res.body);
      return {
        result: {
          track_record: res.body,
          audit: {
            audited: audit.audited,
            agrees: audit.disagreements.length === 0,
            disagreements: audit.disagreements,
            not_auditable: audit.notAuditable,
          },
        },
        meta: res.body.meta,
      };
    },
  },
  {
    name: 'verify_forecast',
    toolset: 'evidence',
    description:
      'One expired forecast by its id (no key): the stored forecast, the market closes up to its target time and the published settlement, with a check that the published outcome follows from the direction, the anchor price and the close. A forecast not yet expired is refused by the service (403).',
    inputSchema: obj({ id: { type: 'integer', minimum: 1, description: 'the forecast id' }, cursor: CURSOR }, ['id']),
    resultSchema: result({ verification: body('the service body'), check: objectOf({ checked: { type: 'boolean' } }) }),
    annotations: readOnly('Verify a forecast'),
    async run(call) {
      const [{ fetchVerify }, { checkSettlement }] = await Promise.all([api(), import('../evidence/settlement.js')]);
      const res = await fetchVerify(call.connect(), call.args.id as number);
      return {
        result: { verification: res.body, check: checkSettlement(res.body) },
        meta: (res.body as { meta?: unknown }).meta,
      };
    },
  },
  {
    name: 'run_gateway_command',
    toolset: 'gateway',
    description: `One read-only command of the service's gateway, with the user's gateway key: ${GATEWAY_COMMANDS.map((c) => `${c.name} (${c.summary}; args: ${c.args.map((a) => a.name).join(', ') || 'none'})`).join('; ')}. \`args\` are positional, in that order (symbols like BTC/USD, timeframes like 1h, whole numbers for limit and days). A key without the command's scope gets an error naming it.`,
    inputSchema: obj(
      {
        command: str('the gateway command', { enum: GATEWAY_COMMANDS.map((c) => c.name) }),
        args: {
          type: 'array',
          items: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
          maxItems: 5,
          description: 'positional arguments, in the order the command lists them',
        },
        cursor: CURSOR,
      },
      ['command'],
    ),
    resultSchema: result({ command: { type: 'string' }, envelope: body("the gateway's envelope (ok, data, meta)") }),
    annotations: readOnly('Gateway command'),
    async run(call) {
      const { requireGatewayCommand, shapeGatewayArgs } = await import('../cmdutil/gateway-args.js');
      const command = requireGatewayCommand(call.args.command as string);
      const args = shapeGatewayArgs(command, ((call.args.args as unknown[] | undefined) ?? []).map(String));
      call.settings().requireKey('gateway');
      const { runGatewayCommand } = await api();
      const res = await runGatewayCommand(call.connect(), command.name, args);
      return { result: { command: command.name, envelope: res.body }, meta: res.body.meta };
    },
  },
  {
    name: 'journal_report',
    toolset: 'journal',
    description:
      "How the forecasts the user was shown and recorded (`fcast --record`) have scored once settled, per timeframe, from the user's own journal: settled, wins, losses, neutrals, hit rate with its 95% interval, 3-class Brier score and skill score, log loss, the call's calibration bins and Brier decomposition, beside the service's published figures for the same symbols. Optional `timeframe` and `symbol` narrow it.",
    inputSchema: obj({ ...JOURNAL_SELECTION, cursor: CURSOR }),
    resultSchema: result({ flat_band_pct: NUMBER, bins: INTEGER, timeframes: OBJECTS, symbols: STRINGS, ...NOTES }, [
      'timeframes',
      'symbols',
      ...Object.keys(NOTES),
    ]),
    annotations: readOnly('Journal report', true),
    run: local('readJournalReport'),
  },
  {
    name: 'journal_compare',
    toolset: 'journal',
    description:
      "Which engine's probabilities deserve trust, on the user's own settled forecasts (`fcast journal compare`): per timeframe, ia2, ia3 and the sample's climatology scored by RPS (classes ordered short < flat < long; 0 best, 2 worst), the 3-class Brier score and log loss; each pair's mean loss difference (negative: the first is better) with its Diebold-Mariano test (Harvey-Leybourne-Newbold, lags from overlapping horizons), a block bootstrap interval and the Holm-adjusted p of the RPS tests; CORP reliability terms (MCB, DSC, UNC) per event; and the verdict sentence of ia3 against ia2. Reads only the journal. Optional `timeframe` and `symbol` narrow it. Sends progress; at a million forecasts it takes seconds.",
    inputSchema: obj({ ...JOURNAL_SELECTION, cursor: CURSOR }),
    resultSchema: result({
      flat_band_pct: NUMBER,
      alpha: NUMBER,
      bootstrap: { type: 'object' },
      timeframes: OBJECTS,
      lacking_ia2: INTEGER,
      ...NOTES,
    }),
    annotations: readOnly('Engines compared', false),
    run: local('readJournalCompare'),
  },
  {
    name: 'journal_list',
    toolset: 'journal',
    description:
      "The user's recorded forecasts, one row each, in the order recorded, with their settlement when settled (status open, settled or unsettleable; outcome win, loss or neutral). `limit` caps a page (default 50); the rest pages by `nextCursor`. Optional `symbol`, `timeframe` and `status` narrow it.",
    inputSchema: obj({
      limit: { type: 'integer', minimum: 1, maximum: 1000, description: 'rows per page (default 50)' },
      symbol: SYMBOL,
      timeframe: TIMEFRAME,
      status: str('only rows of this status', { enum: ['open', 'settled', 'unsettleable'] }),
      cursor: CURSOR,
    }),
    resultSchema: result({ count: INTEGER, rows: OBJECTS, warnings: STRINGS }),
    annotations: readOnly('Journal rows', false),
    run: local('readJournalList'),
  },
  {
    name: 'service_info',
    toolset: 'service',
    description:
      "Which service fcast talks to and how: the base URL, whether a REST key and a gateway key are configured (never the keys), the journal's folder, fcast's version, and what the service's discovery says (its tier, data delay, MCP endpoint) when it answers. Start here when another tool reports a setup problem.",
    inputSchema: obj({}),
    resultSchema: result({
      fcast_version: { type: 'string' },
      base_url: nullable({ type: 'string' }),
      rest_key_configured: { type: 'boolean' },
      gateway_key_configured: { type: 'boolean' },
      journal_dir: { type: 'string' },
      service: { type: 'object' },
    }),
    annotations: readOnly('Service info'),
    run: local('readServiceInfo'),
  },
];

/** The tools `--toolsets`, `--tools` and `--read-only` leave, in TOOLS' order; a name that does not exist is exit 2. */
export function selectTools(opts: { toolsets?: string[]; tools?: string[]; readOnly: boolean }): Tool[] {
  const names = TOOLS.map((t) => t.name);
  for (const set of opts.toolsets ?? [])
    if (!TOOLSETS.includes(set as Toolset))
      throw new UsageError(`--toolsets: no toolset '${set}'; the toolsets are ${TOOLSETS.join(', ')}`, {
        hint: "see 'fcast mcp --help'",
      });
  for (const name of opts.tools ?? [])
    if (!names.includes(name))
      throw new UsageError(`--tools: no tool '${name}'; the tools are ${names.join(', ')}`, {
        hint: "see 'fcast mcp --help'",
      });
  const selected = TOOLS.filter(
    (t) =>
      (opts.toolsets === undefined || opts.toolsets.includes(t.toolset)) &&
      (opts.tools === undefined || opts.tools.includes(t.name)) &&
      (!opts.readOnly || t.annotations.readOnlyHint),
  );
  if (selected.length === 0)
    throw new UsageError('--toolsets and --tools leave no tool to serve', { hint: "see 'fcast mcp --help'" });
  return selected;
}
