// Property tests of --format csv|tsv: any body, realistic or hostile, gives a table whose CSV
// and TSV parse back (csv-parse) to the same number of rows and columns and to the same cells,
// as the writer promises them (server text cleaned, a formula-like text cell prefixed with '
// in CSV, TSV's escapes undone); and through main() against a loopback server, never exit 1
// and never a ragged table. Half of RUNS (harness.ts) for the records (a forecast body with
// candles, or 30 symbols × 22 timeframes, is a large table to compare cell by cell); a fifth
// of RUNS through main().
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nestsDeeperThan } from '../../src/core/values.js';
import { type Cell, renderDelimited } from '../../src/output/formats/delimited.js';
import type { RecordTable } from '../../src/output/formats/records.js';
import { GATEWAY_LISTS } from '../../src/output/formats/gateway-lists.js';
import {
  forecastTable,
  gatewayTable,
  symbolsTable,
  trackRecordTable,
  verifyTable,
} from '../../src/output/formats/tables.js';
import { cleanBlock } from '../../src/output/sanitize.js';
import { tempDir } from '../helpers/cli.js';
import {
  bodyOf,
  type BodyServer,
  collectBodies,
  FUZZ_PARAMS,
  type Resource,
  REST_KEY,
  RUNS,
  startBodyServer,
} from './harness.js';
import { runCli } from '../helpers/cli.js';
import { csvStringify } from '../helpers/csv-oracle.js';
import { FIXED_NOW } from '../helpers/emulator.js';

const corpus = await collectBodies();
const TIMEOUT = Math.max(120_000, RUNS * 200);

/** The resources with a table of records, each command's table builder, and the command that prints it. */
const TABLES: Array<[Resource, (raw: string, pick: number) => RecordTable, (pick: number) => string[]]> = [
  ['forecast', (raw) => forecastTable([raw, raw]), () => ['predict', 'BTC/USD', 'ETH/USD']],
  ['track record', (raw) => trackRecordTable(raw), () => ['accuracy', '--tf', '1h']],
  ['symbols', (raw) => symbolsTable(raw), () => ['symbols']],
  ['verify', (raw) => verifyTable(raw), () => ['verify', '1']],
  [
    'gateway',
    (raw, pick) => gatewayTable(GATEWAY_NAMES[pick % GATEWAY_NAMES.length]!, raw),
    (pick) => {
      const name = GATEWAY_NAMES[pick % GATEWAY_NAMES.length]!;
      return ['cmd', name, ...(GATEWAY_ARGS[name] ?? [])];
    },
  ],
];
const GATEWAY_NAMES = Object.keys(GATEWAY_LISTS);
/** The arguments each list command requires. */
const GATEWAY_ARGS: Record<string, string[]> = {
  search: ['btc'],
  opportunities: ['5'],
  calendar: ['EUR/USD'],
  events: ['earnings'],
};

/** Text that a delimited writer must quote or escape: separators, quotes, backslashes, formula starts. */
const trickyText = fc.string({
  unit: fc.constantFrom(',', '"', '\t', '\n', '\r', '\\', 'n', 't', '=', '+', '-', '@', "'", ' ', 'a', '\uff1d'),
  maxLength: 8,
});

/** Every text of the body (keys too) with tricky text put before it. */
function withTricky(value: unknown, tricky: string): unknown {
  if (typeof value === 'string') return tricky + value;
  if (Array.isArray(value)) return value.map((v) => withTricky(v, tricky));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [tricky + k, withTricky(v, tricky)]));
  return value;
}

/** A body of the corpus, mutated, and half the time with tricky text in all its texts. */
const anyBody = (resource: Resource) =>
  fc
    .tuple(bodyOf(corpus[resource]), fc.option(trickyText, { freq: 2 }))
    .map(([body, tricky]) => (tricky === null ? body : withTricky(body, tricky)));

/** What a cell reads as once written and parsed back: text cleaned (and prefixed in CSV), numbers as their text. */
function expectedText(cell: Cell, format: 'csv' | 'tsv'): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'object') return cell.number;
  if (typeof cell !== 'string') return String(cell);
  const text = cleanBlock(cell);
  // A formula-like start as sent or as cleaned (a leading CR becomes a line break when cleaned).
  const formula = /^[=+\-@\t\r\uff1d\uff0b\uff0d\uff20]/;
  return format === 'csv' && (formula.test(cell) || formula.test(text)) ? `'${text}` : text;
}

