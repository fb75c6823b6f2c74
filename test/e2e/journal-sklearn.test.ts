// An emulated session's export scored by scikit-learn (Debian's /usr/bin/python3 has it):
// brier_score_loss and calibration_curve on the called direction's probability against a win,
// numpy for the 3-class scores, the skill score, the bins' counts and the five terms of the
// decomposition, must agree with `journal report --json` to 1e-9. Skipped where
// that Python or sklearn is missing, and failed there under CI=true (test/helpers/oracles.ts). Neutral outcomes count as "not a win" on both sides
// (docs/journal.md says why).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { expectExit, tempDir } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { recordSession } from '../helpers/journal-session.js';
import { describeWithOracle, hasPython, PYTHON } from '../helpers/oracles.js';

const SCRIPT = `
import csv, json, sys
import numpy as np
from sklearn.metrics import brier_score_loss
from sklearn.calibration import calibration_curve

rows = list(csv.DictReader(open(sys.argv[1], newline='')))
n_bins = int(sys.argv[2])
out = {}
for tf in sorted({r['tf'] for r in rows}):
    settled = [r for r in rows if r['tf'] == tf and r['status'] == 'settled']
    if not settled:
        continue
    calls = [r for r in settled if r['direction'] in ('long', 'short')]
    y = np.array([1 if r['outcome'] == 'win' else 0 for r in calls])
    p = np.array([float(r['p_long'] if r['direction'] == 'long' else r['p_short']) for r in calls])
    prob_true, prob_pred = calibration_curve(y, p, n_bins=n_bins, strategy='uniform', pos_label=1)
    # The bins as calibration_curve makes them, for their counts and the decomposition.
    edges = np.linspace(0.0, 1.0, n_bins + 1)
    ids = np.searchsorted(edges[1:-1], p)
    counts = np.bincount(ids, minlength=n_bins)
    base = y.mean()
    rel = res = wbv = wbc = 0.0
    for k in range(n_bins):
        m = ids == k
        if not m.any():
            continue
        fk, ok = p[m].mean(), y[m].mean()
        rel += m.sum() * (fk - ok) ** 2
        res += m.sum() * (ok - base) ** 2
        wbv += ((p[m] - fk) ** 2).sum()
        wbc += 2 * ((p[m] - fk) * (y[m] - ok)).sum()
    probs = np.array([[float(r['p_long']), float(r['p_short']), float(r['p_flat'])] for r in settled])
    onehot = np.array([[r['move'] == 'up', r['move'] == 'down', r['move'] == 'flat'] for r in settled], dtype=float)
    observed = (probs * onehot).sum(axis=1)
    brier3 = ((probs - onehot) ** 2).sum(axis=1).mean()
    climatology = ((onehot.mean(axis=0) - onehot) ** 2).sum(axis=1).mean()
    wins = sum(r['outcome'] == 'win' for r in settled)
    losses = sum(r['outcome'] == 'loss' for r in settled)
    out[tf] = {
        'n_settled': len(settled),
        'brier': float(brier_score_loss(y, p, pos_label=1)),
        'prob_true': prob_true.tolist(),
        'prob_pred': prob_pred.tolist(),
        'counts': counts.tolist(),
        'edges': edges.tolist(),
        'terms': [rel / len(y), res / len(y), base * (1 - base), wbv / len(y), wbc / len(y)],
        'brier_3class': float(brier3),
        'bss_3class': None if climatology == 0 else float(1 - brier3 / climatology),
        'log_loss': float(-np.log(np.clip(observed, 1e-15, None)).mean()),
        'hit_rate': wins / (wins + losses) if wins + losses else None,
    }
print(json.dumps(out))
`;

const emu = useEmulator({ seed: 'sklearn' });

