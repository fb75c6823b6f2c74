// Paired forecasts made up here (no emulator), imported as a journal CSV, compared by `fcast
// journal compare --json`, and every figure recomputed from the CSV by independent code:
// numpy for the moves, the scores, the lags from target_t and the Murphy values, scikit-learn's
// IsotonicRegression for CORP, R's forecast::dm.test for every DM statistic and p (with and
// without overlapping horizons), statsmodels for Holm; all to 1e-9. The bootstrap's SE is held
// to the exact variance of the circular block bootstrap's mean (numpy, the block dividing n).
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { Random } from '../../src/evidence/compare/random.js';
import { expectExit, runCli, tempDir } from '../helpers/cli.js';
import { describeWithOracle, hasPython, hasR, PYTHON } from '../helpers/oracles.js';

const HEADER =
  'symbol,tf,ts,horizon_min,target_t,anchor_price,target_price,direction,p_long,p_short,p_flat,status,settle_price,settle_t,settle_source,return_pct,outcome,recorded_at,ia2.p_long,ia2.p_short,ia2.p_flat';

/**
 * Two symbols per timeframe, 7 s apart (no two forecasts share a ts). 1h every 20 min, 60 min
 * ahead: two later forecasts overlap each one (lags 2); 15min every 15 min: none. n = 343 and
 * 216, so the default block (⌈n^(1/3)⌉, at least h) divides n.
 */
function journalCsv(): string {
  const r = new Random(2024);
  const lines = [HEADER];
  const t0 = 1_780_000_200;
  for (const [tf, stepMin, horizonMin, perSymbol] of [
    ['1h', 20, 60, [172, 171]],
    ['15min', 15, 15, [108, 108]],
  ] as const)
    perSymbol.forEach((count, k) => {
      const symbol = k === 0 ? 'BTC/USD' : 'ETH/USD';
      for (let i = 0; i < count; i++) {
        const ts = t0 + i * stepMin * 60 + 7 * k;
        // A move of whole hundredths of a percent (0 is flat within the 0.01% band).
        const cents = Math.round((r.next() - 0.5) * 60);
        const settle = (10000 + cents) / 100;
        const cls = cents > 0 ? 0 : cents < 0 ? 1 : 2;
        const probs = (skill: number, digits: number) => {
          const w = [r.next(), r.next(), r.next()];
          w[cls]! += skill * r.next();
          const round = (x: number) => (digits ? Math.round(x * 10 ** digits) / 10 ** digits : x);
          const total = w[0]! + w[1]! + w[2]!;
          const long = round(w[0]! / total);
          const short = round(w[1]! / total);
          return [long, short, Math.max(0, round(1 - long - short))];
        };
        const ia3 = probs(0.5, 4);
        const ia2 = probs(1.0, 0);
        const direction = ia3[0]! >= ia3[1]! ? 'long' : 'short';
        const target = ts + horizonMin * 60;
        lines.push(
          [
            symbol,
            tf,
            ts,
            horizonMin,
            target,
            '100.00',
            '100.00',
            direction,
            ...ia3,
            'settled',
            settle.toFixed(2),
            target,
            'candles',
            '',
            '',
            ts + 60,
            ...ia2,
          ].join(','),
        );
      }
    });
  return `${lines.join('\n')}\n`;
}

