import { describe, expect, it } from 'vitest';
import type { Writer } from '../../src/core/context.js';
import { Output } from '../../src/output/io.js';
import { displayWidth, renderPairs, renderTable, truncate, wrapIndented, type Column } from '../../src/output/table.js';

function output(opts: { tty: boolean; columns?: number; wide?: boolean; env?: Record<string, string> }): Output {
  const sink: Writer = { write: () => true, isTTY: opts.tty, columns: opts.columns };
  return new Output({ stdout: sink, stderr: sink, stdin: process.stdin }, false, false, {
    wide: opts.wide,
    env: opts.env,
  });
}

const COLUMNS: Column[] = [
  { header: 'Name' },
  { header: 'Keep', align: 'right' },
  { header: 'Later', priority: 1 },
  { header: 'First', priority: 2 },
  { header: 'Also first', priority: 2 },
  { header: 'Hidden', wideOnly: true },
];
const ROWS = [['alpha', '1', 'later-value', 'first-value', 'also-first', 'hidden-value']];
const headerOf = (text: string) => text.split('\n')[0]!.split(/\s{2,}/);

describe('renderTable', () => {
  it('piped: every column and every character, whatever the width', () => {
    const text = renderTable(output({ tty: false, columns: 10 }), COLUMNS, ROWS);
    expect(headerOf(text)).toEqual(['Name', 'Keep', 'Later', 'First', 'Also first', 'Hidden']);
  });

  it('on a terminal: drops the highest priority first, the rightmost among equals, and hides wideOnly', () => {
    const fits = (columns: number) => headerOf(renderTable(output({ tty: true, columns }), COLUMNS, ROWS));
    expect(fits(200)).toEqual(['Name', 'Keep', 'Later', 'First', 'Also first']);
    expect(fits(44)).toEqual(['Name', 'Keep', 'Later', 'First']);
    expect(fits(31)).toEqual(['Name', 'Keep', 'Later']);
    expect(fits(18)).toEqual(['Name', 'Keep']);
  });

  it('a short header is taken only where it spares a column or a cell, never on a wide terminal or piped', () => {
    const columns: Column[] = [
      { header: 'Name' },
      { header: 'Win rate', short: 'Rate', align: 'right', priority: 1 },
      { header: 'Extra', priority: 2 },
      { header: 'Maturity', whole: true },
    ];
    const rows = [['alpha', '47.72%', 'x', 'insufficient_sample']];
    const at = (width: number, tty = true) => renderTable(output({ tty, columns: width }), columns, rows);
    // Name 5 + Win rate 8 + Extra 5 + Maturity 19, with three gaps of 2: 43.
    expect(headerOf(at(43))).toEqual(['Name', 'Win rate', 'Extra', 'Maturity']);
    // One short: the short header, before a column goes (5 + 6 + 5 + 19 + 6 = 41).
    expect(headerOf(at(42))).toEqual(['Name', 'Rate', 'Extra', 'Maturity']);
    // Shorter: Extra goes, and the long header fits again (5 + 8 + 19 + 4 = 36).
    expect(headerOf(at(40))).toEqual(['Name', 'Win rate', 'Maturity']);
    // One short of that: the short header (5 + 6 + 19 + 4 = 34), the values whole.
    expect(at(35).split('\n')).toEqual(['Name     Rate  Maturity', 'alpha  47.72%  insufficient_sample']);
    expect(at(34).split('\n')[1]).toBe('alpha  47.72%  insufficient_sample');
    // Narrower still: the rate goes too before Maturity is cut.
    expect(at(33).split('\n')).toEqual(['Name   Maturity', 'alpha  insufficient_sample']);
    expect(headerOf(at(20, false))).toEqual(['Name', 'Win rate', 'Extra', 'Maturity']);
  });

  it('--wide shows every column on a terminal', () => {
    const text = renderTable(output({ tty: true, columns: 20, wide: true }), COLUMNS, ROWS);
    expect(headerOf(text)).toEqual(['Name', 'Keep', 'Later', 'First', 'Also first', 'Hidden']);
  });

  it('narrows what cannot be dropped, with an ellipsis, so no line is wider than the terminal', () => {
    const long = 'x'.repeat(20_000);
    const out = output({ tty: true, columns: 30 });
    const text = renderTable(
      out,
      [{ header: long }, { header: 'B' }],
      [
        [long, 'short'],
        ['a', 'b'],
      ],
    );
    for (const line of text.split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(30);
    expect(text).toContain('…');
    expect(text.split('\n')[1]).toMatch(/^x+…\s+short$/);
  });

  it('says once, after the output, how many columns a table left out (the most of any table), and that --wide shows them', () => {
    let stderr = '';
    const sink: Writer = { write: () => true, isTTY: true, columns: 20 };
    const err: Writer = {
      write: (t: string) => {
        stderr += t;
        return true;
      },
      isTTY: true,
      columns: 20,
    };
    const out = new Output({ stdout: sink, stderr: err, stdin: process.stdin }, false, false, {});
    renderTable(out, COLUMNS, ROWS);
    renderTable(out, COLUMNS.slice(0, 3), ROWS);
    expect(stderr).toBe('');
    out.leftOutNote();
    out.leftOutNote();
    // Later, First and Also first; Hidden is --wide's by design, not left out to fit.
    expect(stderr).toBe('fcast: 3 columns left out to fit; --wide shows them\n');
    const quiet = output({ tty: true, columns: 200 });
    renderTable(quiet, COLUMNS, ROWS);
    let said = '';
    const none = new Output(
      {
        stdout: sink,
        stderr: {
          write: (t: string) => {
            said += t;
            return true;
          },
        },
        stdin: process.stdin,
      },
      false,
      false,
      {},
    );
    renderTable(none, COLUMNS.slice(0, 2), ROWS);
    none.leftOutNote();
    expect(said).toBe('');
  });

  it('a whole column (a time) keeps every character while another column can be narrowed', () => {
    const cols: Column[] = [{ header: 'Target', whole: true }, { header: 'Status' }];
    const rows = [['2026-11-27 09:00', 'unsettleable-for-a-reason']];
    const text = renderTable(output({ tty: true, columns: 30 }), cols, rows);
    expect(text.split('\n')[1]).toBe('2026-11-27 09:00  unsettleabl…');
    // Without it, the widest column is cut, whatever it holds.
    const cut = renderTable(
      output({ tty: true, columns: 30 }),
      [{ header: 'Target' }, { header: 'Status' }],
      [['2026-11-27 09:00:00 UTC+00', 'short']],
    );
    expect(cut.split('\n')[1]).toBe('2026-11-27 09:00:00 U…  short');
  });

  it('maxWidth cuts long cells on a terminal only', () => {
    const cols: Column[] = [{ header: 'Symbol', maxWidth: 8 }, { header: 'N' }];
    const rows = [['ABCDEFGHIJKL', '1']];
    expect(renderTable(output({ tty: true, columns: 80 }), cols, rows).split('\n')[1]).toBe('ABCDEFG…  1');
    expect(renderTable(output({ tty: false }), cols, rows).split('\n')[1]).toBe('ABCDEFGHIJKL  1');
  });

  it('cleans headers and cells of escape sequences and bidi controls', () => {
    const text = renderTable(
      output({ tty: false }),
      [{ header: '\x1b[31mred\x1b[0m\u202e' }],
      [['\x1b]8;;http://x\x07link\x1b]8;;\x07']],
    );
    expect(text).toBe('red\nlink');
  });

  it('the width comes from stdout, else COLUMNS, else 80', () => {
    expect(output({ tty: true, columns: 61 }).columns).toBe(61);
    expect(output({ tty: true, env: { COLUMNS: '72' } }).columns).toBe(72);
    expect(output({ tty: true, env: { COLUMNS: 'wide' } }).columns).toBe(80);
  });

  it('measures wide characters as two cells, and truncates by cells', () => {
    expect(displayWidth('日本')).toBe(4);
    expect(truncate('日本語テキスト', 5)).toBe('日本…');
    expect(truncate('short', 5)).toBe('short');
  });

  it('renders 20,000 rows, one line each', () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => [`S${i}`, String(i)]);
    const text = renderTable(
      output({ tty: true, columns: 80 }),
      [{ header: 'S' }, { header: 'N', align: 'right' }],
      rows,
    );
    expect(text.split('\n')).toHaveLength(20_001);
  });
});

