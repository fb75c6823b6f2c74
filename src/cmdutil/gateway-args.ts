// What the user typed after `fcast cmd COMMAND`, checked against the gateway's allowlist and
// shaped into the JSON the gateway expects, before anything is sent: a bad value is exit 2.
import {
  GATEWAY_COMMANDS,
  isValidTimeZone,
  type GatewayArg,
  type GatewayArgKind,
  type GatewayCommand,
} from '../core/domain.js';
import { UsageError } from '../core/errors.js';
import { canonicalSymbol, closest, parseWholeNumber, shown } from './input.js';

/** One JSON value of the `args` array; null stands for an optional argument left out. */
export type GatewayArgValue = string | number | null;

/** Typed in an optional position, it leaves that argument out so a later one can be given. */
const SKIPPED_ARG = '-';

/** Lowercase is the seed's spelling; `ANALYZE` still finds `analyze`. */
function findGatewayCommand(name: string): GatewayCommand | undefined {
  const wanted = name.trim().toLowerCase();
  return GATEWAY_COMMANDS.find((c) => c.name === wanted);
}

/** `<symbol> <timeframe>`, `<kind> [symbol] [days]`: the arguments as help shows them. */
export function argumentsUsage(command: GatewayCommand): string {
  return command.args.map((a) => (a.required && a.default === undefined ? `<${a.name}>` : `[${a.name}]`)).join(' ');
}

/** Every command with its arguments, on one line, for error messages. */
export function commandListing(): string {
  return GATEWAY_COMMANDS.map((c) => [c.name, argumentsUsage(c)].filter(Boolean).join(' ')).join(', ');
}

/** The command the user named, or exit 2 listing the allowed ones with their arguments. */
export function requireGatewayCommand(name: string | undefined): GatewayCommand {
  if (name === undefined || name.trim() === '') {
    throw new UsageError(`name a gateway command: ${commandListing()}`, { hint: "see 'fcast cmd --help'" });
  }
  const found = findGatewayCommand(name);
  if (!found) {
    const near = closest(
      name,
      GATEWAY_COMMANDS.map((c) => c.name),
    );
    throw new UsageError(
      `unknown gateway command ${shown(name)}${near ? ` (did you mean ${near}?)` : ''}; the commands are: ${commandListing()}`,
      { hint: near ? `see 'fcast cmd ${near} --help'` : "see 'fcast cmd --help'" },
    );
  }
  return found;
}

const KIND_HELP: Record<GatewayArgKind, string> = {
  string: 'text',
  symbol: 'a symbol: BTC/USD, btc-usd or BTCUSD (sent as BTCUSD)',
  timeframe: 'a number and m, h, d or w: 15m, 1h, 4h, 1d (minutes are sent as 15min)',
  integer: 'a whole number >= 1, sent as a JSON number',
  timezone: 'an IANA time zone name, like Europe/Madrid or America/New_York (sent as typed)',
};

// The seed names these arguments without describing them; say what a user needs to type.
const NAME_HELP: Record<string, string> = {
  query: 'what to look for: a symbol, a name or part of one (bitcoin, EUR, apple)',
  asset_class: 'an asset class to narrow the search to (crypto, fx, stock...)',
  limit: 'how many opportunities, a whole number >= 1, sent as a JSON number',
  days: 'how many days ahead, a whole number >= 1, sent as a JSON number',
  kind: 'the kind of event (economic, earnings, dividends, crypto...)',
};

export function describeArgument(arg: GatewayArg): string {
  const text = NAME_HELP[arg.name] ?? KIND_HELP[arg.kind];
  if (arg.default !== undefined) return `optional, default ${arg.default}; ${text}`;
  return arg.required ? text : `optional; ${text}`;
}

/**
 * The `args` array for the request body, in the seed's order. Symbols lose their slash,
 * integers become JSON numbers, everything else is sent as typed. A `-` skips an optional
 * argument (sent as null) so that a later one can be given: `events earnings - 7`.
 */
