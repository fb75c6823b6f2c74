// journal compare's statistics held to independent implementations from Debian's packages, to
// 1e-9: numpy for the scores and the Murphy diagram, scikit-learn's IsotonicRegression for the
// CORP fit (its ties pooled, as ours), scipy for Student's t, statsmodels for Holm, and R's
// forecast::dm.test (varestimator "acf", and "bartlett" where the rectangular estimate is not
// positive) for the Diebold–Mariano statistic and p, with and without overlapping horizons.
// Skipped where an oracle is missing, failed there under CI=true (test/helpers/oracles.ts).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { compare, type CompareSample, FORECASTERS, PAIRS, SCORES } from '../../src/evidence/compare/compare.js';
import { dieboldMariano } from '../../src/evidence/compare/diebold-mariano.js';
import { holm } from '../../src/evidence/compare/holm.js';
import { Random } from '../../src/evidence/compare/random.js';
import { brier3, logLoss, type MoveClass, rps } from '../../src/evidence/compare/scores.js';
import { studentTTwoSided } from '../../src/evidence/compare/student-t.js';
import { tempDir } from '../helpers/cli.js';
import { describeWithOracle, hasPython, hasR, PYTHON } from '../helpers/oracles.js';

const TOLERANCE = 1e-9;

/** A sample of `n` forecasts, every 7.5 min, `aheadS` ahead, two symbols interleaved. */
function sample(n: number, seed: number, aheadS: number): CompareSample {
  const r = new Random(seed);
  const classes = Uint8Array.from({ length: n }, () => (r.next() < 0.4 ? 0 : r.next() < 0.6 ? 1 : 2));
  // ia3's to 3 decimals (ties, pooled by counting), ia2's unrounded (pooled by a sort).
  const probs = (skill: number, digits: number) => {
    const round = (x: number) => (digits === 0 ? x : Math.round(x * 10 ** digits) / 10 ** digits);
    const p_long = new Float64Array(n);
    const p_short = new Float64Array(n);
    const p_flat = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const w = [r.next(), r.next(), r.next()];
      w[classes[i]!]! += skill * r.next();
      const total = w[0]! + w[1]! + w[2]!;
      p_long[i] = round(w[0]! / total);
      p_short[i] = round(w[1]! / total);
      p_flat[i] = Math.max(0, round(1 - p_long[i]! - p_short[i]!));
    }
    return { p_long, p_short, p_flat };
  };
  return {
    tf: '1h',
    ts: Float64Array.from({ length: n }, (_, i) => 1_760_000_000 + 450 * i),
    target: Float64Array.from({ length: n }, (_, i) => 1_760_000_000 + 450 * i + aheadS),
    symbol: Int32Array.from({ length: n }, (_, i) => i % 2),
    classes,
    ia3: probs(1.2, 3),
    ia2: probs(0.6, 0),
  };
}

const plain = (a: ArrayLike<number>) => Array.from(a);

function run(command: string, args: string[], input: string): any {
  const p = spawnSync(command, args, { input, encoding: 'utf8', maxBuffer: 64 << 20 });
  expect(p.status, p.stderr).toBe(0);
  return JSON.parse(p.stdout);
}

const close = (a: number | null, b: number | null, what: string) => {
  expect(a === null, `${what}: ${a} vs ${b}`).toBe(b === null);
  if (a !== null && b !== null) expect(Math.abs(a - b), `${what}: ${a} vs ${b}`).toBeLessThanOrEqual(TOLERANCE);
};

