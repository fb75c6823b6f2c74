// The emulated universe: which symbols exist, how their prices behave, and which forecast
// timeframes each one carries. A few symbols deliberately carry fewer timeframes so that
// clients meet partial `predictions` maps and `symbols.php` entries of different sizes.
import { FORECAST_TIMEFRAMES, timeframeMinutes } from '../core/domain.js';

export type AssetClass = 'crypto' | 'fx' | 'metal' | 'stock' | 'index';
export const ASSET_CLASSES: readonly AssetClass[] = ['crypto', 'fx', 'metal', 'stock', 'index'];

export interface PathSpec {
  /** Name of the price path in the hash, so that a symbol and a macro series never share one. */
  id: string;
  base: number;
  /** Scale of the moves: 1 is crypto-like, 0.1 is FX-like. */
  vol: number;
  decimals: number;
}

export interface SymbolInfo extends PathSpec {
  symbol: string;
  name: string;
  assetClass: AssetClass;
  aliases: readonly string[];
  /** Forecast timeframes this symbol carries, in horizon order. */
  timeframes: readonly string[];
  /** Share of the all-symbol track record settled on this symbol. */
  share: number;
}

const ALL_TFS = FORECAST_TIMEFRAMES.map(([tf]) => tf);
const only = (...tfs: string[]): string[] => ALL_TFS.filter((tf) => tfs.includes(tf));

const sym = (
  symbol: string,
  name: string,
  assetClass: AssetClass,
  base: number,
  vol: number,
  decimals: number,
  share: number,
  aliases: string[],
  timeframes: readonly string[] = ALL_TFS,
): SymbolInfo => ({ id: symbol, symbol, name, assetClass, base, vol, decimals, share, aliases, timeframes });

export const SYMBOLS: readonly SymbolInfo[] = [
  sym('BTC/USD', 'Bitcoin', 'crypto', 97_000, 1, 2, 0.24, ['bitcoin', 'xbt']),
  sym('ETH/USD', 'Ethereum', 'crypto', 3_400, 1.2, 2, 0.2, ['ether', 'ethereum']),
  sym('EUR/USD', 'Euro / US Dollar', 'fx', 1.08, 0.12, 5, 0.12, ['euro', 'eurusd', 'fiber']),
  sym('SOL/USD', 'Solana', 'crypto', 190, 1.6, 2, 0.12, ['solana']),
  sym(
    'XAU/USD',
    'Gold spot',
    'metal',
    2_650,
    0.25,
    2,
    0.09,
    ['gold'],
    only('1min', '5min', '15min', '30min', '1h', '2h', '3h', '6h'),
  ),
  sym('GBP/USD', 'British Pound / US Dollar', 'fx', 1.27, 0.13, 5, 0.09, ['pound', 'sterling', 'cable']),
  sym(
    'AAPL/USD',
    'Apple Inc.',
    'stock',
    230,
    0.4,
    2,
    0.07,
    ['apple'],
    only('5min', '15min', '30min', '1h', '2h', '3h', '6h'),
  ),
  sym(
    'SPX/USD',
    'S&P 500 index',
    'index',
    5_900,
    0.3,
    2,
    0.07,
    ['s&p', 'sp500', 'spx'],
    only('15min', '30min', '1h', '2h', '3h', '6h'),
  ),
];

export function findSymbol(symbol: string): SymbolInfo | undefined {
  return SYMBOLS.find((s) => s.symbol === symbol);
}

/** The gateway writes symbols without the slash: `BTC/USD` is `BTCUSD`. */
export function gatewayCode(info: SymbolInfo): string {
  return info.symbol.replace('/', '');
}

export function findGatewaySymbol(code: string): SymbolInfo | undefined {
  const upper = code.toUpperCase();
  return SYMBOLS.find((s) => gatewayCode(s) === upper);
}

/** Length of a timeframe in seconds, from its name (`5min`, `1h`, `1d`). */
export function tfSeconds(tf: string): number {
  const minutes = timeframeMinutes(tf);
  if (minutes === undefined) throw new Error(`not a timeframe: ${tf}`);
  return minutes * 60;
}