export function shapeGatewayArgs(command: GatewayCommand, raw: readonly string[]): GatewayArgValue[] {
  const usage = `usage: fcast cmd ${[command.name, argumentsUsage(command)].filter(Boolean).join(' ')}`;
  const hint = `${usage}; see 'fcast cmd ${command.name} --help'`;
  if (raw.length > command.args.length) {
    const takes =
      command.args.length === 0
        ? 'takes no arguments'
        : `takes at most ${command.args.length} argument${command.args.length === 1 ? '' : 's'} (${command.args.map((a) => a.name).join(', ')})`;
    throw new UsageError(`${command.name} ${takes}, got ${raw.length}`, { hint });
  }
  const shaped = command.args.map((spec, i): GatewayArgValue => {
    const value = raw[i] ?? spec.default;
    if (value === undefined || value === SKIPPED_ARG) {
      if (spec.required) throw new UsageError(`${command.name}: the argument ${spec.name} is required`, { hint });
      return null;
    }
    return shapeArgument(command, spec, value);
  });
  // Trailing left-out arguments are simply not sent.
  while (shaped.length > 0 && shaped[shaped.length - 1] === null) shaped.pop();
  return shaped;
}

function shapeArgument(command: GatewayCommand, spec: GatewayArg, value: string): string | number {
  const what = `${command.name}: ${spec.name}`;
  switch (spec.kind) {
    case 'integer':
      return parseWholeNumber(value, what, 1);
    case 'symbol':
      return gatewaySymbol(value, what);
    case 'timeframe':
      return gatewayTimeframe(value, what);
    case 'timezone':
      return checkTimeZone(value, what);
    case 'string':
      if (value.trim() === '') throw new UsageError(`${what} must not be empty`);
      return value;
  }
}

const PLAIN_SYMBOL = /^[A-Za-z0-9.]{2,30}$/;

/** `BTC/USD`, `btc/usd`, `BTC-USD`, `BTCUSD` -> `BTCUSD`: the gateway writes symbols without the slash. */
export function gatewaySymbol(raw: string, what = 'symbol'): string {
  const text = raw.trim();
  if (/[/-]/.test(text)) {
    try {
      return canonicalSymbol(text).replace('/', '');
    } catch {
      // Fall through to the message that names the argument.
    }
  } else if (PLAIN_SYMBOL.test(text)) {
    return text.toUpperCase();
  }
  throw new UsageError(
    `${what}: invalid symbol ${shown(raw)}; expected BASE/QUOTE or BASEQUOTE, like BTC/USD or BTCUSD`,
  );
}

const TIMEFRAME = /^([1-9]\d{0,3})\s*(m|min|h|d|w)$/i;

/** Units as people spell them out: `1hr`, `4 hours`, `15mins`, `1day`, `2wk`. */
const SPELLED_UNITS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(mins|minutes?)$/, 'm'],
  [/^(hrs?|hours?)$/, 'h'],
  [/^days?$/, 'd'],
  [/^(wks?|weeks?)$/, 'w'],
];

/** The timeframe a spelled-out unit meant (`1hr` -> `1h`), or undefined. */
function spelledTimeframe(raw: string): string | undefined {
  const m = /^([1-9]\d{0,3})\s*([a-z]+)$/i.exec(raw.trim());
  const unit = m && SPELLED_UNITS.find(([spelled]) => spelled.test(m[2]!.toLowerCase()))?.[1];
  return m && unit ? `${m[1]}${unit}` : undefined;
}

/**
 * A number and a unit: `15m` or `15min` (sent as `15min`, the service's spelling of minutes),
 * `1h`, `4h`, `1d`, `1w`. Which timeframes exist is the server's to say.
 */
export function gatewayTimeframe(raw: string, what = 'timeframe'): string {
  const m = TIMEFRAME.exec(raw.trim());
  if (!m) {
    const near = spelledTimeframe(raw);
    throw new UsageError(
      `${what}: invalid timeframe ${shown(raw)}${near ? ` (did you mean ${near}?)` : ''}; expected a number and m, h, d or w, like 15m, 1h, 4h or 1d`,
    );
  }
  const unit = m[2]!.toLowerCase();
  return `${m[1]}${unit === 'm' ? 'min' : unit}`;
}

/** An IANA time zone name the runtime knows, sent exactly as typed. */
export function checkTimeZone(raw: string, what = 'user_tz'): string {
  if (!isValidTimeZone(raw)) {
    throw new UsageError(
      `${what}: unknown time zone ${shown(raw)}; expected an IANA name like Europe/Madrid, America/New_York or UTC`,
    );
  }
  return raw;
}

/** The time zone the user named among the arguments (calendar's `user_tz`), if any: views show times in it. */
export function userTimeZone(command: GatewayCommand, args: readonly GatewayArgValue[]): string | undefined {
  const i = command.args.findIndex((a) => a.kind === 'timezone');
  const value = i < 0 ? undefined : args[i];
  return typeof value === 'string' ? value : undefined;
}