const PY_SCORES = `
import json, sys
import numpy as np
from sklearn.isotonic import IsotonicRegression
from scipy import stats
from statsmodels.stats.multitest import multipletests
data = json.load(sys.stdin)
out = {'forecasters': {}, 'murphy': {}}
y = np.array(data['classes'])
onehot = np.stack([y == 0, y == 1, y == 2], axis=1).astype(float)
clim = onehot.mean(axis=0)
theta = (np.arange(200) + 0.5) / 200
def rps(p):
    return (p[:, 1] - onehot[:, 1]) ** 2 + (p[:, 1] + p[:, 2] - onehot[:, 1] - onehot[:, 2]) ** 2
for name in ['ia2', 'ia3', 'climatology']:
    p = np.tile(clim, (len(y), 1)) if name == 'climatology' else np.array(data[name]).T
    f = {'rps': rps(p).mean(), 'brier_3class': ((p - onehot) ** 2).sum(axis=1).mean(),
         'log_loss': -np.log(np.clip((p * onehot).sum(axis=1), 1e-15, None)).mean(), 'corp': {}}
    f['rps_skill'] = 1 - f['rps'] / rps(np.tile(clim, (len(y), 1))).mean()
    for e, k in [('up', 0), ('down', 1), ('flat', 2)]:
        x, o = p[:, k], onehot[:, k]
        fit = IsotonicRegression(y_min=0, y_max=1, out_of_bounds='clip').fit(x, o).predict(x)
        bs, bs_hat, unc = ((x - o) ** 2).mean(), ((fit - o) ** 2).mean(), o.mean() * (1 - o.mean())
        f['corp'][e] = {'mcb': bs - bs_hat, 'dsc': unc - bs_hat, 'unc': unc, 'score': bs}
        if e != 'flat':
            s = np.where(o[:, None] == 0, 2 * theta * (x[:, None] > theta), 2 * (1 - theta) * (x[:, None] <= theta))
            out['murphy'].setdefault(e, {})[name] = s.mean(axis=0).tolist()
    out['forecasters'][name] = {k: (v if k == 'corp' else float(v)) for k, v in f.items()}
out['t'] = [float(2 * stats.t.sf(abs(t), df)) for t, df in data['t']]
out['holm'] = multipletests(data['holm'], method='holm')[1].tolist()
print(json.dumps(out))
`;

const R_DM = `
suppressMessages(library(forecast)); library(jsonlite)
cases <- fromJSON(file("stdin"), simplifyVector = TRUE)
out <- lapply(seq_len(nrow(cases)), function(i) {
  t <- suppressWarnings(dm.test(cases$a[[i]], cases$b[[i]], h = cases$h[i], power = 1, varestimator = cases$v[i]))
  sprintf("%.17g %.17g", t$statistic, t$p.value)
})
cat(unlist(out), sep = "\\n")
`;

const python = {
  present: hasPython('numpy', 'scipy', 'sklearn', 'statsmodels'),
  needs: "Debian's python3-numpy, -scipy, -sklearn, -statsmodels",
};
const r = { present: hasR('forecast', 'jsonlite'), needs: "Debian's r-base-core and r-cran-forecast" };

describeWithOracle('numpy, scikit-learn, scipy and statsmodels agree with the comparison', python, () => {
  it('scores, RPS skill, CORP terms, Murphy values, t p values and Holm to 1e-9', () => {
    const s = sample(500, 5, 3600);
    const { doc } = compare([s], { flatBandPct: 0.1, alpha: 0.05, replicates: 100, seed: 1 });
    const t = doc.timeframes[0]!;
    const tGrid: Array<[number, number]> = [
      [0.3, 5],
      [-2.1, 12],
      [1.96, 499],
      [3.7, 40],
      [0.01, 3],
      [2.5, 999_999],
      [-6, 200],
    ];
    const holmPs = [0.01, 0.2, 0.03, 0.004, 0.5, 0.04];
    const theirs = run(
      PYTHON,
      ['-c', PY_SCORES],
      JSON.stringify({
        classes: plain(s.classes),
        ia2: [plain(s.ia2.p_long), plain(s.ia2.p_short), plain(s.ia2.p_flat)],
        ia3: [plain(s.ia3.p_long), plain(s.ia3.p_short), plain(s.ia3.p_flat)],
        t: tGrid,
        holm: holmPs,
      }),
    );
    for (const f of FORECASTERS) {
      const mine = t.forecasters[f];
      const other = theirs.forecasters[f];
      for (const k of ['rps', 'brier_3class', 'log_loss', 'rps_skill'] as const) close(mine[k], other[k], `${f} ${k}`);
      for (const e of ['up', 'down', 'flat'] as const)
        for (const k of ['mcb', 'dsc', 'unc', 'score'] as const)
          close(mine.corp[e][k], other.corp[e][k], `${f} ${e} ${k}`);
      for (const e of ['up', 'down'] as const)
        t.murphy[e][f].forEach((v, i) => {
          close(v, theirs.murphy[e][f][i], `murphy ${e} ${f} ${i}`);
        });
    }
    tGrid.forEach(([x, df], i) => {
      close(studentTTwoSided(x, df), theirs.t[i], `t(${x}, ${df})`);
    });
    holm(holmPs).forEach((p, i) => {
      close(p, theirs.holm[i], `holm ${i}`);
    });
  });
});

