// Two services, one journal: every record names its origin, a forecast is settled only with
// its own service's candles and prices, the same (symbol, tf, ts) from two services is two
// forecasts, and report, list and export keep them apart unless asked. Measured before origins
// existed: the first emulator's 1h anchor was settled with the second's candle ("+6.531% win")
// and the second's own forecast for the key skipped as already recorded.
import { chmodSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectExit, runCli, spawnFcast, tempDir } from '../helpers/cli.js';
import { FIXED_NOW, useEmulator } from '../helpers/emulator.js';
import { SESSION_START } from '../helpers/journal-session.js';
import { journalLines } from '../helpers/journal-rows.js';
import { forecastAt, NOV } from '../helpers/journal-round-trip.js';
import { openJournalDir } from '../../src/journal/journal-files.js';
import { JOURNAL_VERSION, recordLine, type JournalRecord, type PriceRecord } from '../../src/journal/record.js';

const first = useEmulator({ seed: 'origin-one' });
const second = useEmulator({ seed: 'origin-two' });

const originOf = (url: string) => new URL(url).origin;

/** Both emulators on the same emulated instant, forecasts of BTC/USD 1h recorded from each. */
async function recordBoth(): Promise<string> {
  const data = tempDir();
  for (const emu of [first, second]) {
    emu.server.clock.set({ start: SESSION_START, speed: 0 });
    const r = await emu.runWithKey(['predict', 'BTC/USD', '--tf', '1h', '--record'], { env: { FCAST_DATA_DIR: data } });
    expectExit(r, 0);
    expect(r.stderr).toBe('');
  }
  return data;
}

