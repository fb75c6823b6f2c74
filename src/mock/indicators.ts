// Classic technical indicators computed from the emulated price path, so the gateway's
// `indicators` and `analyze` answers agree with the prices the REST side serves.
import type { SymbolInfo } from './catalog.js';
import { candlesUntil, type Candle } from './prices.js';
import { round } from './random.js';

const LOOKBACK = 120;

function ema(values: number[], period: number): number[] {
  const k = 2 / (period + 1);
  const out: number[] = [];
  let prev = values[0] ?? 0;
  for (const v of values) {
    prev = out.length === 0 ? v : v * k + prev * (1 - k);
    out.push(prev);
  }
  return out;
}

function rsi(closes: number[], period: number): number {
  let gain = 0;
  let loss = 0;
  for (let i = 1; i < closes.length; i++) {
    const d = (closes[i] ?? 0) - (closes[i - 1] ?? 0);
    const g = Math.max(d, 0);
    const l = Math.max(-d, 0);
    // Wilder's smoothing: a simple mean for the first period, then exponential.
    if (i <= period) {
      gain += g / period;
      loss += l / period;
    } else {
      gain = (gain * (period - 1) + g) / period;
      loss = (loss * (period - 1) + l) / period;
    }
  }
  return loss === 0 ? 100 : 100 - 100 / (1 + gain / loss);
}

function atr(candles: Candle[], period: number): number {
  let value = 0;
  candles.forEach((c, i) => {
    const prevClose = candles[i - 1]?.c ?? c.o;
    const tr = Math.max(c.h - c.l, Math.abs(c.h - prevClose), Math.abs(c.l - prevClose));
    value = i < period ? value + tr / period : (value * (period - 1) + tr) / period;
  });
  return value;
}

const last = (xs: number[]): number => xs[xs.length - 1] ?? 0;

export interface IndicatorSet {
  close: number;
  rsi_14: number;
  ema_20: number;
  ema_50: number;
  sma_50: number;
  macd: { macd: number; signal: number; histogram: number };
  atr_14: number;
  bollinger_20_2: { upper: number; middle: number; lower: number };
}

export function indicatorsFor(seed: string, info: SymbolInfo, tfSeconds: number, until: number): IndicatorSet {
  const candles = candlesUntil(seed, info, until, tfSeconds, LOOKBACK);
  const closes = candles.map((c) => c.c);
  const slow = ema(closes, 26);
  const macdLine = ema(closes, 12).map((v, i) => v - (slow[i] ?? 0));
  const signal = ema(macdLine, 9);
  const tail20 = closes.slice(-20);
  const mean20 = tail20.reduce((a, b) => a + b, 0) / tail20.length;
  const sd20 = Math.sqrt(tail20.reduce((a, b) => a + (b - mean20) ** 2, 0) / tail20.length);
  const sma50 = closes.slice(-50).reduce((a, b) => a + b, 0) / 50;
  const d = info.decimals;
  // MACD of FX pairs lives in the fifth decimal and beyond; keep a few more digits there.
  const md = d + 2;
  return {
    close: last(closes),
    rsi_14: round(rsi(closes, 14), 2),
    ema_20: round(last(ema(closes, 20)), d),
    ema_50: round(last(ema(closes, 50)), d),
    sma_50: round(sma50, d),
    macd: {
      macd: round(last(macdLine), md),
      signal: round(last(signal), md),
      histogram: round(last(macdLine) - last(signal), md),
    },
    atr_14: round(atr(candles, 14), d),
    bollinger_20_2: {
      upper: round(mean20 + 2 * sd20, d),
      middle: round(mean20, d),
      lower: round(mean20 - 2 * sd20, d),
    },
  };
}
