// The display nits a first reader trips over, each held here: no signed zero, the chart's %
// labelled, --chart and the overview's Next following --tf, one way of writing a duration,
// verify's times like every other view's, and the emulator's banner naming its keys.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { ForecastEnvelope } from '../../src/schema/bodies.js';
import { readCandlesByTimeframe } from '../../src/api/candles.js';
import { renderForecastCharts } from '../../src/output/chart.js';
import { Output } from '../../src/output/io.js';
import {
  type JournalReportView,
  renderJournalReportMarkdown,
  renderJournalReportTable,
} from '../../src/output/journal-report.js';
import { renderPredictions } from '../../src/output/prediction.js';
import { BIN } from '../helpers/cli.js';
import { FIXED_NOW, useEmulator } from '../helpers/emulator.js';

const emu = useEmulator();
const NOW = Math.floor(FIXED_NOW / 1000);

/** An Output writing nowhere, piped or on a terminal, with colour or not. */
function output(color: boolean, columns = 160): Output {
  const sink = { write: () => true, columns, isTTY: false };
  return new Output({ stdout: sink, stderr: sink, stdin: process.stdin }, color, false);
}

async function body(symbol: string, candles = false): Promise<ForecastEnvelope> {
  const url = `${emu.server.url}/api/agent/v1/predictions.php?symbol=${encodeURIComponent(symbol)}${candles ? '&candles=1' : ''}`;
  const res = await fetch(url, { headers: { authorization: `Bearer ${emu.server.testKey}` } });
  return (await res.json()) as ForecastEnvelope;
}

describe('no signed zero', () => {
  it('a move that rounds to zero reads 0.00%, uncoloured, and is not marked as disagreeing', async () => {
    const b = await body('BTC/USD');
    const predictions = b.predictions as Record<string, Record<string, unknown>>;
    const [tf, f] = Object.entries(predictions)[0]!;
    const ia3 = f.ia3 as Record<string, unknown>;
    // A long whose target sits a hair under its anchor: -0.0000001%.
    ia3.direction = 'long';
    f.target_price = (f.anchor_price as number) * (1 - 1e-9);
    (f.ia2 as Record<string, unknown>).predicted_change_pct = -0.0004;
    (b.price as Record<string, unknown>).change24h_pct = -0.001;
    const text = renderPredictions(output(true), [{ symbol: 'BTC/USD', body: b }], NOW, {
      detail: true,
      several: false,
    }).text;
    const row = text.split('\n').find((l) => l.startsWith(`${tf} `))!;
    expect(row).toContain('0.00%');
    expect(row).not.toMatch(/-0\.00/);
    expect(row).not.toContain('\x1b[31m0.00%');
    expect(row).not.toContain('≠');
    expect(text).toMatch(/ 0\.00% 24h/);
    expect(text).not.toContain('\x1b[31m0.00% 24h');
  });
});

describe('predict --chart', () => {
  it("labels the target's % as the move from the anchor (the table's Move), then from the last price where it fits", async () => {
    const b = await body('BTC/USD', true);
    const { text } = renderForecastCharts(output(false), b, await readCandlesByTimeframe(b.candles));
    expect(text).toMatch(/◆ 15min target [\d,.]+ \([+-]?\d+\.\d\d% from anchor(, [+-]?\d+\.\d\d% from last)?\)/);
  });

  it('draws the candle timeframes asked for with --tf, and says which have no candles', async () => {
    const r = await emu.runWithKey(['predict', 'BTC/USD', '--chart', '--tf', '15min,6h', '--no-color']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^BTC\/USD · 15min · \d+ candles/m);
    expect(r.stdout).not.toMatch(/^BTC\/USD · 1h · /m);
    expect(r.stderr).toBe('fcast: BTC/USD: no 6h chart: candles come only in 15min and 1h\n');

    const hourly = await emu.runWithKey(['predict', 'BTC/USD', '--chart', '--tf', '1h', '--no-color']);
    expect(hourly.stdout).toMatch(/^BTC\/USD · 1h · \d+ candles/m);
    expect(hourly.stdout).not.toMatch(/^BTC\/USD · 15min · /m);

    const both = await emu.runWithKey(['predict', 'BTC/USD', '--chart', '--no-color']);
    expect(both.stdout.match(/^BTC\/USD · (15min|1h) · /gm)).toHaveLength(2);
  });
});