/** Scores the journal in `data` with fcast and with sklearn, and holds them to 1e-9; returns how many timeframes were compared. */
async function compareWithSklearn(data: string, bins: number, origin?: string): Promise<number> {
  const env = { FCAST_DATA_DIR: data };
  // Without --origin both read the emulator's records only (the base URL's origin).
  const which = origin === undefined ? [] : ['--origin', origin];
  const report = await emu.runWithKey(['journal', 'report', '--json', '--offline', '--bins', String(bins), ...which], {
    env,
  });
  expectExit(report, 0);
  const doc = JSON.parse(report.stdout);
  const exported = await emu.runWithKey(['journal', 'export', ...which], { env });
  expectExit(exported, 0);
  const dir = tempDir();
  const csv = join(dir, 'export.csv');
  writeFileSync(csv, exported.stdout);
  const script = join(dir, 'score.py');
  writeFileSync(script, SCRIPT);
  const py = spawnSync(PYTHON, [script, csv, String(bins)], { encoding: 'utf8' });
  expect(py.stderr).toBe('');
  const theirs = JSON.parse(py.stdout) as Record<string, any>;

  let compared = 0;
  for (const t of doc.timeframes) {
    const s = theirs[t.tf];
    if (!s) {
      expect(t.n_settled).toBe(0);
      continue;
    }
    compared++;
    expect(t.n_settled).toBe(s.n_settled);
    const close = (a: number | null, b: number | null) => {
      expect(a === null, `${t.tf}: ${a} vs ${b}`).toBe(b === null);
      if (a !== null && b !== null) expect(Math.abs(a - b), `${t.tf}: ${a} vs ${b}`).toBeLessThanOrEqual(1e-9);
    };
    close(t.call.brier, s.brier);
    close(t.brier_3class, s.brier_3class);
    close(t.bss_3class, s.bss_3class);
    close(t.log_loss, s.log_loss);
    close(t.hit_rate, s.hit_rate);
    expect(t.call.bins.map((b: any) => b.n)).toEqual(s.counts);
    t.call.bins.forEach((b: any, i: number) => {
      close(b.lo, s.edges[i]);
      close(b.hi, s.edges[i + 1]);
    });
    const filled = t.call.bins.filter((b: any) => b.n > 0);
    expect(filled).toHaveLength(s.prob_true.length);
    filled.forEach((b: any, i: number) => {
      close(b.freq, s.prob_true[i]);
      close(b.mean_p, s.prob_pred[i]);
    });
    const c = t.call;
    const terms = ['reliability', 'resolution', 'uncertainty', 'within_bin_variance', 'within_bin_covariance'];
    for (const [i, name] of terms.entries()) close(c[name], s.terms[i]);
    const sum = c.reliability - c.resolution + c.uncertainty + c.within_bin_variance - c.within_bin_covariance;
    expect(Math.abs(sum - c.brier)).toBeLessThanOrEqual(1e-12);
  }
  return compared;
}

const sklearn = { present: hasPython('sklearn', 'numpy'), needs: "Debian's python3-sklearn" };

describeWithOracle('scikit-learn scores the export as the report does', sklearn, () => {
  it('to 1e-9 in every timeframe of an emulated session, with the five terms adding up to the Brier score', async () => {
    const data = tempDir();
    await recordSession(emu, data, {
      steps: 72,
      stepS: 300,
      symbols: ['BTC/USD', 'ETH/USD', 'EUR/USD'],
      candlesEvery: 12,
    });
    emu.server.clock.advance(36 * 3600_000);
    expectExit(await emu.runWithKey(['journal', 'settle'], { env: { FCAST_DATA_DIR: data } }), 0);
    expect(await compareWithSklearn(data, 10)).toBeGreaterThanOrEqual(10);
  }, 60_000);

  it('on probabilities lying exactly on the bin edges, and at 0 and 1 (an import of made-up rows)', async () => {
    const header =
      'symbol,tf,ts,horizon_min,target_t,anchor_price,target_price,direction,p_long,p_short,p_flat,status,settle_price,settle_t,settle_source,return_pct,outcome,recorded_at';
    const edges = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 0.25, 0.2001, 0.7999];
    const rows = edges.flatMap((p, i) =>
      [0, 1, 2].map((k) => {
        const ts = 1_772_445_600 + (i * 3 + k) * 60;
        const close = [101, 99, 100.001][k];
        return `BTC/USD,1h,${ts},360,${ts + 21_600},100,100,long,${p},${Math.max(0, 0.9 - p).toFixed(4)},0.1,settled,${close},${ts + 21_600},candles,,,${ts}`;
      }),
    );
    const file = join(tempDir(), 'edges.csv');
    writeFileSync(file, [header, ...rows].join('\n'));
    for (const bins of [10, 5, 3]) {
      const data = tempDir();
      expectExit(await emu.runWithKey(['journal', 'import', file], { env: { FCAST_DATA_DIR: data } }), 0);
      // Made-up rows name no service: their origin is unknown, which a report reads only when asked.
      expect(await compareWithSklearn(data, bins, 'unknown')).toBe(1);
    }
  });
});
