// What a journal command does with damaged input (an import file, a journal line edited by
// hand, an index.json gone wrong): the bad part is skipped and counted or rebuilt, never exit 1.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectExit, runCli, tempDir } from '../helpers/cli.js';

const TS = Date.UTC(2026, 10, 22, 12) / 1000;

/** A row of `journal export --format jsonl`: an open forecast. */
const row = (ts = TS) => ({
  symbol: 'BTC/USD',
  tf: '1h',
  ts,
  horizon_min: 60,
  target_t: ts + 3600,
  anchor_price: 100,
  target_price: 101,
  direction: 'long',
  p_long: 0.6,
  p_short: 0.3,
  p_flat: 0.1,
  status: 'open',
  settle_price: null,
  settle_t: null,
  settle_source: null,
  return_pct: null,
  outcome: null,
  recorded_at: ts + 10,
});

const journal = (argv: string[], data: string) => runCli(['journal', ...argv], { env: { FCAST_DATA_DIR: data } });

describe('journal import of damaged rows', () => {
  it('skips a JSON Lines line that is not an object (null, a number, a string, an array) and counts it', async () => {
    const file = join(tempDir(), 'export.jsonl');
    writeFileSync(file, [JSON.stringify(row()), 'null', '5', '"text"', '[]', 'true'].join('\n'));
    const data = tempDir();
    const r = await journal(['import', file, '--json'], data);
    expectExit(r, 0);
    expect(JSON.parse(r.stdout)).toMatchObject({ rows: 6, forecasts: 1, skipped: 5 });
    expect(r.stderr).toContain(`${file}:2: row skipped: not an object`);
  });
});
