// What a journal command does with damaged input (an import file, a journal line edited by
// hand, an index.json gone wrong): the bad part is skipped and counted or rebuilt, never exit 1.
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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

/** A CSV export of `rows`, as `journal export` writes open forecasts (no cell needs quotes). */
const csvOf = (rows: Array<Record<string, unknown>>) => {
  const header = Object.keys(row());
  const cells = (r: Record<string, unknown>) => header.map((c) => (r[c] === null ? '' : String(r[c]))).join(',');
  return `${[header.join(','), ...rows.map(cells)].join('\n')}\n`;
};

describe('a CSV row whose quoted cell is never closed', () => {
  it('is one skipped row: the rows before it are imported, and counted as read', async () => {
    const file = join(tempDir(), 'stray-quote.csv');
    writeFileSync(file, `${csvOf([row()])}"BTC/USD,1h,${TS + 60}\n`);
    const data = tempDir();
    const r = await journal(['import', file, '--json'], data);
    expectExit(r, 0);
    expect(JSON.parse(r.stdout)).toMatchObject({ rows: 2, forecasts: 1, skipped: 1 });
    expect(r.stderr).toBe(`warning: ${file}:3: row skipped: a quoted cell is never closed\n`);
    expect(JSON.parse((await journal(['list', '--json'], data)).stdout)).toHaveLength(1);
  });

  it('takes the rest of the file into that row in one pass, not a rescan of it per line', async () => {
    // 60,000 lines after the stray quote: each rescanning all before it took minutes (40,000: 46 s).
    const file = join(tempDir(), 'stray-quote-early.csv');
    const after = Array.from({ length: 60_000 }, (_, i) => row(TS + 60 * (i + 2)));
    writeFileSync(file, `${csvOf([row()])}"BTC/USD,1h,${TS + 60}\n${csvOf(after).slice(csvOf([]).length)}`);
    const r = await journal(['import', file, '--json'], tempDir());
    expectExit(r, 0);
    expect(JSON.parse(r.stdout)).toMatchObject({ rows: 2, forecasts: 1, skipped: 1 });
  }, 15_000);
});

