// TSV is an import format like the others (the contract: "Every import format (CSV, TSV, JSON
// Lines, `-` for stdin) passes the same checks"): `journal export --format tsv` imported back
// into the same journal adds nothing, and into an empty one gives the same records. Before,
// export had no TSV and import read a TSV file as CSV: "no column ..." (exit 2).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
// @ts-expect-error: the bench's generator is plain JavaScript, without types
import { writeJournalExport } from '../../scripts/bench-journal.js';
import { spawnFcast, tempDir } from '../helpers/cli.js';

const summary = (file: string, added: string, there: number) =>
  `read          500 rows of ${file} (tsv)\nadded         ${added}\nalready there ${there}\nskipped       0\n`;

it('journal export --format tsv, imported back: nothing added to itself, the same journal in an empty one', async () => {
  const csv = join(tempDir(), 'in.csv');
  (writeJournalExport as (p: string, n: number, end: number, o: { varied: boolean }) => void)(
    csv,
    500,
    Date.UTC(2026, 10, 1) / 1000,
    { varied: true },
  );
  const a = { FCAST_DATA_DIR: tempDir() };
  expect((await spawnFcast(['journal', 'import', csv], a)).code).toBe(0);
  const exported = await spawnFcast(['journal', 'export', '--format', 'tsv'], a);
  expect(exported.code, exported.stderr).toBe(0);
  expect(exported.stdout.split('\n')[0]).toMatch(/^symbol\ttf\tts\thorizon_min\t/);
  const tsv = join(tempDir(), 'out.tsv');
  writeFileSync(tsv, exported.stdout);

  const again = await spawnFcast(['journal', 'import', tsv], a);
  expect(again.code, again.stderr).toBe(0);
  expect(again.stderr).toBe('');
  expect(again.stdout).toBe(summary(tsv, '0 forecasts, 0 settlements, 0 prices', 500));

  const b = { FCAST_DATA_DIR: tempDir() };
  const fresh = await spawnFcast(['journal', 'import', '-'], b, { stdin: readFileSync(tsv, 'utf8') });
  expect(fresh.code, fresh.stderr).toBe(0);
  expect(fresh.stderr).toBe('');
  expect(fresh.stdout).toBe(summary('stdin', '500 forecasts, 468 settlements, 0 prices', 0));
  const [ja, jb, tb] = await Promise.all([
    spawnFcast(['journal', 'export', '--format', 'jsonl'], a),
    spawnFcast(['journal', 'export', '--format', 'jsonl'], b),
    spawnFcast(['journal', 'export', '--format', 'tsv'], b),
  ]);
  expect(jb.stdout).toBe(ja.stdout);
  expect(tb.stdout).toBe(exported.stdout);
}, 60_000);
