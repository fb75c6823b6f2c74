// `--baseline` and `--save` end to end: the emulator's record grows with its clock, so a
// baseline saved 30 days earlier gives a known period; its `shrink` fault rewrites the 1h
// record; edited baselines give another protocol, a vanished timeframe, another question.
import { spawnSync } from 'node:child_process';
import { lstatSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { FIXED_NOW, useEmulator } from '../helpers/emulator.js';
// An independent Wilson interval (z = 1.96), to check fcast's figures against.
import { wilson } from '../mock/helpers.js';

const DAY_MS = 86_400_000;
let clock = FIXED_NOW;
const emu = useEmulator({ now: () => clock });

interface Row {
  timeframe: string;
  n_settled: number;
  outcomes: { win: number; loss: number; neutral: number };
}
interface Body {
  protocol: { id: string };
  results: Row[];
}

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8'));
const rowOf = (stdout: string, tf: string) => stdout.split('\n').find((l) => l.startsWith(`${tf} `))!;

/** Saves the record as the emulator published it 30 days before FIXED_NOW, then moves the clock on. */
async function baselineFrom30DaysAgo(argv: string[] = ['track-record']): Promise<string> {
  const file = join(tempDir(), 'tr.json');
  clock = FIXED_NOW - 30 * DAY_MS;
  const saved = await emu.run([...argv, '--json', '--save', file]);
  expect(saved.code).toBe(0);
  clock = FIXED_NOW;
  emu.server.requests.splice(0);
  return file;
}

beforeEach(() => {
  clock = FIXED_NOW;
});

/** Runs `use` against a server that answers every request with `raw`. */
async function servingRaw<T>(raw: string, use: (url: string) => Promise<T>): Promise<T> {
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(raw));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await use(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('--save', () => {
  let dir = '';
  beforeEach(() => {
    dir = tempDir();
  });

  it('writes the body as received, indented like --json, whatever the output mode', async () => {
    const dir = tempDir();
    const json = await emu.run(['track-record', '--json', '--save', join(dir, 'a.json')]);
    const table = await emu.run(['track-record', '--save', join(dir, 'b.json')]);
    const markdown = await emu.run(['track-record', '--format', 'markdown', '--save', join(dir, 'c.json')]);
    for (const r of [json, table, markdown]) expect(r.code).toBe(0);
    expect(readFileSync(join(dir, 'a.json'), 'utf8')).toBe(json.stdout);
    expect(readFileSync(join(dir, 'b.json'), 'utf8')).toBe(json.stdout);
    expect(readFileSync(join(dir, 'c.json'), 'utf8')).toBe(json.stdout);
    expect(table.stdout).toMatch(/^Total /m);
  });

  it('writes the bytes as sent, not re-serialised: numbers as written, escapes and key order kept', async () => {
    // The emulator writes what JSON.stringify would; a real server need not.
    const body = JSON.stringify(await (await fetch(`${emu.server.url}/api/agent/v1/track-record.php`)).json());
    const raw = `{"note":"caf\\u00e9","2":1.50,"1":1e3,${body.slice(1)}`;
    const r = await servingRaw(raw, (url) =>
      runCli(['track-record', '--save', join(dir, 'tr.json')], { env: { FCAST_BASE_URL: url }, now: FIXED_NOW }),
    );
    expect(r.code, r.stderr).toBe(0);
    const saved = readFileSync(join(dir, 'tr.json'), 'utf8');
    expect(saved).toMatch(/^\{\n {2}"note": "caf\\u00e9",\n {2}"2": 1\.50,\n {2}"1": 1e3,\n/);
  });

  it('an off-shape body is not saved: the baseline stays as it was (a later --baseline would refuse it)', async () => {
    const body = (await (await fetch(`${emu.server.url}/api/agent/v1/track-record.php`)).json()) as object;
    writeFileSync(join(dir, 'tr.json'), 'the old baseline\n');
    const r = await servingRaw(JSON.stringify({ ...body, generated_at: 1 }), (url) =>
      runCli(['track-record', '--save', join(dir, 'tr.json')], { env: { FCAST_BASE_URL: url }, now: FIXED_NOW }),
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^warning: track-record\.php: the response does not match the documented shape/m);
    expect(r.stderr).toMatch(/^not saved to .*tr\.json: the body is off the documented shape/m);
    expect(readFileSync(join(dir, 'tr.json'), 'utf8')).toBe('the old baseline\n');
  });

  it('through a symlink: the file it names is replaced and the link kept', async () => {
    const target = join(dir, 'shared.json');
    writeFileSync(target, '{}\n');
    symlinkSync(target, join(dir, 'link.json'));
    const r = await emu.run(['track-record', '--json', '--save', join(dir, 'link.json')]);
    expect(r.code, r.stderr).toBe(0);
    expect(lstatSync(join(dir, 'link.json')).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe(r.stdout);
  });

  it('refuses a pipe or other special file, before any request (exit 2)', async () => {
    const fifo = join(dir, 'fifo');
    if (spawnSync('mkfifo', [fifo]).status !== 0) return; // no mkfifo here
    const r = await emu.run(['track-record', '--save', fifo]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--save .*fifo: cannot write there: it is not a regular file$/m);
    expect(emu.server.requests).toHaveLength(0);
  });

  it('refuses a path it cannot write, before any request (exit 2)', async () => {
    const r = await emu.run(['track-record', '--save', join(tempDir(), 'no-such-dir', 'tr.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--save .*tr\.json: cannot write there/);
    expect(emu.server.requests).toHaveLength(0);
  });
});

describe('--baseline, a record that grew', () => {
  it('shows the period since the baseline as columns: new counts, rate and interval to the fourth decimal', async () => {
    const file = await baselineFrom30DaysAgo();
    const r = await emu.run(['track-record', '--baseline', file]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^TF .* New\s+New W\/L\/N\s+New rate\s+New 95% CI$/m);
    // 1min: 463 wins, 391 losses and 35 neutrals since: 463/854 = 0.5422, Wilson [0.5086, 0.5753].
    expect(rowOf(r.stdout, '1min')).toMatch(/\s\+889\s+463\/391\/35\s+54\.22%\s+50\.86–57\.53%$/);
    // 1h: 6/13 = 0.4615, Wilson [0.2321, 0.7086].
    expect(rowOf(r.stdout, '1h')).toMatch(/\s\+15\s+6\/7\/2\s+46\.15%\s+23\.21–70\.86%$/);
    // Nothing resolved in 4h: no rate, no interval.
    expect(rowOf(r.stdout, '4h')).toMatch(/\s\+0\s+0\/0\/0\s+–\s+–$/);
    // Total: 606 wins and 534 losses over every timeframe: 0.5316, Wilson [0.5026, 0.5604].
    expect(rowOf(r.stdout, 'Total')).toMatch(/\s\+1,200\s+606\/534\/60\s+53\.16%\s+50\.26–56\.04%$/);
    expect(r.stdout).toMatch(/^Baseline\s+.*tr\.json, generated 2026-10-23 12:00 UTC$/m);
  });

  it('keeps --json stdout the body as sent and puts the comparison on stderr', async () => {
    const file = await baselineFrom30DaysAgo();
    const plain = await emu.run(['track-record', '--json']);
    const r = await emu.run(['track-record', '--baseline', file, '--json']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(plain.stdout);
    expect(r.stderr).toMatch(/^since the baseline .*tr\.json, generated 2026-10-23 12:00 UTC:$/m);
    expect(r.stderr).toContain(
      '  1min: +889 settled (win +463, loss +391, neutral +35); resolved win rate 0.5422, 95% CI [0.5086, 0.5753], above 50%',
    );
    expect(r.stderr).toContain(
      '  1h: +15 settled (win +6, loss +7, neutral +2); resolved win rate 0.4615, 95% CI [0.2321, 0.7086], straddles 50%',
    );
    expect(r.stderr).toContain('  4h: +0 settled (win +0, loss +0, neutral +0); resolved win rate null, 95% CI null');
  });

  it('agrees with counts and a Wilson interval computed here, for every timeframe', async () => {
    const file = await baselineFrom30DaysAgo();
    const before = readJson(file) as Body;
    const r = await emu.run(['track-record', '--baseline', file, '--json']);
    const now = JSON.parse(r.stdout) as Body;
    for (const row of now.results) {
      const then = before.results.find((x) => x.timeframe === row.timeframe)!;
      const w = row.outcomes.win - then.outcomes.win;
      const l = row.outcomes.loss - then.outcomes.loss;
      const settled = row.n_settled - then.n_settled;
      const line = r.stderr.split('\n').find((x) => x.startsWith(`  ${row.timeframe}: `))!;
      expect(line).toContain(`+${settled} settled (win +${w}, loss +${l},`);
      if (w + l === 0) continue;
      const [low, high] = wilson(w, w + l);
      expect(line).toContain(`rate ${(w / (w + l)).toFixed(4)}, 95% CI [${low.toFixed(4)}, ${high.toFixed(4)}]`);
    }
  });

  it('adds a section to --format markdown', async () => {
    const file = await baselineFrom30DaysAgo();
    const r = await emu.run(['track-record', '--baseline', file, '--format', 'markdown']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^#### Since the baseline \(.*tr\.json, generated 2026-10-23 12:00 UTC\)$/m);
    expect(r.stdout).toContain(
      '| TF | New settled | New wins | New losses | New neutral | Win rate | 95% CI | vs 50% |',
    );
    expect(r.stdout).toContain('| 1h | +15 | +6 | +7 | +2 | 46.15% | 23.21–70.86% | straddles |');
    expect(r.stdout.trimEnd().split('\n').at(-2)).toMatch(/^Source: /);
  });

  it('--save over the baseline it compared: compare first, then write the new body', async () => {
    const file = await baselineFrom30DaysAgo();
    const r = await emu.run(['track-record', '--baseline', file, '--save', file]);
    expect(r.code).toBe(0);
    expect(rowOf(r.stdout, '1h')).toMatch(/\+15\s+6\/7\/2/);
    const latest = await emu.run(['track-record', '--json']);
    expect(readFileSync(file, 'utf8')).toBe(latest.stdout);
  });
});

describe('gates on the period since the baseline', () => {
  it('--min-new-settled: a figure equal to the threshold passes, one below fails (exit 8)', async () => {
    const file = await baselineFrom30DaysAgo(['accuracy', '--tf', '1h']);
    const equal = await emu.run(['accuracy', '--tf', '1h', '--baseline', file, '--min-new-settled', '15']);
    expect(equal.code).toBe(0);
    const above = await emu.run(['accuracy', '--tf', '1h', '--baseline', file, '--min-new-settled', '16']);
    expect(above.code).toBe(8);
    expect(above.stderr).toMatch(/^gate failed: 1h: new settlements 15 is below --min-new-settled 16$/m);
    expect(above.stderr).toMatch(/^fcast: check failed: 1 gate failure since the baseline$/m);
  });

  it('--min-new-win-rate: judged on the new settlements only; a null rate fails', async () => {
    const file = await baselineFrom30DaysAgo(['accuracy', '--tf', '1h']);
    const pass = await emu.run(['accuracy', '--tf', '1h', '--baseline', file, '--min-new-win-rate', '0.46']);
    expect(pass.code).toBe(0);
    const fail = await emu.run(['accuracy', '--tf', '1h', '--baseline', file, '--min-new-win-rate', '0.47']);
    expect(fail.code).toBe(8);
    expect(fail.stderr).toMatch(/^gate failed: 1h: new resolved win rate 0\.4615 is below --min-new-win-rate 0\.47$/m);
    const empty = await baselineFrom30DaysAgo(['accuracy', '--tf', '4h']);
    const none = await emu.run(['accuracy', '--tf', '4h', '--baseline', empty, '--min-new-win-rate', '0']);
    expect(none.code).toBe(8);
    expect(none.stderr).toMatch(/gate failed: 4h: new resolved win rate null is below .*a null rate fails/);
  });

  it('needs a baseline: exit 2 before any request', async () => {
    const r = await emu.run(['track-record', '--min-new-settled', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/add --baseline FILE/);
    expect(emu.server.requests).toHaveLength(0);
  });
});

describe('--baseline, a record that was rewritten', () => {
  it('exit 8 naming the timeframe that lost settlements and its counts; the baseline is not overwritten', async () => {
    const file = await baselineFrom30DaysAgo();
    const saved = readFileSync(file, 'utf8');
    emu.server.setFaults([{ kind: 'shrink' }]);
    const r = await emu.run(['track-record', '--baseline', file, '--save', file]);
    expect(r.code).toBe(8);
    const before = (readJson(file) as Body).results.find((x) => x.timeframe === '1h')!;
    const now = (await emu.run(['track-record', '--json'])).stdout;
    const after = (JSON.parse(now) as Body).results.find((x) => x.timeframe === '1h')!;
    expect(after.outcomes.loss).toBeLessThan(before.outcomes.loss);
    expect(r.stderr).toContain(
      `baseline: 1h: counts went down since ${file}: n_settled ${before.n_settled} -> ${after.n_settled}, loss ${before.outcomes.loss} -> ${after.outcomes.loss}`,
    );
    expect(r.stderr.split('\n').filter((l) => l.startsWith('baseline: '))).toHaveLength(1);
    expect(r.stderr).toMatch(/^fcast: check failed: 1 timeframe with fewer settlements than .*tr\.json$/m);
    expect(r.stderr).toMatch(/not saved to .*tr\.json/);
    expect(readFileSync(file, 'utf8')).toBe(saved);
    // The table still printed first, the loss visible in its change columns.
    expect(rowOf(r.stdout, '1h')).toMatch(/\s-\d+\s+\d+\/-\d+\/\d+\s+–\s+–$/);
  });

  it('exit 8 for a timeframe of the baseline missing now', async () => {
    const file = await baselineFrom30DaysAgo();
    const body = readJson(file);
    body.results.push({ ...body.results[0], timeframe: '12h' });
    writeFileSync(file, JSON.stringify(body));
    const r = await emu.run(['track-record', '--baseline', file]);
    expect(r.code).toBe(8);
    expect(r.stderr).toContain(`baseline: 12h: in ${file} but missing now`);
    expect(r.stderr).toMatch(/1 timeframe of .*tr\.json missing now/);
  });

  it('another protocol id: not comparable, nothing compared, exit 0', async () => {
    const file = await baselineFrom30DaysAgo();
    const body = readJson(file);
    body.protocol.id = 'mfa-cohort-p2-2024-06';
    // Counts far above today's would fail if they were compared.
    for (const row of body.results) row.n_settled += 1_000_000;
    writeFileSync(file, JSON.stringify(body));
    const r = await emu.run(['track-record', '--baseline', file, '--min-new-settled', '5']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /^baseline .*tr\.json: protocol mfa-cohort-p2-2024-06 there, mfa-cohort-p3-2025-01 now: not comparable .*nothing compared$/m,
    );
    expect(r.stdout).not.toMatch(/New rate/);
    expect(r.stdout).toMatch(/^Baseline .*\(another protocol: not comparable\)$/m);
  });
});

describe('--baseline, a bad file: exit 2 naming it, nothing sent', () => {
  const cases: Array<[string, (dir: string) => string, RegExp]> = [
    ['missing', (dir) => join(dir, 'none.json'), /cannot read it: no such file \(ENOENT\)$/m],
    [
      'not JSON',
      (dir) => {
        writeFileSync(join(dir, 'x.json'), '{"ok": tr');
        return join(dir, 'x.json');
      },
      /it is not JSON/,
    ],
    [
      'not a track record',
      (dir) => {
        writeFileSync(join(dir, 'demo.json'), JSON.stringify({ ok: true, symbol: 'BTC/USD', predictions: {} }));
        return join(dir, 'demo.json');
      },
      /it is not a track-record body \(protocol: Required\)/,
    ],
  ];
  for (const [what, make, message] of cases) {
    it(what, async () => {
      const file = make(tempDir());
      const r = await emu.run(['track-record', '--baseline', file]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`fcast: --baseline ${file}: `);
      expect(r.stderr).toMatch(message);
      expect(emu.server.requests).toHaveLength(0);
    });
  }

  it('for another symbol or another timeframe', async () => {
    const all = await baselineFrom30DaysAgo();
    const symbol = await emu.run(['track-record', '--symbol', 'ETH/USD', '--baseline', all]);
    expect(symbol.code).toBe(2);
    expect(symbol.stderr).toMatch(/it is the track record of all symbols, and this run asks for ETH\/USD/);
    const eth = await baselineFrom30DaysAgo(['track-record', '--symbol', 'eth/usd']);
    const unfiltered = await emu.run(['track-record', '--baseline', eth]);
    expect(unfiltered.code).toBe(2);
    expect(unfiltered.stderr).toMatch(/it is the track record of ETH\/USD, and this run asks for all symbols/);
    const tf = await emu.run(['accuracy', '--tf', '1h', '--baseline', all]);
    expect(tf.code).toBe(2);
    expect(tf.stderr).toMatch(/it holds timeframe 1min, and this run asks for --tf 1h only/);
    expect(emu.server.requests).toHaveLength(0);
    const same = await emu.run(['track-record', '--symbol', 'ETH/USD', '--baseline', eth]);
    expect(same.code).toBe(0);
  });
});
