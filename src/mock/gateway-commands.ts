// The `data` of each gateway command. The seed leaves these shapes open; they are built to be
// realistic and self-consistent with the REST side (same price paths, same forecasts).
import { ACCURACY_TIMEFRAMES, FORECAST_TIMEFRAMES } from '../core/domain.js';
import { gatewayCode, SYMBOLS, tfSeconds, type AssetClass, type PathSpec, type SymbolInfo } from './catalog.js';
import { engineForecast, latestTs } from './forecasts.js';
import { indicatorsFor, type IndicatorSet } from './indicators.js';
import { calendarFor, marketState } from './market-hours.js';
import { isoSeconds } from './meta.js';
import { change24hPct, priceAt } from './prices.js';
import { clamp, rngFor, round, unit } from './random.js';

const OPPORTUNITIES_CAP = 50;
export const EVENT_KINDS = ['economic', 'earnings', 'dividends', 'crypto', 'all'] as const;
export const EVENT_DAYS_MAX = 90;
export const EVENT_DAYS_DEFAULT = 7;

const describe = (info: SymbolInfo, t: number) => ({
  symbol: gatewayCode(info),
  display: info.symbol,
  name: info.name,
  asset_class: info.assetClass,
  market_state: marketState(info.assetClass, t),
});

export function snapshot(seed: string, t: number) {
  return {
    as_of: isoSeconds(t),
    count: SYMBOLS.length,
    symbols: SYMBOLS.map((info) => ({
      ...describe(info, t),
      last: priceAt(seed, info, t),
      change24h_pct: change24hPct(seed, info, t),
    })),
  };
}

export function search(t: number, query: string, assetClass: AssetClass | undefined) {
  const q = query.trim().toLowerCase().replace('/', '');
  const matches = SYMBOLS.filter((info) => {
    if (assetClass && info.assetClass !== assetClass) return false;
    const haystack = [gatewayCode(info), info.name, ...info.aliases].map((s) => s.toLowerCase());
    return haystack.some((s) => s.includes(q));
  }).map((info) => ({
    ...describe(info, t),
    status: 'active',
    forecast_timeframes: info.timeframes,
  }));
  return { query, asset_class: assetClass ?? null, count: matches.length, matches };
}

export function indicators(seed: string, info: SymbolInfo, tf: string, t: number) {
  return {
    symbol: gatewayCode(info),
    timeframe: tf,
    as_of: isoSeconds(t),
    cached: true,
    indicators: indicatorsFor(seed, info, tfSeconds(tf), t),
  };
}

function biasOf(ind: IndicatorSet): { score: number; drivers: string[] } {
  const drivers: string[] = [];
  const rsiPart = (ind.rsi_14 - 50) / 50;
  drivers.push(
    `RSI(14) at ${ind.rsi_14}: ${ind.rsi_14 > 70 ? 'overbought' : ind.rsi_14 < 30 ? 'oversold' : rsiPart >= 0 ? 'momentum positive' : 'momentum negative'}`,
  );
  const trend = ind.close >= ind.ema_50 ? 1 : -1;
  drivers.push(`price ${trend > 0 ? 'above' : 'below'} EMA(50) at ${ind.ema_50}`);
  const macd = Math.sign(ind.macd.histogram);
  drivers.push(`MACD histogram ${macd >= 0 ? 'positive' : 'negative'} (${ind.macd.histogram})`);
  const squeeze = (ind.bollinger_20_2.upper - ind.bollinger_20_2.lower) / ind.bollinger_20_2.middle;
  drivers.push(`Bollinger band width ${round(squeeze * 100, 2)}% of price`);
  return { score: clamp(0.4 * rsiPart + 0.35 * trend + 0.25 * macd, -1, 1), drivers };
}

