// `fcast journal compare` against the emulator, whose ia2 is documented better than its ia3
// (docs/reference.md, "The engines"): a session recorded and settled by fcast, compared in
// every format; the gate's exit codes (8 when A does not beat B, 0 when it does, 2 for a bad
// pair), its annotations and step outputs under GitHub Actions; the records that lack ia2.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectExit, tempDir } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';

const emu = useEmulator({ seed: 'engines' });

const SYMBOLS = ['BTC/USD', 'ETH/USD', 'EUR/USD', 'SOL/USD', 'XAU/USD', 'GBP/USD', 'AAPL/USD', 'SPX/USD'];
const START = Date.UTC(2026, 2, 2, 0, 15);
const STEP_MS = 6 * 3600_000;
const STEPS = 40;

let data: string;

beforeAll(async () => {
  data = tempDir();
  const env = { FCAST_DATA_DIR: data };
  emu.server.clock.set({ start: START, speed: 0 });
  for (let i = 0; i < STEPS; i++) {
    expectExit(await emu.runWithKey(['predict', ...SYMBOLS, '--record', '--json'], { env }), 0);
    if (i % 2 === 1) expectExit(await emu.runWithKey(['journal', 'settle'], { env }), 0);
    emu.server.clock.advance(STEP_MS);
  }
  emu.server.clock.advance(2 * 86_400_000);
  expectExit(await emu.runWithKey(['journal', 'settle'], { env }), 0);
}, 240_000);

const compare = (args: string[], env: Record<string, string> = {}) =>
  emu.run(['journal', 'compare', ...args], { env: { FCAST_DATA_DIR: data, ...env } });