describe('origins', () => {
  it('the same (symbol, tf, ts) from two services is two forecasts, each naming its origin', async () => {
    const data = await recordBoth();
    const forecasts = journalLines(data).filter((r) => r.kind === 'forecast');
    expect(forecasts.map((f) => [f.v, f.origin, f.symbol, f.tf])).toEqual([
      [JOURNAL_VERSION, originOf(first.server.url), 'BTC/USD', '1h'],
      [JOURNAL_VERSION, originOf(second.server.url), 'BTC/USD', '1h'],
    ]);
    expect(forecasts[0].ts).toBe(forecasts[1].ts);
    expect(Object.keys(forecasts[0]).slice(0, 4)).toEqual(['v', 'kind', 'origin', 'symbol']);
    for (const p of journalLines(data).filter((r) => r.kind === 'price'))
      expect(p.origin).toMatch(/^http:\/\/127\.0\.0\.1:/);
  });

  it("settle uses only its own service's candles: the other's forecasts are counted, never settled with them", async () => {
    const data = await recordBoth();
    const [mine, theirs] = journalLines(data).filter((r) => r.kind === 'forecast');
    second.server.clock.set({ start: SESSION_START + 12 * 3600_000, speed: 0 });
    const settled = await second.runWithKey(['journal', 'settle', '--json'], { env: { FCAST_DATA_DIR: data } });
    expectExit(settled, 0);
    expect(JSON.parse(settled.stdout)).toMatchObject({
      settled: 1,
      other_origins: 1,
      origin: originOf(second.server.url),
    });
    const settlements = journalLines(data).filter((r) => r.kind === 'settlement');
    expect(settlements).toHaveLength(1);
    expect(settlements[0]).toMatchObject({ origin: theirs.origin, anchor_price: theirs.anchor_price });
    expect(mine.origin).not.toBe(theirs.origin);
    // The first service settles its own, with its own candle, when asked.
    first.server.clock.set({ start: SESSION_START + 12 * 3600_000, speed: 0 });
    const own = await first.runWithKey(['journal', 'settle', '--json'], { env: { FCAST_DATA_DIR: data } });
    expectExit(own, 0);
    expect(JSON.parse(own.stdout)).toMatchObject({ settled: 1, other_origins: 0 });
    const both = journalLines(data).filter((r) => r.kind === 'settlement');
    expect(both.map((s) => s.origin)).toEqual([theirs.origin, mine.origin]);
    expect(both[1].anchor_price).toBe(mine.anchor_price);
    expect(both[1].settle_price).not.toBe(both[0].settle_price);
  });

  it('report, list and export show the base URL’s origin only, and every one with --origin all', async () => {
    const data = await recordBoth();
    const env = { FCAST_DATA_DIR: data };
    const list = await second.run(['journal', 'list', '--json'], { env });
    expectExit(list, 0);
    expect(JSON.parse(list.stdout).map((r: any) => r.origin)).toEqual([originOf(second.server.url)]);
    expect(list.stderr).toBe(
      'journal: 1 forecast(s) of other services (or of an unknown one) left out; --origin URL|unknown|all shows them\n',
    );
    const all = await second.run(['journal', 'list', '--json', '--origin', 'all'], { env });
    expectExit(all, 0);
    expect(all.stderr).toBe('');
    expect(JSON.parse(all.stdout)).toHaveLength(2);
    const mine = await second.run(['journal', 'export', '--format', 'jsonl', '--origin', first.server.url], { env });
    expectExit(mine, 0);
    expect(
      mine.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).origin),
    ).toEqual([originOf(first.server.url)]);
    // No base URL and no --origin: two services are never pooled.
    const pooled = await runCli(['journal', 'report', '--offline'], { now: FIXED_NOW, env });
    expectExit(pooled, 2);
    expect(pooled.stderr).toContain('the journal holds the forecasts of 2 services (');
    expect(pooled.stdout).toBe('');
    const one = await runCli(['journal', 'report', '--offline', '--json', '--origin', second.server.url], {
      now: FIXED_NOW,
      env,
    });
    expectExit(one, 0);
    expect(JSON.parse(one.stdout).timeframes.map((t: any) => [t.tf, t.open])).toEqual([['1h', 1]]);
  });

  it('a version 1 journal reads as origin unknown, and is settled only when adopted', async () => {
    const data = await recordBoth();
    const dir = join(data, 'journal');
    // The first service's lines as version 1 wrote them: no origin.
    const [file] = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
    const v1 = journalLines(data)
      .filter((r) => r.origin === originOf(first.server.url))
      .map(({ origin: _origin, ...r }) => JSON.stringify({ ...r, v: 1 }))
      .join('\n');
    writeFileSync(join(dir, file!), `${v1}\n`);
    const unknown = await second.run(['journal', 'list', '--json', '--origin', 'unknown'], {
      env: { FCAST_DATA_DIR: data },
    });
    expectExit(unknown, 0);
    expect(JSON.parse(unknown.stdout).map((r: any) => [r.origin, r.status])).toEqual([[null, 'open']]);
    second.server.clock.set({ start: SESSION_START + 12 * 3600_000, speed: 0 });
    const env = { FCAST_DATA_DIR: data };
    const skipped = await second.runWithKey(['journal', 'settle', '--json'], { env });
    expectExit(skipped, 0);
    expect(JSON.parse(skipped.stdout)).toMatchObject({ settled: 0, other_origins: 1 });
    const adopted = await second.runWithKey(['journal', 'settle', '--json', '--adopt-unknown-origin'], { env });
    expectExit(adopted, 0);
    expect(JSON.parse(adopted.stdout)).toMatchObject({ settled: 1, other_origins: 0 });
    expect(
      journalLines(data)
        .filter((r) => r.kind === 'settlement')
        .map((s) => [s.v, s.origin]),
    ).toEqual([[JOURNAL_VERSION, null]]);
  });
});

describe('list, import from stdin, and a shared data directory', () => {
  it('list shows each forecast’s origin and source; an export piped into `import -` adds it all, then nothing', async () => {
    const data = await recordBoth();
    const table = await first.run(['journal', 'list', '--origin', 'all'], { env: { FCAST_DATA_DIR: data } });
    expectExit(table, 0);
    const [header, ...rows] = table.stdout.trimEnd().split('\n');
    expect(header).toMatch(/\bFrom\b.*\bOrigin$/);
    expect(rows.map((r) => r.split(/\s+/).at(-1))).toEqual([originOf(first.server.url), originOf(second.server.url)]);
    const exported = await first.run(['journal', 'export', '--origin', 'all'], { env: { FCAST_DATA_DIR: data } });
    const copy = tempDir();
    const env = { FCAST_DATA_DIR: copy };
    const piped = await spawnFcast(['journal', 'import', '-', '--json'], env, { stdin: exported.stdout });
    expect(piped.stderr).toBe('');
    expect(piped.code).toBe(0);
    expect(JSON.parse(piped.stdout)).toMatchObject({ format: 'csv', rows: 2, forecasts: 2, duplicates: 0 });
    const again = await spawnFcast(['journal', 'import', '-'], env, { stdin: exported.stdout });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^read {10}2 rows of stdin \(csv\)\n/);
    expect(again.stdout).toMatch(/^already there 2$/m);
    const back = await first.run(['journal', 'export', '--origin', 'all'], { env });
    expect(back.stdout).toBe(exported.stdout);
  });

  it('a shared data directory (sticky, or holding more than the journal) is not chmod-ed on advice', async () => {
    const shared = tempDir();
    writeFileSync(join(shared, 'notes.txt'), 'mine');
    chmodSync(shared, 0o777);
    const r = await runCli(['journal', 'list'], { now: FIXED_NOW, env: { FCAST_DATA_DIR: shared } });
    expectExit(r, 3);
    expect(r.stderr).toBe(
      `fcast: journal: the data directory ${shared} is writable by others (mode 0777); not used for the journal\n  hint: point FCAST_DATA_DIR at a private directory of its own (fcast creates it, mode 0700); '${shared}' is shared, and a chmod would change it for everything else it holds\n`,
    );
    chmodSync(shared, 0o700);
  });
});