export function analyze(seed: string, info: SymbolInfo, tf: string, t: number) {
  const ind = indicatorsFor(seed, info, tfSeconds(tf), t);
  const { score, drivers } = biasOf(ind);
  const horizon = FORECAST_TIMEFRAMES.find(([name]) => name === tf);
  let forecast: { direction: string; p_long: number; p_short: number; target_t: number } | null = null;
  if (horizon && info.timeframes.includes(tf)) {
    const f = engineForecast(seed, info, tf, horizon[1], latestTs(tf, t, 0), t);
    forecast = { direction: f.ia3.direction, p_long: f.ia3.p_long, p_short: f.ia3.p_short, target_t: f.target_t };
    drivers.push(`ia3 forecast ${f.ia3.direction} (p_long ${f.ia3.p_long}, p_short ${f.ia3.p_short})`);
  }
  return {
    symbol: gatewayCode(info),
    timeframe: tf,
    as_of: isoSeconds(t),
    bias: score > 0.2 ? 'bullish' : score < -0.2 ? 'bearish' : 'neutral',
    confidence: round(clamp(0.15 + 0.8 * Math.abs(score), 0, 1), 2),
    drivers,
    indicators: ind,
    forecast,
  };
}

export function opportunities(seed: string, limit: number, t: number) {
  // Rankings are refreshed hourly, as a cached feed would be.
  const hour = Math.floor(t / 3600);
  const candidates = SYMBOLS.flatMap((info) =>
    ACCURACY_TIMEFRAMES.map((tf) => {
      const next = rngFor(seed, 'opportunity', info.symbol, tf, hour);
      const tilt = next() * 2 - 1;
      return {
        symbol: gatewayCode(info),
        timeframe: tf,
        direction: tilt >= 0 ? 'long' : 'short',
        score: round(40 + 60 * Math.abs(tilt) * (0.6 + 0.4 * next()), 1),
        confidence: round(0.5 + 0.45 * next(), 2),
      };
    }),
  );
  candidates.sort(
    (a, b) => b.score - a.score || a.symbol.localeCompare(b.symbol) || a.timeframe.localeCompare(b.timeframe),
  );
  const items = candidates.slice(0, Math.min(limit, OPPORTUNITIES_CAP)).map((c, i) => ({ rank: i + 1, ...c }));
  return { generated_at: isoSeconds(hour * 3600), count: items.length, items };
}

const series = (id: string, base: number, vol: number, decimals: number): PathSpec => ({
  id: `macro:${id}`,
  base,
  vol,
  decimals,
});
const MACRO_INDICES = [series('NDX', 21_000, 0.35, 2), series('DAX', 19_500, 0.3, 2), series('N225', 38_500, 0.3, 2)];
const MACRO_FX = [series('USDJPY', 151.5, 0.14, 3), series('USDCHF', 0.88, 0.12, 5)];
const MACRO_COMMODITIES = [series('WTI', 71, 0.5, 2), series('HG', 4.2, 0.4, 4)];
const RATES: ReadonlyArray<readonly [string, number]> = [
  ['US 2Y', 4.12],
  ['US 10Y', 4.31],
  ['DE 10Y', 2.36],
  ['JP 10Y', 1.08],
];

export function macro(seed: string, t: number) {
  const day = Math.floor(t / 86_400);
  const quoteOf = (symbol: string, s: PathSpec) => ({
    symbol,
    last: priceAt(seed, s, t),
    change_pct: change24hPct(seed, s, t),
  });
  const quote = (s: PathSpec) => quoteOf(s.id.replace('macro:', ''), s);
  /** The catalogue's own symbols of a class, under their gateway codes. */
  const listed = (assetClass: AssetClass) =>
    SYMBOLS.filter((s) => s.assetClass === assetClass).map((s) => quoteOf(gatewayCode(s), s));
  const spx = SYMBOLS.find((s) => s.symbol === 'SPX/USD')!;
  const indices = [quoteOf('SPX', spx), ...MACRO_INDICES.map(quote)];
  const risk = indices.reduce((a, i) => a + i.change_pct, 0);
  return {
    as_of: isoSeconds(t),
    rates: RATES.map(([name, base]) => ({
      name,
      value: round(
        base +
          0.25 * (unit(seed, 'rate', name, Math.floor(day / 7)) - 0.5) +
          0.05 * (unit(seed, 'rate', name, day) - 0.5),
        3,
      ),
      change_bp: round(10 * (unit(seed, 'rate-chg', name, day) - 0.5), 1),
    })),
    indices,
    fx: [...listed('fx'), ...MACRO_FX.map(quote)],
    commodities: [...listed('metal'), ...MACRO_COMMODITIES.map(quote)],
    regime: risk > 0.5 ? 'risk_on' : risk < -0.5 ? 'risk_off' : 'mixed',
  };
}

