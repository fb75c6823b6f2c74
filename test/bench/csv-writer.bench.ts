// The project's CSV writer against csv-stringify told the same rules (test/helpers/csv-oracle.ts),
// over 20,000 rows: why src/output/formats/delimited.ts is written by hand. Run by `npm run bench`
// (after the whole-process cases), or alone: `npx vitest bench --run test/bench`.
import { bench, describe, expect } from 'vitest';
import { type Cell, renderDelimited } from '../../src/output/formats/delimited.js';
import { csvStringify } from '../helpers/csv-oracle.js';

const header = [
  'symbol',
  'tf',
  'ts',
  'ts_iso',
  'direction',
  'ia3.p_long',
  'move_pct',
  'price',
  'note',
  'ok',
  'x',
  'source',
];
const rows: Cell[][] = Array.from({ length: 20_000 }, (_, i) => [
  `SYM${i}/USD`,
  '1h',
  1_764_000_000 + i,
  '2026-11-24T19:00:00Z',
  i % 2 ? 'long' : 'short',
  { number: '0.5123' },
  -0.19,
  { number: '91234.50' },
  i % 7 ? 'plain text' : '=HYPERLINK("x", "y")',
  true,
  null,
  'Market Forecast Agent API · delayed 60 min',
]);

// Both must write the same bytes, or the comparison means nothing.
expect(renderDelimited('csv', header, rows)).toBe(csvStringify(header, rows));

describe('CSV of 20,000 rows x 12 cells', () => {
  bench('fcast (src/output/formats/delimited.ts)', () => {
    renderDelimited('csv', header, rows);
  });
  bench('csv-stringify, told the same rules', () => {
    csvStringify(header, rows);
  });
});
