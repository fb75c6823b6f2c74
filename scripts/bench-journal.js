// For `npm run bench`: a journal export of a million forecasts, as `fcast journal export`
// writes it, to import and report on. Four symbols, four timeframes, one forecast of each a
// minute, ending an hour before `endS`; nine in ten settled (a close within a few tenths of a
// percent of the anchor, the call right a little more often than not), one in twenty
// unsettleable, the rest open. Deterministic: the same file every run.
// With `varied`, data of many shapes as a user's journal holds after months: 50 symbols, three
// timeframes, eight months, half the symbols with whole-number prices and the rest with
// unrounded ones (17 significant digits), probabilities unrounded too.
// With `engines`, each row also carries every engine (the columns of `ENGINE_HEADER`) as the
// journal keeps them since version 3: ia1's scores, ia2's forecast, ia3's label and policy
// version; without, the rows are ia3-only, as an export of an older journal is.
import { closeSync, openSync, writeSync } from 'node:fs';

const SYMBOLS = ['BTC/USD', 'ETH/USD', 'EUR/USD', 'SOL/USD'];
const TIMEFRAMES = [
  ['1min', 5],
  ['5min', 30],
  ['15min', 90],
  ['1h', 360],
];
const HEADER =
  'symbol,tf,ts,horizon_min,target_t,anchor_price,target_price,direction,p_long,p_short,p_flat,status,settle_price,settle_t,settle_source,return_pct,outcome,recorded_at';

const ENGINE_HEADER =
  'ia1.score,ia1.rsi_score,ia1.ema_score,ia2.p_long,ia2.p_short,ia2.p_flat,ia2.predicted_change_pct,ia2.confidence,ia2.label_raw,ia3.label,ia3.policy_version';

const VARIED_SYMBOLS = Array.from({ length: 50 }, (_, k) => `S${String(k).padStart(2, '0')}/USD`);
const VARIED_TIMEFRAMES = [
  ['15min', 90],
  ['1h', 360],
  ['4h', 960],
];

/** ia1's scores, ia2's forecast (its own probabilities, rounded as the call's are) and ia3's label and policy. */
function engineCells(next, prob, direction) {
  const score = (x) => Math.round((2 * x - 1) * 10_000) / 10_000;
  const long = prob(0.2 + 0.6 * next());
  const flat = prob(0.02 + 0.2 * next());
  const short = prob(Math.max(0, 1 - long - flat));
  const change = Math.round((next() - 0.5) * 2 * 10_000) / 10_000;
  const label = change > 0.05 ? 'sube' : change < -0.05 ? 'baja' : 'estable';
  return [
    score(next()),
    score(next()),
    score(next()),
    long,
    short,
    flat,
    change,
    Math.max(long, short, flat),
    label,
    direction,
    3,
  ];
}

export function writeJournalExport(path, count, endS, { varied = false, engines = false } = {}) {
  const SYMBOLS_ = varied ? VARIED_SYMBOLS : SYMBOLS;
  const TIMEFRAMES_ = varied ? VARIED_TIMEFRAMES : TIMEFRAMES;
  // Eight months in the varied journal: a step of 3,120 s per series.
  const step = varied ? 3120 : 60;
  let seed = 20_261_122;
  const next = () => {
    seed = (seed * 48_271) % 2_147_483_647;
    return seed / 2_147_483_647;
  };
  // The engines' draws from a generator of their own: with or without them, the rest is the same.
  let engineSeed = 20_261_202;
  const nextEngine = () => {
    engineSeed = (engineSeed * 48_271) % 2_147_483_647;
    return engineSeed / 2_147_483_647;
  };
  const perMinute = SYMBOLS_.length * TIMEFRAMES_.length;
  const start = Math.floor((endS - 3600 - Math.ceil(count / perMinute) * step) / 60) * 60;
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, engines ? `${HEADER},${ENGINE_HEADER}\n` : `${HEADER}\n`);
    let lines = [];
    for (let i = 0; i < count; i++) {
      const s = i % SYMBOLS_.length;
      const symbol = SYMBOLS_[s];
      const [tf, horizon] = TIMEFRAMES_[Math.floor(i / SYMBOLS_.length) % TIMEFRAMES_.length];
      const ts = start + Math.floor(i / perMinute) * step;
      const target = ts + horizon * 60;
      const whole = varied && s % 2 === 0;
      const price = (x) => (whole ? Math.round(x * 1000) : varied ? x : Math.round(x * 100) / 100);
      const anchor = price(100 + 50 * next());
      const prob = (x) => (varied ? x : Math.round(x * 10_000) / 10_000);
      const long = prob(0.25 + 0.5 * next());
      const flat = prob(0.04 + 0.12 * next());
      const short = prob(Math.max(0, 1 - long - flat));
      const direction = long >= short ? 'long' : 'short';
      const u = next();
      // status, settle_price, settle_t, settle_source, return_pct, outcome (the last two follow from the close)
      let settlement = ['open', '', '', '', '', ''];
      if (u < 0.9) {
        const up = next() < (direction === 'long' ? long + 0.03 : 1 - short - 0.03);
        const move = (up ? 1 : -1) * next() * 0.004;
        const close = whole
          ? Math.round(anchor * (1 + move))
          : varied
            ? anchor * (1 + move)
            : Math.round(anchor * (1 + move) * 100) / 100;
        settlement = ['settled', close, target, 'candles', '', ''];
      } else if (u < 0.95) settlement = ['unsettleable', '', '', '', '', ''];
      const row = [
        symbol,
        tf,
        ts,
        horizon,
        target,
        anchor,
        anchor,
        direction,
        long,
        short,
        flat,
        ...settlement,
        ts + 60,
        ...(engines ? engineCells(nextEngine, prob, direction) : []),
      ];
      lines.push(row.join(','));
      if (lines.length === 10_000) {
        writeSync(fd, `${lines.join('\n')}\n`);
        lines = [];
      }
    }
    if (lines.length) writeSync(fd, `${lines.join('\n')}\n`);
  } finally {
    closeSync(fd);
  }
}