describe('renderPairs', () => {
  const pairs: Array<[string, string]> = [
    ['Rule', 'close at target_t vs anchor_price; |return| below 0.01% is neutral'],
    ['Id', 'p3'],
  ];

  it('wraps a long value at its column on a narrow terminal, losing none of it', () => {
    const text = renderPairs(output({ tty: true, columns: 30 }), pairs);
    for (const line of text.split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(30);
    expect(text).not.toContain('…');
    expect(text.replace(/\s+/g, ' ')).toContain(pairs[0]![1]);
    expect(
      text
        .split('\n')
        .slice(1, -1)
        .every((l) => l.startsWith(' '.repeat(6))),
    ).toBe(true);
  });

  it('keeps each pair on one line when piped', () => {
    expect(renderPairs(output({ tty: false, columns: 30 }), pairs).split('\n')).toHaveLength(2);
  });
});

describe('wrapIndented', () => {
  it('carries a word longer than the room over after its own separators, each piece within the width', () => {
    const path = '/home/someone/.local/share/fcast/journal/2026-11.jsonl?x=1';
    const text = wrapIndented(`see ${path} now`, 40, 10);
    const lines = text.split('\n');
    for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(40);
    expect(lines.slice(1).every((l) => l.startsWith(' '.repeat(10)) && l[10] !== ' ')).toBe(true);
    expect(lines.length).toBeGreaterThan(2);
    expect(
      lines
        .map((l) => l.trim())
        .join('')
        .replaceAll(' ', ''),
    ).toBe(`see${path}now`);
  });

  it('never breaks a URL: one longer than the room gets a line of its own, from the first column', () => {
    const url = 'http://127.0.0.1:8787/api/agent/v1/predictions.php?symbol=BTC/USD';
    expect(wrapIndented(`see ${url} now`, 40, 10)).toBe(`see\n${url}\n          now`);
    expect(wrapIndented(url, 60, 11)).toBe(url);
    // One that fits the room wraps as a word.
    expect(wrapIndented('see https://a.example/x and more words here', 40, 10)).toBe(
      'see https://a.example/x and\n          more words here',
    );
  });

  it('never cuts http:// nor a key, which has no separator: a word without one stays whole', () => {
    const key = `mfa_ag_${'0123456789'.repeat(4)}`;
    expect(
      wrapIndented(`key ${key}`, 40, 10)
        .split('\n')
        .map((l) => l.trim()),
    ).toEqual(['key', key]);
    expect(wrapIndented('x http://averyveryveryverylonghostname.example', 40, 10)).not.toMatch(/http:\/\/?\n/);
  });
});