describe('journal compare on an emulated session', () => {
  it('--json has the documented shape, and finds ia2 better than ia3 as the emulator documents', async () => {
    const r = await compare(['--json', '--bootstrap', '500']);
    expectExit(r, 0);
    expect(r.stderr).toBe('');
    const doc = JSON.parse(r.stdout);
    expect(Object.keys(doc)).toEqual(['flat_band_pct', 'alpha', 'bootstrap', 'timeframes']);
    expect(doc.bootstrap).toEqual({ replicates: 500, seed: 1 });
    expect(doc.alpha).toBe(0.05);
    expect(doc.timeframes.length).toBeGreaterThan(1);
    const t = doc.timeframes[0];
    expect(Object.keys(t)).toEqual(['tf', 'n', 'lags', 'forecasters', 'pairs', 'murphy']);
    expect(Object.keys(t.forecasters)).toEqual(['ia2', 'ia3', 'climatology']);
    expect(Object.keys(t.forecasters.ia2)).toEqual(['n', 'rps', 'brier_3class', 'log_loss', 'rps_skill', 'corp']);
    expect(Object.keys(t.forecasters.ia2.corp)).toEqual(['up', 'down', 'flat']);
    expect(Object.keys(t.forecasters.ia2.corp.up)).toEqual(['mcb', 'dsc', 'unc', 'score']);
    expect(t.pairs.map((p: any) => [p.a, p.b])).toEqual([
      ['ia3', 'ia2'],
      ['ia3', 'climatology'],
      ['ia2', 'climatology'],
    ]);
    const pair = t.pairs[0];
    expect(Object.keys(pair)).toEqual(['a', 'b', 'n', 'scores', 'p_holm']);
    expect(Object.keys(pair.scores)).toEqual(['rps', 'brier_3class', 'log_loss']);
    expect(Object.keys(pair.scores.rps)).toEqual(['mean_diff', 'dm', 'bootstrap']);
    expect(Object.keys(pair.scores.rps.dm)).toEqual(['statistic', 'p_value', 'lags', 'variance']);
    expect(Object.keys(pair.scores.rps.bootstrap)).toEqual(['block', 'se', 'ci95', 'p_value']);
    expect(Object.keys(t.murphy)).toEqual(['theta', 'up', 'down']);
    expect(t.murphy.theta).toHaveLength(200);
    expect(Object.keys(t.murphy.up)).toEqual(['ia2', 'ia3', 'climatology']);
    // Pooled over the timeframes: ia3 − ia2 on RPS is positive (ia2 better) in most.
    const worse = doc.timeframes.filter((x: any) => x.pairs[0].scores.rps.mean_diff > 0).length;
    expect(worse).toBeGreaterThan(doc.timeframes.length / 2);
    for (const x of doc.timeframes)
      for (const f of ['ia2', 'ia3', 'climatology'])
        for (const e of ['up', 'down', 'flat']) {
          const c = x.forecasters[f].corp[e];
          expect(Math.abs(c.mcb - c.dsc + c.unc - c.score)).toBeLessThan(1e-12);
        }
  });

  it('the same seed gives the same figures; another seed moves only the bootstrap', async () => {
    const a = await compare(['--json', '--bootstrap', '200', '--tf', '1h']);
    const b = await compare(['--json', '--bootstrap', '200', '--tf', '1h']);
    const c = await compare(['--json', '--bootstrap', '200', '--tf', '1h', '--seed', '7']);
    expect(a.stdout).toBe(b.stdout);
    const [x, y] = [JSON.parse(a.stdout), JSON.parse(c.stdout)];
    expect(y.timeframes[0].pairs[0].scores.rps.dm).toEqual(x.timeframes[0].pairs[0].scores.rps.dm);
    expect(y.timeframes[0].pairs[0].scores.rps.bootstrap.se).not.toBe(x.timeframes[0].pairs[0].scores.rps.bootstrap.se);
  });

  it('reads the journal ahead and compares on second threads to the very same document, the report too', async () => {
    // FCAST_SCAN_AHEAD=always: the workers' paths (scan-ahead.ts, compare-threads.ts), which a
    // journal this small would not take by itself.
    const here = await compare(['--json', '--bootstrap', '200'], { FCAST_SCAN_AHEAD: 'never' });
    const ahead = await compare(['--json', '--bootstrap', '200'], { FCAST_SCAN_AHEAD: 'always' });
    expectExit(ahead, 0);
    // Two timeframes or more: some of them computed on the comparison's worker (compare-threads.ts).
    expect(JSON.parse(ahead.stdout).timeframes.length).toBeGreaterThan(1);
    expect(ahead.stdout).toBe(here.stdout);
    expect(ahead.stderr).toBe(here.stderr);
    const report = (mode: string) =>
      emu.run(['journal', 'report', '--json', '--offline'], { env: { FCAST_DATA_DIR: data, FCAST_SCAN_AHEAD: mode } });
    const [a, b] = [await report('never'), await report('always')];
    expectExit(b, 0);
    expect(JSON.parse(b.stdout).timeframes.length).toBeGreaterThan(0);
    expect(b.stdout).toBe(a.stdout);
  });

  it('a Ctrl-C during the read ends it there, exit 130, nothing printed (the report too)', async () => {
    // The signal aborted before the run: the read, synchronous, cannot hear it until it is
    // over; the command must then stop, not print the figures behind its exit.
    for (const args of [
      ['journal', 'compare', '--json', '--bootstrap', '200'],
      ['journal', 'report', '--json', '--offline'],
    ])
      for (const mode of ['never', 'always']) {
        const interrupt = new AbortController();
        interrupt.abort();
        const r = await emu.run(args, {
          env: { FCAST_DATA_DIR: data, FCAST_SCAN_AHEAD: mode },
          signal: interrupt.signal,
          linger: 300,
        });
        expect({ args, mode, code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({
          args,
          mode,
          code: 130,
          stdout: '',
          stderr: 'fcast: interrupted\n',
        });
      }
  });

  it('the table: scores, pairs, a verdict, the charts, within 60 and 80 columns', async () => {
    for (const columns of [60, 80]) {
      const r = await emu.run(['journal', 'compare', '--tf', '1h', '--bootstrap', '200', '--no-color'], {
        env: { FCAST_DATA_DIR: data },
        tty: true,
        columns,
      });
      expectExit(r, 0);
      expect(r.stdout).toContain('ia3 − ia2');
      expect(r.stdout).toMatch(/1h: ia2 beats ia3 on RPS by \d\.\d{3}: DM p [=<] /);
      expect(r.stdout).toContain('observed up (CORP, PAV)');
      expect(r.stdout).toContain('elementary score, down');
      for (const line of r.stdout.split('\n')) expect([...line].length, line).toBeLessThanOrEqual(columns);
    }
  });

  it('--format csv, tsv and markdown', async () => {
    const csv = await compare(['--format', 'csv', '--bootstrap', '100']);
    expectExit(csv, 0);
    const lines = csv.stdout.trim().split('\n');
    expect(lines[0]).toBe(
      'tf,n,lags,a,b,score,a_score,b_score,mean_diff,dm.statistic,dm.p_value,dm.lags,dm.variance,bootstrap.block,bootstrap.se,bootstrap.ci95_lo,bootstrap.ci95_hi,bootstrap.p_value,p_holm',
    );
    expect(lines[1]).toMatch(/^\w+,\d+,\d+,ia3,ia2,rps,/);
    const tsv = await compare(['--format', 'tsv', '--bootstrap', '100']);
    expect(tsv.stdout.split('\n')[0]).toContain('\tdm.p_value\t');
    const md = await compare(['--format', 'markdown', '--bootstrap', '100', '--tf', '1h']);
    expectExit(md, 0);
    expect(md.stdout).toContain('| Pair | Score |');
    expect(md.stdout).toContain('```text');
  });

  it('--require-better: 0 when A beats B everywhere shown, 8 with the failures when not, 2 for a bad pair', async () => {
    const ok = await compare(['--require-better', 'ia2:climatology', '--bootstrap', '100', '--json']);
    const doc = JSON.parse(ok.stdout);
    const allBetter = doc.timeframes.every((t: any) => t.pairs[2].scores.rps.mean_diff < 0 && t.pairs[2].p_holm < 0.05);
    expectExit(ok, allBetter ? 0 : 8);
    const fail = await compare(['--require-better', 'ia3:ia2', '--bootstrap', '100']);
    expectExit(fail, 8);
    expect(fail.stderr).toMatch(/gate failed: \w+: ia3 (does not beat ia2|beats ia2 on RPS by)/);
    expect(fail.stderr).toContain('check failed:');
    const bad = await compare(['--require-better', 'ia3:ia3']);
    expectExit(bad, 2);
    expect(bad.stderr).toContain('two different forecasters');
    const unknown = await compare(['--require-better', 'ia4:ia2']);
    expectExit(unknown, 2);
  });

  it('the gate one timeframe at a time passes where ia2 wins clearly', async () => {
    const r = await compare(['--json', '--bootstrap', '100']);
    const doc = JSON.parse(r.stdout);
    const clear = doc.timeframes.find((t: any) => t.pairs[0].scores.rps.mean_diff > 0 && t.pairs[0].p_holm < 0.05);
    expect(clear, 'a timeframe where ia2 beats ia3 after Holm').toBeDefined();
    // Alone, that timeframe's Holm family is its three pairs: p_holm is no larger than in the whole.
    const alone = await compare(['--tf', clear.tf, '--require-better', 'ia2:ia3', '--bootstrap', '100']);
    expectExit(alone, 0);
  });

  it('under GitHub Actions: ::error lines and $GITHUB_OUTPUT', async () => {
    const dir = tempDir();
    const output = join(dir, 'out');
    const summary = join(dir, 'summary');
    writeFileSync(output, '');
    writeFileSync(summary, '');
    const r = await compare(['--require-better', 'ia3:ia2', '--bootstrap', '100'], {
      GITHUB_ACTIONS: 'true',
      GITHUB_OUTPUT: output,
      GITHUB_STEP_SUMMARY: summary,
    });
    expectExit(r, 8);
    expect(r.stderr).toMatch(/^::error title=fcast journal compare%3A gate failed \(\w+\)::gate failed: /m);
    const outputs = readFileSync(output, 'utf8');
    expect(outputs).toMatch(/^verdict=fail$/m);
    expect(outputs).toContain('rps_diff_1h');
    expect(readFileSync(summary, 'utf8')).toContain('fcast journal compare');
  });

  it('says how many settled forecasts lack ia2, and an empty journal compares nothing', async () => {
    // A version 2 record (ia3 only) in a journal of its own.
    const old = tempDir();
    const empty = await emu.run(['journal', 'compare', '--json'], { env: { FCAST_DATA_DIR: old } });
    expectExit(empty, 0);
    expect(JSON.parse(empty.stdout).timeframes).toEqual([]);
    const gate = await emu.run(['journal', 'compare', '--require-better', 'ia3:ia2'], { env: { FCAST_DATA_DIR: old } });
    expectExit(gate, 8);
    expect(gate.stderr).toContain('the comparison has no timeframes');
  });
});
