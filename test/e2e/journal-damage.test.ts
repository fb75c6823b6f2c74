// What a journal command does with damaged input (an import file, a journal line edited by
// hand, an index.json gone wrong): the bad part is skipped and counted or rebuilt, never exit 1.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectExit, runCli, tempDir } from '../helpers/cli.js';
import { exportRow } from '../helpers/journal-rows.js';

const TS = Date.UTC(2026, 10, 22, 12) / 1000;

/** An open forecast, as the export writes it. */
const row = (ts = TS) => exportRow(ts);

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

describe('a time no date can hold (past the year 9999)', () => {
  it('in an import, CSV or JSON Lines, is a skipped row naming the field', async () => {
    const header = Object.keys(row());
    const csvOf = (r: Record<string, unknown>) =>
      `${header.join(',')}\n${header.map((c) => (r[c] === null ? '' : String(r[c]))).join(',')}\n`;
    const cases: Array<[string, string, string]> = [
      ['ts.csv', csvOf(row(99_999_999_999_999)), 'bad ts, target_t, recorded_at'],
      ['target.csv', csvOf({ ...row(), target_t: 1e13 }), 'bad target_t'],
      ['ts.jsonl', JSON.stringify(row(99_999_999_999_999)), 'bad ts, target_t, recorded_at'],
      [
        'settle.jsonl',
        JSON.stringify({ ...row(), status: 'settled', settle_price: 101, settle_t: 1e13, settle_source: 'price' }),
        'a settled row needs settle_price, settle_t and settle_source (candles or price)',
      ],
    ];
    for (const [name, text, error] of cases) {
      const file = join(tempDir(), name);
      writeFileSync(file, text);
      const r = await journal(['import', file, '--json'], tempDir());
      expectExit(r, 0);
      expect(JSON.parse(r.stdout)).toMatchObject({ rows: 1, forecasts: 0, skipped: 1 });
      expect(r.stderr).toContain(`${file}:${name.endsWith('.csv') ? 2 : 1}: row skipped: ${error}`);
    }
  });

  it('in a journal line edited by hand, is a damaged line: list, its CSV, export and report skip it', async () => {
    const data = tempDir();
    const file = join(tempDir(), 'one.jsonl');
    writeFileSync(file, JSON.stringify(row()));
    expectExit(await journal(['import', file], data), 0);
    const month = join(data, 'journal', '2026-11.jsonl');
    const good = readFileSync(month, 'utf8');
    const line = good.trimEnd();
    const edited = [
      line.replace(`"ts":${TS}`, '"ts":1e13'),
      line.replace(`"ts":${TS}`, '"ts":10000000000000'),
      line.replace(`"target_t":${TS + 3600}`, '"target_t":1e13'),
      line.replace(`"recorded_at":${TS + 10}`, '"recorded_at":-1e13'),
      line.replace('"server_t":null', '"server_t":1e13'),
    ];
    for (const e of edited) expect(e).not.toBe(line);
    writeFileSync(month, `${good}${edited.join('\n')}\n`);
    for (const argv of [
      ['list'],
      ['list', '--format', 'csv'],
      ['list', '--format', 'tsv'],
      ['list', '--json'],
      ['export'],
      ['export', '--format', 'jsonl'],
    ]) {
      const r = await journal(argv, data);
      expectExit(r, 0);
      expect(r.stderr, argv.join(' ')).toContain(`journal: ${edited.length} damaged line(s) skipped`);
    }
    // The report reads of a forecast line its key alone (lines.ts's fast path): the lines whose ts no date can hold.
    const report = await journal(['report', '--offline', '--json'], data);
    expectExit(report, 0);
    expect(report.stderr).toContain('journal: 2 damaged line(s) skipped');
    const list = JSON.parse((await journal(['list', '--json'], data)).stdout);
    expect(list.map((x: any) => x.ts)).toEqual([TS]);
  });
});

describe('an index.json of valid JSON with a bad entry', () => {
  it('is rebuilt: import works, and works again', async () => {
    const data = tempDir();
    const file = join(tempDir(), 'one.jsonl');
    writeFileSync(file, JSON.stringify(row()));
    expectExit(await journal(['import', file], data), 0);
    const index = join(data, 'journal', 'index.json');
    writeFileSync(index, JSON.stringify({ ...JSON.parse(readFileSync(index, 'utf8')), series: { x: null } }));
    writeFileSync(file, [row(), row(TS + 3600)].map((r) => JSON.stringify(r)).join('\n'));
    const r = await journal(['import', file, '--json'], data);
    expectExit(r, 0);
    expect(JSON.parse(r.stdout)).toMatchObject({ forecasts: 1, duplicates: 1 });
    expect(JSON.parse(readFileSync(index, 'utf8')).series).not.toHaveProperty('x');
  });
});

describe('a torn last line (a write cut short by a crash)', () => {
  it('is skipped by every reader with one warning, never fatal; once the next write ends it, it is a damaged line', async () => {
    const data = tempDir();
    const file = join(tempDir(), 'two.jsonl');
    writeFileSync(file, [row(), row(TS + 60)].map((r) => JSON.stringify(r)).join('\n'));
    expectExit(await journal(['import', file], data), 0);
    const month = join(data, 'journal', '2026-11.jsonl');
    const whole = readFileSync(month, 'utf8');
    appendFileSync(month, whole.split('\n')[0]!.slice(0, 80));
    const warning =
      'warning: journal: the last line of a month file is incomplete, skipped (a write cut short by a crash, or one in progress); the next recording ends it';
    for (const argv of [
      ['list'],
      ['list', '--json'],
      ['list', '--format', 'csv'],
      ['export'],
      ['export', '--format', 'jsonl'],
      ['report', '--offline'],
      ['report', '--offline', '--json'],
    ]) {
      const r = await journal(argv, data);
      expectExit(r, 0);
      expect(r.stderr, argv.join(' ')).toBe(`${warning}\n`);
    }
    expect(JSON.parse((await journal(['list', '--json'], data)).stdout)).toHaveLength(2);
    // The next write ends the line: from then on it is one damaged line, and said so.
    writeFileSync(file, JSON.stringify(row(TS + 120)));
    expectExit(await journal(['import', file], data), 0);
    const r = await journal(['list', '--json'], data);
    expectExit(r, 0);
    expect(JSON.parse(r.stdout)).toHaveLength(3);
    expect(r.stderr).toBe(
      'warning: journal: 1 damaged line(s) skipped (a write cut short by a crash, or an edit by hand)\n',
    );
  });
});