describe('export with no origin chosen', () => {
  const A = 'https://a.example';
  const B = 'https://b.example';
  const OCT = Date.UTC(2026, 9, 15) / 1000;
  const price = (origin: string, symbol: string, t: number): PriceRecord => ({
    v: 2,
    kind: 'price',
    origin,
    symbol,
    t,
    last: 100,
    tier: null,
    delay_min: null,
    recorded_at: t + 5,
  });
  /** October: B's forecast and price; November: A's BTC/USD forecast and price, and B's ETH/USD price. */
  function twoServices(): string {
    const data = tempDir();
    const dir = openJournalDir(data, { create: true })!;
    const lines = (records: JournalRecord[]) => records.map(recordLine).join('');
    writeFileSync(
      join(dir, '2026-10.jsonl'),
      lines([forecastAt(0, { origin: B, ts: OCT }), price(B, 'BTC/USD', OCT)]),
      {
        mode: 0o600,
      },
    );
    writeFileSync(
      join(dir, '2026-11.jsonl'),
      lines([forecastAt(0, { origin: A }), price(A, 'BTC/USD', NOV), price(B, 'ETH/USD', NOV + 60)]),
      { mode: 0o600 },
    );
    return data;
  }
  const run = (data: string, args: string[]) =>
    runCli(['journal', ...args], { env: { FCAST_DATA_DIR: data, FCAST_BASE_URL: undefined } });
  const origins = (jsonl: string) =>
    jsonl
      .trimEnd()
      .split('\n')
      .map((l) => [JSON.parse(l).kind ?? 'row', JSON.parse(l).origin]);

  it('decides the service from the records it would write, as list does from the rows it shows', async () => {
    const data = twoServices();
    const list = await run(data, ['list', '--json', '--since', '2026-11-01']);
    expectExit(list, 0);
    expect(JSON.parse(list.stdout).map((r: any) => r.origin)).toEqual([A]);
    // B's October forecast is not in the selection: it was refused as "2 services" before.
    const rows = await run(data, ['export', '--format', 'jsonl', '--since', '2026-11-01']);
    expectExit(rows, 0);
    expect(rows.stderr).toBe('');
    expect(origins(rows.stdout)).toEqual([['row', A]]);
    // B's ETH/USD price is not of the symbol asked for: prices of A only.
    const withPrices = await run(data, [
      'export',
      '--format',
      'jsonl',
      '--since',
      '2026-11-01',
      '--symbol',
      'BTC/USD',
      '--prices',
    ]);
    expectExit(withPrices, 0);
    expect(origins(withPrices.stdout)).toEqual([
      ['row', A],
      ['price', A],
    ]);
  });

  it('refuses two services among what it would write, saying truly which holds what', async () => {
    const data = twoServices();
    const prices = await run(data, ['export', '--format', 'jsonl', '--since', '2026-11-01', '--prices']);
    expectExit(prices, 2);
    expect(prices.stdout).toBe('');
    expect(prices.stderr).toBe(
      `fcast: the journal holds the records of 2 services (${A}: forecasts and prices; ${B}: prices); fcast does not pool them\n` +
        '  hint: choose one with --origin URL (or unknown), set the base URL, or pool them with --origin all\n',
    );
    const rows = await run(data, ['export', '--format', 'jsonl']);
    expectExit(rows, 2);
    expect(rows.stdout).toBe('');
    expect(rows.stderr).toContain(
      `the journal holds the forecasts of 2 services (${A}, ${B}); fcast does not pool them`,
    );
  });
});