const PY = `
import csv, json, sys
import numpy as np
from sklearn.isotonic import IsotonicRegression
from statsmodels.stats.multitest import multipletests
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
band = float(sys.argv[2])
out = {'timeframes': {}, 'r': []}
for tf in ['15min', '1h']:
    rs = sorted([r for r in rows if r['tf'] == tf], key=lambda r: int(r['ts']))
    n = len(rs)
    ret = np.array([round((float(r['settle_price']) / float(r['anchor_price']) - 1) * 100, 10) for r in rs])
    cls = np.where(np.abs(ret) < band, 2, np.where(ret > 0, 0, 1))
    onehot = np.stack([cls == 0, cls == 1, cls == 2], axis=1).astype(float)
    P = {'ia3': np.array([[float(r['p_long']), float(r['p_short']), float(r['p_flat'])] for r in rs]),
         'ia2': np.array([[float(r['ia2.p_long']), float(r['ia2.p_short']), float(r['ia2.p_flat'])] for r in rs])}
    P['climatology'] = np.tile(onehot.mean(axis=0), (n, 1))
    ts = np.array([int(r['ts']) for r in rs]); tg = np.array([int(r['target_t']) for r in rs])
    sym = np.array([r['symbol'] for r in rs])
    lags = 0
    for s in set(sym):
        t, g = ts[sym == s], tg[sym == s]
        for i in range(len(t)):
            lags = max(lags, int(((t > t[i]) & (t < g[i])).sum()))
    loss = {}
    for f, p in P.items():
        loss[f] = {'rps': (p[:, 1] - onehot[:, 1]) ** 2 + (p[:, 1] + p[:, 2] - onehot[:, 1] - onehot[:, 2]) ** 2,
                   'brier_3class': ((p - onehot) ** 2).sum(axis=1),
                   'log_loss': -np.log(np.clip((p * onehot).sum(axis=1), 1e-15, None))}
    fc = {}
    theta = (np.arange(200) + 0.5) / 200
    murphy = {'up': {}, 'down': {}}
    for f, p in P.items():
        fc[f] = {k: float(v.mean()) for k, v in loss[f].items()}
        fc[f]['corp'] = {}
        for e, k in [('up', 0), ('down', 1), ('flat', 2)]:
            x, o = p[:, k], onehot[:, k]
            fit = IsotonicRegression(y_min=0, y_max=1).fit(x, o).predict(x)
            bs, bh, unc = ((x - o) ** 2).mean(), ((fit - o) ** 2).mean(), o.mean() * (1 - o.mean())
            fc[f]['corp'][e] = {'mcb': bs - bh, 'dsc': unc - bh, 'unc': unc, 'score': bs}
            if e != 'flat':
                sc = np.where(o[:, None] == 0, 2 * theta * (x[:, None] > theta), 2 * (1 - theta) * (x[:, None] <= theta))
                murphy[e][f] = sc.mean(axis=0).tolist()
    for f in P: fc[f]['rps_skill'] = 1 - fc[f]['rps'] / fc['climatology']['rps']
    h = lags + 1
    block = max(int(np.ceil(round(n ** (1 / 3), 12))), h)
    exact = {}
    for a, b in [('ia3', 'ia2'), ('ia3', 'climatology'), ('ia2', 'climatology')]:
        for s in ['rps', 'brier_3class', 'log_loss']:
            d = loss[a][s] - loss[b][s]
            out['r'].append({'tf': tf, 'a': a, 'b': b, 's': s, 'e1': loss[a][s].tolist(), 'e2': loss[b][s].tolist(), 'h': h})
            assert n % block == 0
            wrapped = np.concatenate([d, d[:block]])
            means = np.array([wrapped[i:i + block].mean() for i in range(n)])
            exact[a + ' ' + b + ' ' + s] = float(np.sqrt(((means - d.mean()) ** 2).mean() / (n // block)))
    out['timeframes'][tf] = {'n': n, 'lags': lags, 'block': block, 'forecasters': fc, 'murphy': murphy, 'exact_se': exact}
print(json.dumps(out))
`;

const R = `
suppressMessages(library(forecast)); library(jsonlite)
cases <- fromJSON(file("stdin"), simplifyVector = FALSE)
for (c in cases) {
  e1 <- unlist(c$e1); e2 <- unlist(c$e2)
  t <- tryCatch(dm.test(e1, e2, h = c$h, power = 1, varestimator = c$v), error = function(e) NULL, warning = function(w) NULL)
  cat(if (is.null(t)) "NA NA" else sprintf("%.17g %.17g", t$statistic, t$p.value), "\\n")
}
`;

const oracles = {
  present: hasPython('numpy', 'sklearn', 'statsmodels') && hasR('forecast', 'jsonlite'),
  needs: "Debian's python3-numpy, -sklearn, -statsmodels, r-base-core and r-cran-forecast",
};