describe("the overview's Next column", () => {
  it('is the next forecast of the timeframes asked for with --tf', async () => {
    const r = await emu.runWithKey(['predict', 'BTC/USD', 'ETH/USD', '--tf', '6h', '--no-color']);
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout.split('\n').filter((l) => /^(BTC|ETH)\/USD /.test(l));
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row).toMatch(/ 6h in \w+$/);
    const any = await emu.runWithKey(['predict', 'BTC/USD', 'ETH/USD', '--no-color']);
    expect(any.stdout).not.toMatch(/ 6h in \w+$/m);
  });
});

describe('durations', () => {
  it('are written one way everywhere: 1h30m, never 1h 30m', async () => {
    const r = await emu.runWithKey(['predict', 'BTC/USD', '--no-color']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\b\d+h\d+m\b/);
    expect(r.stdout).not.toMatch(/\b\d+[dh] \d+[hm]\b/);
  });
});

describe('verify', () => {
  it('shows its ISO times as UTC time with age, like every other view', async () => {
    const r = await emu.run(['verify', '1', '--no-color']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ {2}settled_at +\d{4}-\d\d-\d\d \d\d:\d\d UTC \((\w+|[\d,]+ days) ago\)$/m);
    expect(r.stdout).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
  });

  it('writes an age past two days in one unit, and its closes table lines up', async () => {
    const r = await emu.run(['verify', '1', '--no-color']);
    expect(r.stdout).not.toMatch(/\d+d\d+h ago/);
    const closes = r.stdout
      .split('\n')
      .filter((l) => /^ {4}\d{4}-\d\d-\d\d \d\d:\d\d UTC \([\d,]+ days ago\) +[\d,.]+$/.test(l));
    expect(closes.length).toBeGreaterThan(2);
    // Every close ends at the same column: the table is not ragged behind its ages.
    expect(new Set(closes.map((l) => l.length)).size).toBe(1);
    // The header's t sits over the times, at the left.
    expect(r.stdout).toMatch(/^ {4}t {2,}close$/m);
  });
});

describe("the emulator's banner", () => {
  it('names the test key and shows the limited gateway key whole, for trying a 403', async () => {
    const mock = spawn(process.execPath, [BIN, 'mock', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    mock.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    try {
      // The banner's last line is the limited key's: wait for it, not for a while.
      while (!/FCAST_GATEWAY_KEY=mfgw_ag_[0-9a-f]{40}\n/.test(stderr)) await once(mock.stderr!, 'data');
    } finally {
      mock.kill('SIGTERM');
      await once(mock, 'exit');
    }
    expect(stderr).toMatch(/^fcast mock: serving the emulated API at http:\/\/127\.0\.0\.1:\d+; Ctrl-C to stop$/m);
    expect(stderr).toMatch(/^fcast mock: FCAST_API_KEY above is the test key \(every endpoint and scope\)$/m);
    expect(stderr).toMatch(
      /^fcast mock: to try a 403, this gateway key has scope market\.read only:\n {2}FCAST_GATEWAY_KEY=mfgw_ag_[0-9a-f]{40}$/m,
    );
  });
});

describe('no signed zero in the journal report', () => {
  it('a score or term that rounds to zero from below reads 0.000, in the table and in Markdown', () => {
    const call = {
      brier: 0.25,
      reliability: 0.01,
      resolution: 0.00001,
      uncertainty: 0.24,
      within_bin_variance: 0.0002,
      within_bin_covariance: -0.00001,
      bins: [{ lo: 0.5, hi: 0.6, n: 40, mean_p: 0.55, freq: 0.5, freq_ci95: [0.35, 0.65] as [number, number] }],
    };
    const view: JournalReportView = {
      report: {
        flat_band_pct: 0.01,
        bins: 10,
        timeframes: [
          {
            tf: '1h',
            n_settled: 40,
            wins: 20,
            losses: 20,
            neutrals: 0,
            open: 0,
            unsettleable: 0,
            hit_rate: 0.5,
            hit_rate_ci95: [0.35, 0.65],
            brier_3class: 0.6,
            bss_3class: -0.0004,
            log_loss: 0.9,
            call,
            service: null,
          },
        ],
      },
      symbols: ['BTC/USD'],
      first: NOW - 3600,
      last: NOW,
      notes: [],
      smallSample: 30,
    };
    for (const text of [
      renderJournalReportTable(output(false), view),
      renderJournalReportMarkdown(output(false), view),
    ]) {
      expect(text).toMatch(/ 0\.000 /);
      expect(text).toContain('within-bin covariance 0.0000');
      expect(text).not.toMatch(/-0\.0+\b/);
    }
  });
});