describeWithOracle("R's forecast::dm.test agrees with the Diebold–Mariano test", r, () => {
  it('statistic and p to 1e-9, with and without overlap, and with Bartlett weights where they are needed', () => {
    const cases: Array<{ a: number[]; b: number[]; h: number; v: 'acf' | 'bartlett'; lags: number }> = [];
    for (const [n, ahead] of [
      [300, 400],
      [500, 3600],
      [80, 1800],
    ] as const) {
      const s = sample(n, n, ahead);
      const { doc } = compare([s], { flatBandPct: 0.1, alpha: 0.05, replicates: 10, seed: 1 });
      const lags = doc.timeframes[0]!.lags;
      const loss = { rps, brier_3class: brier3, log_loss: logLoss };
      const lossesOf = (f: 'ia2' | 'ia3' | 'climatology', sc: (typeof SCORES)[number]) => {
        const c = { p_long: 0, p_short: 0, p_flat: 0 };
        const counts = [0, 0, 0];
        for (const k of s.classes) counts[k]!++;
        return Array.from(s.classes, (k, i) => {
          const p =
            f === 'climatology'
              ? { p_long: counts[0]! / n, p_short: counts[1]! / n, p_flat: counts[2]! / n }
              : Object.assign(c, { p_long: s[f].p_long[i]!, p_short: s[f].p_short[i]!, p_flat: s[f].p_flat[i]! });
          return loss[sc](p, k as MoveClass);
        });
      };
      for (const [a, b] of PAIRS)
        for (const sc of SCORES) {
          const dm = doc.timeframes[0]!.pairs.find((p) => p.a === a && p.b === b)!.scores[sc].dm;
          cases.push({
            a: lossesOf(a, sc),
            b: lossesOf(b, sc),
            h: lags + 1,
            v: dm.variance === 'bartlett' ? 'bartlett' : 'acf',
            lags,
          });
        }
    }
    expect(new Set(cases.map((c) => c.h)).size).toBeGreaterThan(1);
    // Negatively autocorrelated differences: the rectangular estimate is negative.
    const rr = new Random(9);
    const a = Array.from({ length: 120 }, (_, t) => 1 + (t % 2 === 0 ? 0.5 : -0.5) + 0.05 * rr.next());
    const b = Array.from({ length: 120 }, () => 1);
    const diff = a.map((x, i) => x - b[i]!);
    expect(dieboldMariano(diff, 1).variance).toBe('bartlett');
    cases.push({ a, b, h: 2, v: 'bartlett', lags: 1 });

    const dir = tempDir();
    const script = join(dir, 'dm.R');
    writeFileSync(script, R_DM);
    const p = spawnSync('Rscript', [script], { input: JSON.stringify(cases), encoding: 'utf8' });
    expect(p.status, p.stderr).toBe(0);
    const lines = p.stdout.trim().split('\n');
    expect(lines).toHaveLength(cases.length);
    cases.forEach((c, i) => {
      const [stat, pv] = lines[i]!.split(' ').map(Number);
      const d = c.a.map((x, j) => x - c.b[j]!);
      const mine = dieboldMariano(d, c.lags);
      if (mine.variance === 'zero') return;
      close(mine.statistic, stat!, `case ${i} statistic (h ${c.h}, ${c.v})`);
      close(mine.p_value, pv!, `case ${i} p (h ${c.h}, ${c.v})`);
    });
  });
});