describeWithOracle('journal compare on an imported journal, recomputed in R and Python', oracles, () => {
  it('scores, CORP, Murphy, lags, DM, Holm to 1e-9; the bootstrap SE near the exact one', async () => {
    const dir = tempDir();
    const data = join(dir, 'data');
    const csv = join(dir, 'journal.csv');
    writeFileSync(csv, journalCsv());
    const env = { FCAST_DATA_DIR: data };
    expectExit(await runCli(['journal', 'import', csv, '--json'], { env }), 0);
    const r = await runCli(['journal', 'compare', '--json', '--bootstrap', '4000', '--origin', 'unknown'], { env });
    expectExit(r, 0);
    expect(r.stderr).toBe('');
    const doc = JSON.parse(r.stdout);
    expect(doc.timeframes.map((t: any) => t.tf)).toEqual(['15min', '1h']);

    const py = spawnSync(PYTHON, ['-c', PY, csv, '0.01'], { encoding: 'utf8', maxBuffer: 64 << 20 });
    expect(py.status, py.stderr).toBe(0);
    const theirs = JSON.parse(py.stdout);
    const close = (a: number | null, b: number | null, what: string) => {
      expect(a === null || b === null, `${what}: ${a} vs ${b}`).toBe(false);
      expect(Math.abs(a! - b!), `${what}: ${a} vs ${b}`).toBeLessThanOrEqual(1e-9);
    };
    const dmCases: any[] = [];
    for (const t of doc.timeframes) {
      const s = theirs.timeframes[t.tf];
      expect([t.n, t.lags], t.tf).toEqual([s.n, s.lags]);
      for (const f of ['ia2', 'ia3', 'climatology']) {
        for (const k of ['rps', 'brier_3class', 'log_loss', 'rps_skill'])
          close(t.forecasters[f][k], s.forecasters[f][k], `${t.tf} ${f} ${k}`);
        for (const e of ['up', 'down', 'flat'])
          for (const k of ['mcb', 'dsc', 'unc', 'score'])
            close(t.forecasters[f].corp[e][k], s.forecasters[f].corp[e][k], `${t.tf} ${f} ${e} ${k}`);
        for (const e of ['up', 'down'])
          t.murphy[e][f].forEach((v: number, i: number) => {
            close(v, s.murphy[e][f][i], `${t.tf} murphy ${e} ${f} ${i}`);
          });
      }
      for (const p of t.pairs)
        for (const sc of ['rps', 'brier_3class', 'log_loss']) {
          const x = p.scores[sc];
          expect(x.bootstrap.block).toBe(s.block);
          const exact = s.exact_se[`${p.a} ${p.b} ${sc}`];
          // 4,000 replicates: the SE's own relative error is about 1.1%.
          expect(Math.abs(x.bootstrap.se / exact - 1), `${t.tf} ${p.a}-${p.b} ${sc} se`).toBeLessThan(0.06);
          const c = theirs.r.find((q: any) => q.tf === t.tf && q.a === p.a && q.b === p.b && q.s === sc);
          dmCases.push({ ...c, v: x.dm.variance === 'bartlett' ? 'bartlett' : 'acf', mine: x.dm });
        }
    }
    expect(doc.timeframes.find((t: any) => t.tf === '1h').lags).toBe(2);
    const rs = spawnSync('Rscript', ['-e', R], {
      input: JSON.stringify(dmCases),
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    expect(rs.status, rs.stderr).toBe(0);
    const lines = rs.stdout.trim().split('\n');
    expect(lines).toHaveLength(dmCases.length);
    dmCases.forEach((c, i) => {
      const [stat, p] = lines[i]!.trim().split(/\s+/).map(Number);
      close(c.mine.statistic, stat!, `${c.tf} ${c.a}-${c.b} ${c.s} DM statistic (h ${c.h})`);
      close(c.mine.p_value, p!, `${c.tf} ${c.a}-${c.b} ${c.s} DM p (h ${c.h})`);
    });
    // Holm over the RPS tests of every pair and timeframe, in the document's order.
    const rpsP = doc.timeframes.flatMap((t: any) => t.pairs.map((p: any) => p.scores.rps.dm.p_value));
    const holm = spawnSync(
      PYTHON,
      [
        '-c',
        'import json,sys; from statsmodels.stats.multitest import multipletests as m; print(json.dumps(m(json.load(sys.stdin), method="holm")[1].tolist()))',
      ],
      { input: JSON.stringify(rpsP), encoding: 'utf8' },
    );
    const adjusted = JSON.parse(holm.stdout);
    doc.timeframes
      .flatMap((t: any) => t.pairs)
      .forEach((p: any, i: number) => {
        close(p.p_holm, adjusted[i], `holm ${i}`);
      });
    expect(readFileSync(csv, 'utf8').split('\n').length).toBe(343 + 216 + 2);
  });
});
