// The service's vocabulary as the seed documents it, shared by the CLI's input checks, its
// completions and the emulator, so that the three can never disagree.

/**
 * What `--format` can ask for. Each command gives some of them and refuses the rest with
 * exit 2 naming those it gives (cmdutil/command.ts); `--json` is `--format json`.
 */
export const OUTPUT_FORMATS = ['table', 'json', 'csv', 'tsv', 'markdown', 'jsonl'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** `eth-usd`, ` btc / usd ` -> `ETH/USD`, `BTC/USD`: the canonical form REST is sent; undefined when it is not BASE/QUOTE. */
export function canonicalSymbolOf(raw: string): string | undefined {
  const m = /^\s*([A-Za-z0-9.]{1,15})\s*[/-]\s*([A-Za-z0-9.]{1,15})\s*$/.exec(raw);
  return m ? `${m[1]!.toUpperCase()}/${m[2]!.toUpperCase()}` : undefined;
}

export const DEMO_SYMBOLS = ['BTC/USD', 'ETH/USD', 'EUR/USD'] as const;

/** Quote currencies a symbol written without its slash (`BTCUSD`, the gateway's form) most likely ends with. */
const QUOTE_CURRENCIES = ['USDT', 'USDC', 'USD', 'EUR', 'GBP', 'JPY', 'CHF', 'CAD', 'AUD', 'NZD', 'BTC', 'ETH'];

/** `BTCUSD` -> `BTC/USD` (any case in, as given out); undefined when no known quote ends it. */
export function slashedSymbol(code: string): string | undefined {
  const upper = code.toUpperCase();
  const quote = QUOTE_CURRENCIES.find((q) => upper.length > q.length && upper.endsWith(q));
  return quote ? `${code.slice(0, -quote.length)}/${code.slice(-quote.length)}` : undefined;
}
export const DEFAULT_DEMO_SYMBOL = 'BTC/USD';

/** Timeframes of the demo response and their horizons in minutes, in horizon order. */
export const FORECAST_TIMEFRAMES: ReadonlyArray<readonly [tf: string, horizonMin: number]> = [
  ['1min', 5],
  ['5min', 30],
  ['10min', 60],
  ['15min', 90],
  ['20min', 120],
  ['25min', 150],
  ['30min', 180],
  ['35min', 210],
  ['40min', 240],
  ['45min', 270],
  ['50min', 300],
  ['55min', 330],
  ['1h', 360],
  ['65min', 390],
  ['70min', 420],
  ['75min', 450],
  ['80min', 480],
  ['85min', 510],
  ['90min', 540],
  ['2h', 720],
  ['3h', 1080],
  ['6h', 2160],
];

/** Values of the `tf` filter of accuracy.php. */
export const ACCURACY_TIMEFRAMES = ['1min', '5min', '15min', '30min', '1h', '2h', '3h', '4h', '6h', '1d'] as const;

/** Maturity levels, weakest first: a gate passes a level equal to or above its threshold. */
export const MATURITY_LEVELS = ['insufficient_sample', 'early_sample', 'growing_sample'] as const;
export type Maturity = (typeof MATURITY_LEVELS)[number];

/** ia3's direction, as the seed observes it. */
export type Direction = 'long' | 'short';
/** How a settled forecast ended: the seed's track record counts wins, losses and neutrals. */
export type Outcome = 'win' | 'loss' | 'neutral';

// What fcast computes from the evidence, as the renderers receive it: evidence/ fills these in,
// output/ formats them, and neither needs the other.

/** Where a Wilson interval lies against a coin toss: wholly above 50%, wholly below, or across it. */
export type Versus50 = 'above' | 'below' | 'straddles';

/** One timeframe's period since a baseline; a count is undefined where either record lacks it. */
export interface PeriodChange {
  timeframe: string;
  settled?: number;
  wins?: number;
  losses?: number;
  neutrals?: number;
  /** Wins over wins and losses of the period; null when none resolved or a count went down. */
  rate: number | null;
  interval: [number, number] | null;
  versus50?: Versus50;
  /** Not in the baseline: the whole timeframe is new. */
  appeared: boolean;
}

export type CountName = 'n_settled' | 'win' | 'loss' | 'neutral';

export interface CountDrop {
  count: CountName;
  before: number;
  now: number;
}

export type BaselineComparison =
  | { comparable: false; baselineProtocol: string | undefined; currentProtocol: string | undefined }
  | {
      comparable: true;
      protocol: string;
      changes: PeriodChange[];
      drops: Array<{ timeframe: string; drops: CountDrop[] }>;
      vanished: string[];
    };

/** A row of the track record table, figures as numbers; undefined where absent or not a number. */
export interface RecordRow {
  timeframe: string;
  settled?: number;
  wins?: number;
  losses?: number;
  neutrals?: number;
  /** As published (the Total row's: computed). */
  rate?: number;
  interval?: readonly [number, number];
  versus50?: Versus50;
  positiveRate?: number;
  averageReturnPct?: number;
  maturity?: string;
  /** The period since the baseline, when one was compared. */
  change?: PeriodChange;
}

export interface RecordRows {
  rows: RecordRow[];
  /** undefined unless there are two rows or more to add up: one row's total is itself. */
  total: RecordRow | undefined;
}

/** verify's re-derivation of one settlement's outcome. */
export type SettlementCheck =
  | {
      checked: true;
      direction: Direction;
      anchor: number;
      close: number;
      returnPct: number;
      /** The outcome the figures give. */
      expected: Outcome;
      neutralBandPct: number | undefined;
      published: Outcome | undefined;
      /** undefined when there is nothing to compare, or a published neutral cannot be judged without a band. */
      agrees: boolean | undefined;
    }
  | { checked: false; missing: string[] };

/** Minutes in a timeframe named like the seed's (`5min`, `1h`, `1d`); undefined for any other name. */
export function timeframeMinutes(tf: string): number | undefined {
  const m = /^(\d+)(min|h|d)$/.exec(tf);
  if (!m) return undefined;
  return Number(m[1]) * (m[2] === 'min' ? 1 : m[2] === 'h' ? 60 : 1440);
}

/** Minutes in a timeframe as people type it: `60min`, `60m`, `1h`, `24h`, `1d`, `1w`; undefined otherwise. */
export function typedTimeframeMinutes(tf: string): number | undefined {
  const m = /^(\d{1,6})\s*(m|mins?|h|hrs?|d|w)$/i.exec(tf.trim());
  if (!m) return undefined;
  const unit = m[2]!.toLowerCase()[0];
  return Number(m[1]) * (unit === 'm' ? 1 : unit === 'h' ? 60 : unit === 'd' ? 1440 : 10080);
}

/**
 * The name among `names` that `typed` means: itself (in any case), else the one of the same
 * length of time (`60min` and `60m` are `1h`, `24h` and `1440min` are `1d`); undefined when
 * none is.
 */
export function equivalentTimeframe(typed: string, names: readonly string[]): string | undefined {
  const text = typed.trim().toLowerCase();
  const exact = names.find((n) => n.toLowerCase() === text);
  if (exact !== undefined) return exact;
  const minutes = typedTimeframeMinutes(text);
  return minutes === undefined ? undefined : names.find((n) => typedTimeframeMinutes(n) === minutes);
}

export const CANDLE_TIMEFRAMES = ['15min', '1h'] as const;

export type GatewayScope = 'market.read' | 'predictions.read' | 'macro.read';
export type GatewayArgKind = 'string' | 'symbol' | 'timeframe' | 'integer' | 'timezone';

export interface GatewayArg {
  name: string;
  kind: GatewayArgKind;
  required: boolean;
  /** Sent when the argument is left out: the gateway requires it, a user need not type it. */
  default?: string;
}

export interface GatewayCommand {
  name: string;
  scope: GatewayScope;
  args: GatewayArg[];
  summary: string;
  example: string;
}

const arg = (name: string, kind: GatewayArgKind, required = true): GatewayArg => ({ name, kind, required });

/** The gateway's allowlist, with positional arguments in the order the seed gives. */
export const GATEWAY_COMMANDS: readonly GatewayCommand[] = [
  {
    name: 'snapshot',
    scope: 'market.read',
    args: [],
    summary: 'cached market snapshot',
    example: 'fcast cmd snapshot',
  },
  {
    name: 'search',
    scope: 'market.read',
    args: [arg('query', 'string'), arg('asset_class', 'string', false)],
    summary: 'discover supported symbols and their status',
    example: 'fcast cmd search bitcoin crypto',
  },
  {
    name: 'indicators',
    scope: 'market.read',
    args: [arg('symbol', 'symbol'), arg('timeframe', 'timeframe')],
    summary: 'cached indicators for a symbol and timeframe',
    example: 'fcast cmd indicators BTC/USD 1h',
  },
  {
    name: 'analyze',
    scope: 'predictions.read',
    args: [arg('symbol', 'symbol'), arg('timeframe', 'timeframe')],
    summary: 'bias, confidence, drivers and derived indicators',
    example: 'fcast cmd analyze ETH/USD 4h',
  },
  {
    name: 'opportunities',
    scope: 'predictions.read',
    // The gateway requires a limit; fcast sends 10 when none is typed.
    args: [{ ...arg('limit', 'integer'), default: '10' }],
    summary: 'prioritised feed of cached opportunities',
    example: 'fcast cmd opportunities 10',
  },
  {
    name: 'macro',
    scope: 'macro.read',
    args: [],
    summary: 'macro snapshot for cross-asset context',
    example: 'fcast cmd macro',
  },
  {
    name: 'calendar',
    scope: 'market.read',
    args: [arg('symbol', 'symbol'), arg('user_tz', 'timezone', false)],
    summary: 'asset calendar and market state',
    example: 'fcast cmd calendar EUR/USD Europe/Madrid',
  },
  {
    name: 'events',
    scope: 'macro.read',
    args: [arg('kind', 'string'), arg('symbol', 'symbol', false), arg('days', 'integer', false)],
    summary: 'economic events, earnings, dividends and crypto events',
    example: 'fcast cmd events earnings AAPL/USD 7',
  },
];

export const GATEWAY_COMMAND_NAMES = GATEWAY_COMMANDS.map((c) => c.name);

/** A time zone name the runtime knows (IANA, e.g. Europe/Madrid): the gateway's `user_tz`. */
export function isValidTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** A REST key: `<prefix>_ag_` and 40 lowercase hex characters. */
export const REST_KEY_PATTERN = /^[A-Za-z0-9]+_ag_[0-9a-f]{40}$/;

export const EMAIL_MAX_LENGTH = 190;
// Deliberately plain: one @, a dot in the domain, no spaces. The server has the last word.
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const REST_PREFIX = 'api/agent/v1/';
export const GATEWAY_PATH = 'api/v1/agent/command';

/** The methods `fcast api` sends; GET is the default. */
export const API_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type ApiMethod = (typeof API_METHODS)[number];

/** The service's paths, as `fcast api` takes them (what TAB offers after it). */
export const API_PATHS = [
  REST_PREFIX,
  ...['demo.php', 'predictions.php', 'symbols.php', 'track-record.php', 'accuracy.php', 'verify.php'].map(
    (file) => `${REST_PREFIX}${file}`,
  ),
  GATEWAY_PATH,
] as const;