const unescapeTsv = (s: string) => s.replace(/\\([tn\\])/g, (_, c: string) => ({ t: '\t', n: '\n', '\\': '\\' })[c]!);

function parsed(text: string, format: 'csv' | 'tsv'): string[][] {
  if (format === 'csv') return parse(text, { relax_column_count: false });
  return (parse(text, { delimiter: '\t', quote: false, relax_column_count: false }) as string[][]).map((row) =>
    row.map(unescapeTsv),
  );
}

/** Any cell a table can hold: text of every kind (controls, formula starts, quotes), numbers, numbers as sent. */
const anyCell: fc.Arbitrary<Cell> = fc.oneof(
  fc.string({ unit: 'binary' }),
  trickyText,
  fc.double(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc
    .oneof(fc.double().map(String), trickyText, fc.constantFrom('1.50', '-0.19', '1E+2', '12345678901234567890'))
    .map((number) => ({ number })),
);

describe('the CSV writer', () => {
  it('writes the bytes csv-stringify writes when told the same rules', () => {
    fc.assert(
      fc.property(fc.array(fc.array(anyCell, { minLength: 3, maxLength: 3 }), { maxLength: 6 }), (rows) => {
        const header = ['a', '=b', 'c,d'];
        expect(renderDelimited('csv', header, rows)).toBe(csvStringify(header, rows));
      }),
      { ...FUZZ_PARAMS, numRuns: RUNS },
    );
  });
});

describe.each(TABLES)('any %s body', (resource, build, argv) => {
  it(
    'renders to CSV and TSV that parse back to the same rows, columns and cells',
    () => {
      fc.assert(
        fc.property(anyBody(resource), fc.nat(), (body, pick) => {
          // The client refuses a body nested deeper than 64 levels (exit 7) before any rendering.
          fc.pre(!nestsDeeperThan(body));
          const table = build(JSON.stringify(body), pick);
          for (const row of table.rows) expect(row).toHaveLength(table.header.length);
          expect(new Set(table.header).size).toBe(table.header.length);
          expect(table.header.at(-1)).toBe('source');
          for (const format of ['csv', 'tsv'] as const) {
            const back = parsed(renderDelimited(format, table.header, table.rows), format);
            expect(back).toHaveLength(table.rows.length + 1);
            expect(back).toEqual(
              [table.header, ...table.rows].map((row) => row.map((cell) => expectedText(cell, format))),
            );
          }
        }),
        { ...FUZZ_PARAMS, numRuns: Math.max(50, Math.round(RUNS / 2)) },
      );
    },
    TIMEOUT,
  );

  it(
    'through main(): never exit 1; what is printed parses with every row as long as the header',
    async () => {
      const server: BodyServer = await startBodyServer();
      const configDir = tempDir('fcast-fuzz-');
      try {
        await fc.assert(
          fc.asyncProperty(
            bodyOf(corpus[resource]),
            fc.constantFrom('csv' as const, 'tsv' as const),
            fc.nat(),
            async (body, format, pick) => {
              server.serve(200, JSON.stringify(body));
              const r = await runCli([...argv(pick), '--format', format], {
                now: FIXED_NOW,
                configDir,
                env: { FCAST_BASE_URL: server.url, FCAST_API_KEY: REST_KEY, FCAST_RETRIES: '0' },
              });
              expect(r.code, r.stderr).not.toBe(1);
              if (r.stdout === '') return;
              const rows = parsed(r.stdout, format);
              expect(rows[0]!.at(-1)).toBe('source');
              // Nothing but data: no terminal control, whatever the server sent.
              expect(r.stdout).not.toMatch(
                /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/,
              );
            },
          ),
          { ...FUZZ_PARAMS, numRuns: Math.max(50, Math.round(RUNS / 5)) },
        );
      } finally {
        await server.close();
      }
    },
    TIMEOUT,
  );
});