describe('a time no date can hold (past the year 9999)', () => {
  it('in an import, CSV or JSON Lines, is a skipped row naming the field', async () => {
    const header = Object.keys(row());
    // A good row first, then the bad one: the file is an export, and the bad row is skipped alone.
    const cells = (r: Record<string, unknown>) => header.map((c) => (r[c] === null ? '' : String(r[c]))).join(',');
    const csvOf = (r: Record<string, unknown>) => `${header.join(',')}\n${cells(row())}\n${cells(r)}\n`;
    const jsonlOf = (r: Record<string, unknown>) => `${JSON.stringify(row())}\n${JSON.stringify(r)}\n`;
    const cases: Array<[string, string, string]> = [
      ['ts.csv', csvOf(row(99_999_999_999_999)), 'bad ts, target_t, recorded_at'],
      ['target.csv', csvOf({ ...row(), target_t: 1e13 }), 'bad target_t'],
      ['ts.jsonl', jsonlOf(row(99_999_999_999_999)), 'bad ts, target_t, recorded_at'],
      [
        'settle.jsonl',
        jsonlOf({ ...row(), status: 'settled', settle_price: 101, settle_t: 1e13, settle_source: 'price' }),
        'a settled row needs settle_price, settle_t and settle_source (candles or price)',
      ],
    ];
    for (const [name, text, error] of cases) {
      const file = join(tempDir(), name);
      writeFileSync(file, text);
      const r = await journal(['import', file, '--json'], tempDir());
      expectExit(r, 0);
      expect(JSON.parse(r.stdout)).toMatchObject({ rows: 2, forecasts: 1, skipped: 1 });
      expect(r.stderr).toContain(`${file}:${name.endsWith('.csv') ? 3 : 2}: row skipped: ${error}`);
    }
    // A file of that one bad row imports nothing: exit 2, the row's line and error in the one line.
    const only = join(tempDir(), 'only.jsonl');
    writeFileSync(only, JSON.stringify(row(99_999_999_999_999)));
    const r = await journal(['import', only], tempDir());
    expectExit(r, 2);
    expect(r.stderr).toContain(
      `nothing imported from ${only}: none of its 1 row(s) could be read (line 1: bad ts, target_t, recorded_at)`,
    );
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

describe('bad input to the journal commands', () => {
  it('each gets one clear line (and a hint), exit 2, nothing on stdout, and leaves the journal alone', async () => {
    const data = tempDir();
    const dir = tempDir();
    const file = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    mkdirSync(join(dir, 'a-directory'));
    const cases: Array<[string[], RegExp]> = [
      [['import', join(dir, 'missing.csv')], /^cannot read .*missing\.csv: no such file \(ENOENT\)$/],
      [['import', join(dir, 'a-directory')], /^cannot read .*a-directory: not a regular file$/],
      [['import', fifo], /^cannot read .*fifo: not a regular file$/],
      [
        ['import', file('other.csv', 'name,email\nA,a@example.org\n')],
        /^.*other\.csv is not a journal export: its first line is not a header with the export's columns$/,
      ],
      [
        ['import', file('some.csv', 'symbol,tf,ts\nBTC/USD,1h,1\n')],
        /^.*some\.csv is not a journal export: no column horizon_min, target_t, .*recorded_at$/,
      ],
      [
        ['import', file('other.jsonl', '{"name":"A"}\n{"name":"B"}\n')],
        /^nothing imported from .*other\.jsonl: none of its 2 row\(s\) could be read \(line 1: none of the export's columns\)$/,
      ],
      [
        ['import', file('garbled.jsonl', '{"symbol":\nnot json\n')],
        /^nothing imported from .*garbled\.jsonl: none of its 2 row\(s\) could be read \(line 1: not JSON\)$/,
      ],
      [['list', '--since', 'yesterday'], /^--since must be an ISO 8601 time like 2026-11-24 .* got 'yesterday'$/],
      [['report', '--until', '2026-02-30'], /^--until must be an ISO 8601 time .* got '2026-02-30'$/],
      [['prune', '--before', 'soon'], /^--before must be an ISO 8601 time .* got 'soon'$/],
      [
        ['export', '--since', '2026-11-21', '--until', '2026-11-20'],
        /^--since \(2026-11-21T00:00:00Z\) must be before --until \(2026-11-20T00:00:00Z\)/,
      ],
      [['report', '--bins', '0'], /^--bins must be a whole number from 1 to 100, got '0'$/],
      [['report', '--bins', '101'], /^--bins must be a whole number from 1 to 100, got '101'$/],
      [['report', '--flat-band', '-1'], /^--flat-band must be a percentage from 0 to 100/],
      [['report', '--min-hit-rate', '1.5'], /^--min-hit-rate must be a number from 0 to 1, got '1\.5'$/],
      [['list', '--status', 'closed'], /^invalid --status 'closed'; choose one of open, settled, unsettleable$/],
      [
        ['export', '--format', 'json'],
        /^journal export gives --format csv, tsv or jsonl, not 'json'; did you mean jsonl\?$/,
      ],
    ];
    for (const [argv, message] of cases) {
      const r = await journal(argv, data);
      expectExit(r, 2);
      expect(r.stdout, argv.join(' ')).toBe('');
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines, argv.join(' ')).toHaveLength(2);
      expect(lines[0], argv.join(' ')).toMatch(/^fcast: /);
      expect(lines[0]!.slice('fcast: '.length), argv.join(' ')).toMatch(message);
      expect(lines[1], argv.join(' ')).toMatch(/^ {2}hint: /);
    }
    expect(existsSync(join(data, 'journal', '2026-11.jsonl'))).toBe(false);
  });
});