export function calendar(info: SymbolInfo, tz: string, t: number) {
  return {
    symbol: gatewayCode(info),
    asset_class: info.assetClass,
    timezone: tz,
    now: isoSeconds(t),
    ...calendarFor(info.assetClass, t, tz),
  };
}

type EventKind = Exclude<(typeof EVENT_KINDS)[number], 'all'>;
interface EventTemplate {
  kind: EventKind;
  title: string;
  impact: 'low' | 'medium' | 'high';
  minute: number;
  symbol?: string;
  chance: number;
  weekday?: number;
}

/** A template: its time of day in UTC ('HH:MM'), on `weekday` alone (0 is Sunday) when one is given. */
const event = (
  kind: EventKind,
  title: string,
  impact: EventTemplate['impact'],
  at: string,
  chance: number,
  only: Pick<EventTemplate, 'symbol' | 'weekday'> = {},
): EventTemplate => ({
  kind,
  title,
  impact,
  minute: Number(at.slice(0, 2)) * 60 + Number(at.slice(3)),
  chance,
  ...only,
});

const EVENT_POOL: readonly EventTemplate[] = [
  event('economic', 'US CPI (YoY)', 'high', '12:30', 0.08),
  event('economic', 'US nonfarm payrolls', 'high', '12:30', 0.25, { weekday: 5 }),
  event('economic', 'FOMC rate decision', 'high', '18:00', 0.05),
  event('economic', 'ECB rate decision', 'high', '12:15', 0.05, { symbol: 'EURUSD' }),
  event('economic', 'BoE rate decision', 'high', '11:00', 0.05, { symbol: 'GBPUSD' }),
  event('economic', 'US initial jobless claims', 'medium', '12:30', 1, { weekday: 4 }),
  event('economic', 'Eurozone PMI (flash)', 'medium', '08:00', 0.12, { symbol: 'EURUSD' }),
  event('economic', 'UK GDP (QoQ)', 'medium', '06:00', 0.08, { symbol: 'GBPUSD' }),
  event('economic', 'US consumer confidence', 'low', '14:00', 0.15),
  event('earnings', 'Apple Inc. quarterly earnings', 'high', '20:30', 0.1, { symbol: 'AAPLUSD' }),
  event('earnings', 'S&P 500 heavyweight earnings week', 'medium', '13:00', 0.15, { symbol: 'SPXUSD' }),
  event('dividends', 'Apple Inc. ex-dividend date', 'low', '13:30', 0.06, { symbol: 'AAPLUSD' }),
  event('crypto', 'BTC options expiry', 'medium', '08:00', 1, { symbol: 'BTCUSD', weekday: 5 }),
  event('crypto', 'ETH options expiry', 'medium', '08:00', 1, { symbol: 'ETHUSD', weekday: 5 }),
  event('crypto', 'Solana token unlock', 'low', '00:00', 0.05, { symbol: 'SOLUSD' }),
  event('crypto', 'Ethereum network upgrade (testnet)', 'low', '15:00', 0.03, { symbol: 'ETHUSD' }),
];

export function events(seed: string, kind: string, symbol: string | undefined, days: number, t: number) {
  const today = Math.floor(t / 86_400);
  const items: Array<{ date: string; kind: EventKind; title: string; symbol?: string; impact: string }> = [];
  for (let day = today; day < today + days; day++) {
    const weekday = new Date(day * 86_400_000).getUTCDay();
    for (const e of EVENT_POOL) {
      // Scheduled markets publish on weekdays; crypto events fall on any day.
      if (e.kind !== 'crypto' && (weekday === 0 || weekday === 6)) continue;
      if (e.weekday !== undefined && e.weekday !== weekday) continue;
      if (kind !== 'all' && e.kind !== kind) continue;
      if (symbol !== undefined && e.symbol !== symbol) continue;
      if (unit(seed, 'event', e.title, day) >= e.chance) continue;
      items.push({
        date: isoSeconds(day * 86_400 + e.minute * 60),
        kind: e.kind,
        title: e.title,
        ...(e.symbol ? { symbol: e.symbol } : {}),
        impact: e.impact,
      });
    }
  }
  items.sort((a, b) => a.date.localeCompare(b.date) || a.title.localeCompare(b.title));
  return {
    kind,
    ...(symbol ? { symbol } : {}),
    days,
    from: isoSeconds(today * 86_400),
    count: items.length,
    events: items,
  };
}
