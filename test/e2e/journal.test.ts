// The journal end to end against the emulator: recording never touches stdout nor fails the
// command, a session settles by the server's clock with every settlement recomputed from the
// emulator's own candles and prices, and the report, list, export and gates say what the
// contract says.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { acquireLock } from '../../src/config/file-lock.js';
import { JOURNAL_VERSION } from '../../src/journal/record.js';
import { findSymbol } from '../../src/mock/catalog.js';
import { priceAt } from '../../src/mock/prices.js';
import { expectExit, steppedClock, tempDir } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { served, SESSION_START, SETTLE_AFTER_MS, sessionFixture } from '../helpers/journal-session.js';
import { journalLines } from '../helpers/journal-rows.js';

const emu = useEmulator({ seed: 'journal' });
const SEED = 'journal';

const key = (r: { symbol: string; tf: string; ts: number }) => `${r.symbol} ${r.tf} ${r.ts}`;

/** Waits until `ok()` holds, looking every 10 ms, for at most 3 s. */
async function eventually(ok: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 3000;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('recording', () => {
  it('--record leaves stdout byte for byte as without it, --json and table alike, and records each forecast once', async () => {
    emu.server.clock.set({ start: SESSION_START, speed: 0 });
    const data = tempDir();
    const env = { FCAST_DATA_DIR: data };
    for (const format of [['--json'], []]) {
      const plain = await emu.runWithKey(['predict', 'BTC/USD', ...format], { env });
      const recorded = await emu.runWithKey(['predict', 'BTC/USD', ...format, '--record'], { env });
      expectExit(recorded, 0);
      expect(recorded.stdout).toBe(plain.stdout);
      expect(recorded.stderr).toBe(plain.stderr);
    }
    const body = await served(emu, 'predictions.php?symbol=BTC/USD');
    const recorded = journalLines(data);
    const forecasts = recorded.filter((r) => r.kind === 'forecast');
    expect(forecasts).toHaveLength(Object.keys(body.predictions).length);
    const f = forecasts.find((r) => r.tf === '1h');
    const p = body.predictions['1h'];
    expect(f).toEqual({
      v: JOURNAL_VERSION,
      kind: 'forecast',
      origin: new URL(emu.server.url).origin,
      symbol: 'BTC/USD',
      tf: '1h',
      ts: p.ts,
      horizon_min: p.horizon_min,
      target_t: p.target_t,
      anchor_price: p.anchor_price,
      target_price: p.target_price,
      direction: p.ia3.direction,
      p_long: p.ia3.p_long,
      p_short: p.ia3.p_short,
      p_flat: p.ia3.p_flat,
      tier: 'free',
      delay_min: 15,
      server_t: body.meta.server_t,
      recorded_at: expect.any(Number),
      // Every engine, field for field as sent (the schema's names), after ia3's call.
      ia1: { score: p.ia1.score, rsi_score: p.ia1.rsi_score, ema_score: p.ia1.ema_score },
      ia2: {
        p_long: p.ia2.p_long,
        p_short: p.ia2.p_short,
        p_flat: p.ia2.p_flat,
        predicted_change_pct: p.ia2.predicted_change_pct,
        confidence: p.ia2.confidence,
        label_raw: p.ia2.label_raw,
      },
      ia3: { label: p.ia3.label, policy_version: p.ia3.policy_version },
    });
    expect(recorded.filter((r) => r.kind === 'price')).toEqual([
      {
        v: JOURNAL_VERSION,
        kind: 'price',
        origin: new URL(emu.server.url).origin,
        symbol: 'BTC/USD',
        t: body.price.t,
        last: body.price.last,
        tier: 'free',
        delay_min: 15,
        recorded_at: expect.any(Number),
      },
    ]);
  });

  it('the record setting (FCAST_RECORD) records without the flag; demo records its tier and delay', async () => {
    emu.server.clock.set({ start: SESSION_START, speed: 0 });
    const data = tempDir();
    expectExit(await emu.run(['demo', 'ETH/USD'], { env: { FCAST_DATA_DIR: data, FCAST_RECORD: '1' } }), 0);
    const recorded = journalLines(data);
    expect(recorded.length).toBeGreaterThan(20);
    expect(new Set(recorded.map((r) => r.tier))).toEqual(new Set(['demo']));
    expect(new Set(recorded.map((r) => r.delay_min))).toEqual(new Set([60]));
    expectExit(await emu.run(['demo', 'ETH/USD'], { env: { FCAST_DATA_DIR: data, FCAST_RECORD: '0' } }), 0);
    expect(journalLines(data)).toHaveLength(recorded.length);
  });

  it('--watch --record records every refresh, each forecast once, and leaves the stream as it was', async () => {
    emu.server.clock.set({ start: SESSION_START, speed: 0 });
    const data = tempDir();
    // The watch's clock and the emulator's move together: each wait between refreshes is
    // five emulated minutes on both.
    let now = Date.UTC(2026, 10, 22, 12);
    const sleeps: number[] = [];
    const clock = {
      sleeps,
      now: () => now,
      random: () => 0.5,
      sleep: async (ms: number) => {
        sleeps.push(ms);
        now += ms;
        emu.server.clock.advance(ms);
      },
    };
    const argv = ['predict', 'BTC/USD', '--watch', '--count', '4', '--interval', '300', '--json'];
    const r = await emu.runWithKey([...argv, '--record'], { env: { FCAST_DATA_DIR: data }, clock });
    expectExit(r, 0);
    expect(r.stderr).toBe('');
    const bodies = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(bodies).toHaveLength(4);
    const shown = new Set(
      bodies.flatMap((b) => Object.values<any>(b.predictions).map((p) => `BTC/USD ${p.tf} ${p.ts}`)),
    );
    const recorded = journalLines(data)
      .filter((x) => x.kind === 'forecast')
      .map(key);
    expect(recorded.length).toBe(new Set(recorded).size);
    expect(new Set(recorded)).toEqual(shown);
    expect(journalLines(data).filter((x) => x.kind === 'price')).toHaveLength(4);
    // The 1min forecasts of the first refreshes have their target proven by a later price.
    expect(journalLines(data).some((x) => x.kind === 'settlement')).toBe(true);
  });

  it('records the timeframes shown: those of --tf, whatever the format (--json prints the whole body)', async () => {
    emu.server.clock.set({ start: SESSION_START, speed: 0 });
    const data = tempDir();
    const env = { FCAST_DATA_DIR: data };
    expectExit(await emu.runWithKey(['predict', 'BTC/USD', '--tf', '1h,6H', '--record'], { env }), 0);
    expectExit(await emu.runWithKey(['predict', 'ETH/USD', '--tf', '15min', '--json', '--record'], { env }), 0);
    expectExit(await emu.run(['demo', 'EUR/USD', '--tf', '1min', '--format', 'csv', '--record'], { env }), 0);
    const tfs = (symbol: string) =>
      journalLines(data)
        .filter((r) => r.kind === 'forecast' && r.symbol === symbol)
        .map((r) => r.tf)
        .sort();
    expect(tfs('BTC/USD')).toEqual(['1h', '6h']);
    expect(tfs('ETH/USD')).toEqual(['15min']);
    expect(tfs('EUR/USD')).toEqual(['1min']);
    // Without --tf, every timeframe of the body.
    expectExit(await emu.runWithKey(['predict', 'BTC/USD', '--record'], { env }), 0);
    const body = await served(emu, 'predictions.php?symbol=BTC/USD');
    expect(tfs('BTC/USD')).toEqual(Object.keys(body.predictions).sort());
  });

  it('never delays the output: a recorder waiting for the journal’s lock has shown its forecasts already', async () => {
    emu.server.clock.set({ start: SESSION_START, speed: 0 });
    const cases: Array<{ argv: string[]; tty?: boolean; shows: RegExp }> = [
      { argv: ['predict', 'BTC/USD'], shows: /^TF\s+Dir/m },
      { argv: ['predict', 'BTC/USD', 'ETH/USD', '--json'], shows: /"symbol": "ETH\/USD"/ },
      { argv: ['demo', 'ETH/USD', '--format', 'csv'], shows: /^symbol,/ },
      { argv: ['predict', 'BTC/USD', '--watch', '--count', '1', '--json'], shows: /^\{"ok":true/ },
      { argv: ['demo', '--watch', '--count', '2', '--interval', '5'], tty: true, shows: /TF\s+Dir/ },
    ];
    for (const { argv, tty, shows } of cases) {
      const data = tempDir();
      const dir = join(data, 'journal');
      mkdirSync(dir, { mode: 0o700 });
      const release = await acquireLock(join(dir, 'journal.lock'), 'the journal (held by the test)');
      let stdout = { text: '' };
      let finished = false;
      // The board on a terminal: keys that never come, and a clock that moves only when the test says.
      const clock = steppedClock(Date.now());
      const board = tty
        ? {
            tty,
            terminal: { columns: 100, rows: 40 },
            clock,
            stdin: Object.assign(new PassThrough(), { setRawMode() {} }),
          }
        : {};
      const run = emu
        .runWithKey([...argv, '--record'], {
          env: { FCAST_DATA_DIR: data },
          ...board,
          onStart: (s) => (stdout = s.stdout),
        })
        .finally(() => {
          finished = true;
        });
      try {
        // Colours and cursor moves aside, on the board.
        await eventually(() => shows.test(stdout.text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')), argv.join(' '));
        expect(finished, argv.join(' ')).toBe(false);
        expect(readdirSync(dir).filter((f) => f.endsWith('.jsonl'))).toEqual([]);
      } finally {
        release();
      }
      // The board's second refresh, the interval after the first.
      while (tty && !finished) await clock.advance(1000);
      expectExit(await run, 0);
      expect(journalLines(data).some((r) => r.kind === 'forecast')).toBe(true);
    }
  });

  it('a journal that cannot be written is one warning: the output and the exit code stay', async () => {
    emu.server.clock.set({ start: SESSION_START, speed: 0 });
    const plain = await emu.runWithKey(['predict', 'BTC/USD', '--json']);
    // /sys is a file system no one writes: mkdir there fails (EPERM), even for root.
    const r = await emu.runWithKey(['predict', 'BTC/USD', '--json', '--record'], {
      env: { FCAST_DATA_DIR: '/sys/kernel' },
    });
    expectExit(r, 0);
    expect(r.stdout).toBe(plain.stdout);
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^warning: journal: not recorded: cannot write \/sys\/kernel\/journal: E(PERM|ROFS|ACCES)/),
    ]);
  });

  it('an immutable journal (chattr +i) is a warning for recorders and a clear error for journal commands', async () => {
    emu.server.clock.set({ start: SESSION_START, speed: 0 });
    const data = tempDir();
    expectExit(await emu.runWithKey(['predict', 'BTC/USD', '--record'], { env: { FCAST_DATA_DIR: data } }), 0);
    const dir = join(data, 'journal');
    const month = join(dir, readdirSync(dir).find((f) => f.endsWith('.jsonl'))!);
    const chattr = (flag: string) => execFileSync('chattr', [flag, month, dir], { stdio: 'ignore' });
    try {
      chattr('+i');
    } catch {
      return; // no chattr here (or no right to use it): nothing to test
    }
    try {
      const before = readFileSync(month, 'utf8');
      emu.server.clock.advance(3600_000);
      const r = await emu.runWithKey(['predict', 'BTC/USD', '--record'], { env: { FCAST_DATA_DIR: data } });
      expectExit(r, 0);
      expect(r.stderr).toMatch(/^warning: journal: not recorded: cannot write .*E(PERM|ACCES)/);
      emu.server.clock.advance(86_400_000);
      const s = await emu.runWithKey(['journal', 'settle'], { env: { FCAST_DATA_DIR: data } });
      expectExit(s, 3);
      expect(s.stderr).toMatch(/^fcast: journal: cannot write .*E(PERM|ACCES)/m);
      expect(readFileSync(month, 'utf8')).toBe(before);
    } finally {
      chattr('-i');
    }
  });
});

describe('a recorded session, settled and reported', () => {
  // Each test has a session of its own: recorded once for the file, copied for each test.
  const session = sessionFixture(emu, {
    steps: 36,
    stepS: 300,
    symbols: ['BTC/USD', 'ETH/USD'],
    candlesEvery: 6,
  });
  /** The session settled, and the environment that points fcast at its journal. */
  const settled = async () => {
    const data = await session.settled();
    return { data, env: { FCAST_DATA_DIR: data } };
  };

  it('settles by the server’s clock: what is due settles, what is not stays open, whatever this machine’s clock says', async () => {
    const data = await session.recorded();
    const env = { FCAST_DATA_DIR: data };
    // The session's last recording was 5 minutes ago by the emulator; fcast's clock says November.
    const before = journalLines(data);
    const forecasts = before.filter((r) => r.kind === 'forecast');
    const selfSettled = before.filter((r) => r.kind === 'settlement');
    // --record settled what its own responses proved: the 1min forecasts, by a price at their target.
    expect(selfSettled.length).toBeGreaterThan(40);
    for (const s of selfSettled) expect(s.settle_t).toBe(forecasts.find((f) => key(f) === key(s)).target_t);

    const serverT = Math.floor(emu.server.clock.now() / 1000);
    const r = await emu.runWithKey(['journal', 'settle', '--json'], { env });
    expectExit(r, 0);
    const summary = JSON.parse(r.stdout);
    const settledKeys = new Set(
      journalLines(data)
        .filter((x) => x.kind === 'settlement')
        .map(key),
    );
    const open = forecasts.filter((f) => !settledKeys.has(key(f)));
    expect(open.filter((f) => f.target_t > serverT)).toHaveLength(summary.open.not_due);
    expect(summary.open.not_due).toBeGreaterThan(0);
    // Nothing whose target is still ahead by the emulator's clock was settled.
    for (const f of forecasts) if (f.target_t > serverT) expect(settledKeys.has(key(f))).toBe(false);
  });

  it('every settlement is the emulator’s own close: the candle closing at target_t, or a price at most 900 s after', async () => {
    const data = await session.recorded();
    const env = { FCAST_DATA_DIR: data };
    emu.server.clock.advance(SETTLE_AFTER_MS);
    expectExit(await emu.runWithKey(['journal', 'settle'], { env }), 0);
    const all = journalLines(data);
    const forecasts = new Map(all.filter((r) => r.kind === 'forecast').map((f) => [key(f), f]));
    const settlements = all.filter((r) => r.kind === 'settlement');
    // Once each.
    expect(new Set(settlements.map(key)).size).toBe(settlements.length);
    const candles: Record<string, any> = {};
    for (const symbol of ['BTC/USD', 'ETH/USD']) {
      candles[symbol] = (await served(emu, `predictions.php?symbol=${symbol}&candles=1`)).candles;
    }
    let fromCandles = 0;
    for (const s of settlements) {
      const f = forecasts.get(key(s))!;
      if (s.status === 'unsettleable') {
        // Nothing could settle it: no close at target_t and no price within 900 s after.
        expect(s.reason).toMatch(/no price observed within 900 s after target_t/);
        continue;
      }
      expect(s.settle_t).toBeGreaterThanOrEqual(f.target_t);
      expect(s.settle_t).toBeLessThanOrEqual(f.target_t + 900);
      // One price path: a candle's close and a price at the same instant are the same number.
      expect(s.settle_price).toBe(priceAt(SEED, findSymbol(s.symbol)!, s.settle_t));
      if (s.settle_source === 'candles') {
        fromCandles++;
        expect(s.settle_t).toBe(f.target_t);
        const candle = [...candles[s.symbol]['15min'], ...candles[s.symbol]['1h']].find(
          (c: any) => c.t + (candles[s.symbol]['15min'].includes(c) ? 900 : 3600) === f.target_t,
        );
        if (candle) expect(candle.c).toBe(s.settle_price);
      }
      // The return and the outcome, recomputed here.
      const ret = (s.settle_price / f.anchor_price - 1) * 100;
      expect(s.return_pct).toBe(ret);
      const move = Math.abs(ret) < 0.01 ? 'flat' : ret > 0 ? 'up' : 'down';
      const outcome = move === 'flat' ? 'neutral' : (move === 'up') === (f.direction === 'long') ? 'win' : 'loss';
      expect([s.move, s.outcome]).toEqual([move, outcome]);
    }
    expect(fromCandles).toBeGreaterThan(20);
  });

  it('reports per timeframe with the contract’s field names, the decomposition adding up, and the service beside it', async () => {
    const { env } = await settled();
    const r = await emu.runWithKey(['journal', 'report', '--json'], { env });
    expectExit(r, 0);
    const doc = JSON.parse(r.stdout);
    expect(Object.keys(doc)).toEqual(['flat_band_pct', 'bins', 'timeframes']);
    expect(doc.flat_band_pct).toBe(0.01);
    expect(doc.bins).toBe(10);
    const oneMin = doc.timeframes.find((t: any) => t.tf === '1min');
    expect(Object.keys(oneMin)).toEqual([
      'tf',
      'n_settled',
      'wins',
      'losses',
      'neutrals',
      'open',
      'unsettleable',
      'hit_rate',
      'hit_rate_ci95',
      'brier_3class',
      'bss_3class',
      'log_loss',
      'call',
      'service',
    ]);
    expect(Object.keys(oneMin.call)).toEqual([
      'brier',
      'reliability',
      'resolution',
      'uncertainty',
      'within_bin_variance',
      'within_bin_covariance',
      'bins',
    ]);
    expect(Object.keys(oneMin.call.bins[0])).toEqual(['lo', 'hi', 'n', 'mean_p', 'freq', 'freq_ci95']);
    expect(Object.keys(oneMin.service)).toEqual(['resolved_win_rate', 'resolved_win_rate_ci95', 'n_settled']);
    for (const t of doc.timeframes) {
      expect(t.wins + t.losses + t.neutrals).toBe(t.n_settled);
      if (t.call.brier === null) continue;
      const c = t.call;
      const sum = c.reliability - c.resolution + c.uncertainty + c.within_bin_variance - c.within_bin_covariance;
      expect(Math.abs(sum - c.brier)).toBeLessThanOrEqual(1e-12);
      expect(c.bins.reduce((s: number, b: any) => s + b.n, 0)).toBe(t.n_settled);
      expect(t.hit_rate).toBe(t.wins / (t.wins + t.losses));
    }
    // Two symbols: the service's counts pooled over both, from one request per symbol.
    const requests = emu.server.requests.filter((q) => q.path.endsWith('track-record.php'));
    expect(requests.map((q) => q.query.symbol).sort()).toEqual(['BTC/USD', 'ETH/USD']);
    const published = await Promise.all(
      ['BTC/USD', 'ETH/USD'].map((s) =>
        fetch(`${emu.server.url}/api/agent/v1/track-record.php?symbol=${encodeURIComponent(s)}`).then((x) => x.json()),
      ),
    );
    const one = published.map((p: any) => p.results.find((x: any) => x.timeframe === '1min'));
    expect(oneMin.service.n_settled).toBe(one[0].n_settled + one[1].n_settled);
    const wins = one[0].outcomes.win + one[1].outcomes.win;
    expect(oneMin.service.resolved_win_rate).toBeCloseTo(
      wins / (wins + one[0].outcomes.loss + one[1].outcomes.loss),
      12,
    );
  });

  it('--offline sends nothing and leaves service null; one symbol takes its published figures as they are', async () => {
    const { env } = await settled();
    const r = await emu.runWithKey(['journal', 'report', '--json', '--offline'], { env });
    expectExit(r, 0);
    expect(emu.server.requests).toHaveLength(0);
    expect(JSON.parse(r.stdout).timeframes.every((t: any) => t.service === null)).toBe(true);
    const one = await emu.runWithKey(['journal', 'report', '--json', '--symbol', 'ETH/USD', '--tf', '1h'], { env });
    const published = (await (
      await fetch(`${emu.server.url}/api/agent/v1/track-record.php?symbol=ETH%2FUSD`)
    ).json()) as any;
    const hour = published.results.find((x: any) => x.timeframe === '1h');
    expect(JSON.parse(one.stdout).timeframes.map((t: any) => [t.tf, t.service])).toEqual([
      [
        '1h',
        {
          resolved_win_rate: hour.resolved_win_rate,
          resolved_win_rate_ci95: hour.resolved_win_rate_ci95,
          n_settled: hour.n_settled,
        },
      ],
    ]);
  });

  it('without a base URL the service is left out with a warning; a setting that is wrong is exit 3, nothing sent', async () => {
    const { env } = await settled();
    const unset = await emu.run(['journal', 'report', '--json'], { env: { ...env, FCAST_BASE_URL: '' } });
    expectExit(unset, 0);
    expect(unset.stderr).toMatch(/^warning: the service's figures are left out: no base URL is set/m);
    expect(JSON.parse(unset.stdout).timeframes.every((t: any) => t.service === null)).toBe(true);

    const wrong = await emu.run(['journal', 'report', '--json'], { env: { ...env, FCAST_TIMEOUT: 'abc' } });
    expectExit(wrong, 3);
    expect(wrong.stdout).toBe('');
    expect(wrong.stderr).toMatch(/^fcast: FCAST_TIMEOUT must be a number of seconds/);
    expect(emu.server.requests).toHaveLength(0);
    // --offline reads no setting: the journal alone.
    expectExit(await emu.run(['journal', 'report', '--offline'], { env: { ...env, FCAST_TIMEOUT: 'abc' } }), 0);
  });

  it('the table has the summary, the decomposition, the reliability table with small-sample warnings and the chart', async () => {
    const { env } = await settled();
    // Twenty bins: the emulator's calls cluster near 0.5, and 72 calls in bins of 0.05 leave some small.
    const r = await emu.runWithKey(['journal', 'report', '--tf', '1min', '--offline', '--bins', '20'], { env });
    expectExit(r, 0);
    expect(r.stdout).toMatch(
      /^Journal report · BTC\/USD, ETH\/USD · forecasts 2026-03-02 09:4\d UTC → 2026-03-02 \d\d:\d\d UTC · flat band 0.01%/,
    );
    expect(r.stdout).toMatch(/^TF\s+Settled\s+W\/L\/N\s+Open\s+Unsettleable\s+Hit rate/m);
    expect(r.stdout).toMatch(/Brier \d\.\d{4} = reliability \d\.\d{4} − resolution \d\.\d{4} \+ uncertainty/);
    expect(r.stdout).toMatch(/⚠ n < 30$/m);
    expect(r.stdout).toMatch(/^ 1\.0 ┤/m);
    expect(r.stdout).toContain('● observed (○ n < 30)  │ 95% CI  · calibrated');
  });

  it('--format markdown, csv and tsv', async () => {
    const { env } = await settled();
    const md = await emu.runWithKey(['journal', 'report', '--format', 'markdown', '--offline'], { env });
    expectExit(md, 0);
    expect(md.stdout).toMatch(/^### Journal report/);
    expect(md.stdout).toMatch(/^\| TF \| Settled \| W\/L\/N \|/m);
    expect(md.stdout).toContain('```text');
    const csv = await emu.runWithKey(['journal', 'report', '--format', 'csv', '--offline', '--bins', '4'], { env });
    expectExit(csv, 0);
    const [header, ...rows] = csv.stdout.trimEnd().split('\n');
    expect(header).toMatch(
      /^tf,n_settled,wins,losses,neutrals,open,unsettleable,hit_rate,hit_rate_ci95\.0,hit_rate_ci95\.1,/,
    );
    expect(header).toContain('call.bins.3.freq_ci95.1,service.resolved_win_rate');
    expect(rows.every((row) => row.split(',').length === header!.split(',').length)).toBe(true);
    const tsv = await emu.runWithKey(['journal', 'report', '--format', 'tsv', '--offline'], { env });
    expect(tsv.stdout.split('\n')[0]).toMatch(/^tf\tn_settled\t/);
    // The attribution the table ends with is the last column; offline there is none to cite.
    expect(header!.endsWith(',service.n_settled,source')).toBe(true);
    expect(rows.every((row) => row.endsWith(','))).toBe(true);
  });

  it('--format csv with the service figures: the track record attribution in a source column, as the table cites it', async () => {
    const { env } = await settled();
    const table = await emu.runWithKey(['journal', 'report', '--tf', '1min'], { env });
    const cited = /^Source: (.+)$/m.exec(table.stdout)?.[1];
    expect(cited).toMatch(/^Market Forecast Agent/);
    const csv = await emu.runWithKey(['journal', 'report', '--tf', '1min', '--format', 'csv'], { env });
    expectExit(csv, 0);
    const [header, ...rows] = parse(csv.stdout) as string[][];
    expect(header!.at(-1)).toBe('source');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.at(-1)).toBe(cited);
    expect(rows[0]![header!.indexOf('service.n_settled')]).toMatch(/^\d+$/);
  });

  it("the footer: the tier the forecasts were recorded at, and the service line only over the service's figures", async () => {
    const { env } = await settled();
    // Recorded with a free key; the track record is published keyless (its own meta says demo).
    const table = await emu.runWithKey(['journal', 'report', '--tf', '1min'], { env });
    expectExit(table, 0);
    const tail = table.stdout.trimEnd().split('\n').slice(-4);
    expect(tail[0]).toBe('Service figures from the published track record:');
    expect(tail.at(-1)).toBe('Tier: free · data delayed 15 min');
    const md = await emu.runWithKey(['journal', 'report', '--tf', '1min', '--format', 'markdown'], { env });
    expect(md.stdout.trimEnd().split('\n').at(-1)).toBe('Tier: free · data delayed 15 min');
    // A timeframe the track record does not publish: no service figures, and the line says why.
    const none = await emu.runWithKey(['journal', 'report', '--tf', '10min'], { env });
    expectExit(none, 0);
    expect(none.stdout).not.toContain('Service figures from the published track record:');
    expect(none.stdout).toContain('No service figures: the published track record has none of these timeframes.');
    expect(none.stdout.trimEnd().split('\n').at(-1)).toBe('Tier: free · data delayed 15 min');
    // Forecasts of the demo too (tier demo, an hour late): both named, the most recorded first.
    const mixed = { ...env, FCAST_DATA_DIR: tempDir() };
    expectExit(await emu.runWithKey(['predict', 'BTC/USD', '--record'], { env: mixed }), 0);
    expectExit(await emu.run(['demo', '--record'], { env: mixed }), 0);
    const reported = await emu.runWithKey(['journal', 'report'], { env: mixed });
    expect(reported.stdout.trimEnd().split('\n').at(-1)).toMatch(
      /^Tier: (free, demo|demo, free) · data delayed 15–60 min$/,
    );
  });

  it('gates exit 8, listing each failure; a figure equal to its threshold passes', async () => {
    const { env } = await settled();
    const doc = JSON.parse(
      (await emu.runWithKey(['journal', 'report', '--json', '--offline', '--tf', '1min'], { env })).stdout,
    );
    const t = doc.timeframes[0];
    const pass = await emu.runWithKey(
      [
        'journal',
        'report',
        '--offline',
        '--tf',
        '1min',
        '--min-settled',
        String(t.n_settled),
        '--max-brier',
        String(t.call.brier),
        '--min-hit-rate',
        String(t.hit_rate),
      ],
      { env },
    );
    expectExit(pass, 0);
    const fail = await emu.runWithKey(
      [
        'journal',
        'report',
        '--json',
        '--offline',
        '--tf',
        '1min',
        '--min-settled',
        String(t.n_settled + 1),
        '--max-brier',
        '0.01',
      ],
      { env },
    );
    expectExit(fail, 8);
    expect(JSON.parse(fail.stdout)).toEqual(doc);
    expect(fail.stderr).toContain(
      `gate failed: 1min: n_settled ${t.n_settled} is below --min-settled ${t.n_settled + 1}`,
    );
    expect(fail.stderr).toContain(`gate failed: 1min: call.brier ${t.call.brier.toFixed(4)} is above --max-brier 0.01`);
    expect(fail.stderr).toMatch(/^fcast: check failed: 2 gate failures$/m);
    const empty = await emu.runWithKey(['journal', 'report', '--offline', '--tf', '4h', '--min-settled', '1'], { env });
    expectExit(empty, 8);
    expect(empty.stderr).toContain('gate failed: --min-settled 1: the report has no timeframes');
  });

  it('under GitHub Actions, failed gates are ::error lines and the report and verdict go to the step summary', async () => {
    const { env } = await settled();
    const summary = join(tempDir(), 'summary.md');
    const ci = { ...env, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary };
    const r = await emu.runWithKey(['journal', 'report', '--offline', '--tf', '1min,1h', '--min-settled', '100000'], {
      env: ci,
    });
    expectExit(r, 8);
    expect(r.stderr).toMatch(
      /^::error title=fcast journal report%3A gate failed \(1min\)::gate failed: 1min: n_settled \d+ is below --min-settled 100000$/m,
    );
    const written = readFileSync(summary, 'utf8');
    expect(written).toMatch(/^### Journal report/);
    expect(written).toContain('**Verdict: failed** (exit 8). fcast journal report: 2 gate failures.');
    const quiet = await emu.runWithKey(
      ['journal', 'report', '--offline', '--tf', '1min', '--min-settled', '100000', '--no-annotations'],
      { env: { ...ci, GITHUB_STEP_SUMMARY: join(tempDir(), 'none.md') } },
    );
    expectExit(quiet, 8);
    expect(quiet.stderr).not.toContain('::error');
  });

  it('list and export: one row per forecast, the contract’s columns in its order', async () => {
    const { data, env } = await settled();
    const list = await emu.runWithKey(['journal', 'list', '--status', 'unsettleable', '--json'], { env });
    expectExit(list, 0);
    const rows = JSON.parse(list.stdout);
    expect(rows.every((r: any) => r.status === 'unsettleable' && r.reason)).toBe(true);
    // The table says why too, where the outcome would be (piped: every column, every character).
    const unsettleableTable = await emu.runWithKey(['journal', 'list', '--status', 'unsettleable', '--no-color'], {
      env,
    });
    const listedRows = unsettleableTable.stdout.trimEnd().split('\n').slice(1);
    expect(rows.length).toBeGreaterThan(0);
    expect(listedRows).toHaveLength(rows.length);
    // The reason, then the origin: the table ends with the service the record came from.
    for (const [i, line] of listedRows.entries())
      expect(line.endsWith(`  ${rows[i].reason}  ${rows[i].origin}`), line).toBe(true);
    const csv = await emu.runWithKey(['journal', 'export'], { env });
    expectExit(csv, 0);
    const [header, ...body] = csv.stdout.trimEnd().split('\n');
    expect(header).toBe(
      'symbol,tf,ts,horizon_min,target_t,anchor_price,target_price,direction,p_long,p_short,p_flat,status,settle_price,settle_t,settle_source,return_pct,outcome,recorded_at,move,reason,tier,delay_min,origin,server_t,settled_at,settle_flat_band_pct,ts_iso,target_t_iso,settle_t_iso,recorded_at_iso,server_t_iso,settled_at_iso,ia1.score,ia1.rsi_score,ia1.ema_score,ia2.p_long,ia2.p_short,ia2.p_flat,ia2.predicted_change_pct,ia2.confidence,ia2.label_raw,ia3.label,ia3.policy_version',
    );
    const forecasts = journalLines(data).filter((r) => r.kind === 'forecast');
    expect(body).toHaveLength(forecasts.length);
    // The engines' cells: the record's own values, ia3's call still in the contract's columns.
    const exported = parse(csv.stdout, { columns: true }) as Array<Record<string, string>>;
    expect(
      exported.map((r) => [
        r.symbol,
        r.tf,
        Number(r.ts),
        r.direction,
        Number(r['ia2.p_long']),
        r['ia2.label_raw'],
        Number(r['ia3.policy_version']),
      ]),
    ).toEqual(
      forecasts.map((f) => [f.symbol, f.tf, f.ts, f.direction, f.ia2.p_long, f.ia2.label_raw, f.ia3.policy_version]),
    );
    const jsonl = await emu.runWithKey(['journal', 'export', '--format', 'jsonl', '--symbol', 'BTC/USD'], { env });
    const objects = jsonl.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(objects).toHaveLength(forecasts.filter((f) => f.symbol === 'BTC/USD').length);
    expect(objects[0].ts_iso).toBe(new Date(objects[0].ts * 1000).toISOString().replace('.000Z', 'Z'));
    // list's CSV and TSV put each time's ISO twin beside it, as every table does (Formats).
    const listed =
      'symbol,tf,ts,ts_iso,horizon_min,target_t,target_t_iso,anchor_price,target_price,direction,p_long,p_short,p_flat,status,settle_price,settle_t,settle_t_iso,settle_source,return_pct,outcome,recorded_at,recorded_at_iso,move,reason,tier,delay_min,origin,server_t,server_t_iso,settled_at,settled_at_iso,settle_flat_band_pct,ia1.score,ia1.rsi_score,ia1.ema_score,ia2.p_long,ia2.p_short,ia2.p_flat,ia2.predicted_change_pct,ia2.confidence,ia2.label_raw,ia3.label,ia3.policy_version';
    const listCsv = await emu.runWithKey(['journal', 'list', '--format', 'csv'], { env });
    expectExit(listCsv, 0);
    const [listHeader, first] = listCsv.stdout.split('\n');
    expect(listHeader).toBe(listed);
    const cells = Object.fromEntries(listed.split(',').map((c, i) => [c, first!.split(',')[i]]));
    expect(cells.ts_iso).toBe(new Date(Number(cells.ts) * 1000).toISOString().replace('.000Z', 'Z'));
    const listTsv = await emu.runWithKey(['journal', 'list', '--format', 'tsv'], { env });
    expect(listTsv.stdout.split('\n')[0]).toBe(listed.replaceAll(',', '\t'));
    const table = await emu.runWithKey(['journal', 'list', '--tf', '1h'], { env });
    expect(table.stdout).toMatch(/^Symbol\s+TF\s+Created \(UTC\)\s+Target \(UTC\)\s+Call/);
    const refused = await emu.runWithKey(['journal', 'export', '--json'], { env });
    expectExit(refused, 2);
    expect(refused.stderr).toMatch(/journal export gives --format csv, tsv or jsonl, not 'json'/);
  });

  it('an export imported elsewhere reports the same; path names the journal', async () => {
    const { env } = await settled();
    const csv = (await emu.runWithKey(['journal', 'export'], { env })).stdout;
    const file = join(tempDir(), 'export.csv');
    writeFileSync(file, csv);
    const other = tempDir();
    const imported = await emu.runWithKey(['journal', 'import', file, '--json'], { env: { FCAST_DATA_DIR: other } });
    expectExit(imported, 0);
    const mine = await emu.runWithKey(['journal', 'report', '--json', '--offline'], { env });
    const theirs = await emu.runWithKey(['journal', 'report', '--json', '--offline'], {
      env: { FCAST_DATA_DIR: other },
    });
    expect(JSON.parse(theirs.stdout)).toEqual(JSON.parse(mine.stdout));
    const path = await emu.runWithKey(['journal', 'path'], { env: { FCAST_DATA_DIR: other } });
    expect(path.stdout).toBe(`${join(other, 'journal')}\n`);
  });
});
