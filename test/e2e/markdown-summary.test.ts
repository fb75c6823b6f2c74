// In --format markdown and the step summary, server text is text, not markup: rendered by a
// CommonMark parser (markdown-it, with GFM tables, raw HTML and linkify on, as GitHub), a
// document made from a hostile server's answers has exactly the elements of the one made from
// the emulator's own, and the hostile text shows as sent.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import MarkdownIt from 'markdown-it';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectExit, runCli, tempDir } from '../helpers/cli.js';
import { FIXED_NOW, useEmulator } from '../helpers/emulator.js';
import { rewriteStrings, serveForwarding, type TamperedServer } from '../helpers/tampered.js';

const emu = useEmulator();
const md = new MarkdownIt({ html: true, linkify: true });

const PAYLOAD =
  '<details open><img src="https://evil.example/pixel.png"> [renew your key](https://evil.example/phish) ' +
  '![x](https://evil.example/x.png) <https://evil.example> *em* _em_ `code` ~~s~~ &amp; $x$ :smile:\n- item\n# h';

/** Free-text fields a renderer shows as they are (the schemas' enums left alone: an off-shape body gets the generic renderer). */
const SHOWN = new Set(['disclaimer', 'source', 'tier', 'id']);

let hostile: TamperedServer;
beforeAll(async () => {
  hostile = await serveForwarding(emu.server.url, (body) =>
    rewriteStrings(body, (text, key) => (SHOWN.has(key) ? `${PAYLOAD} ${text}` : text)),
  );
});
afterAll(async () => {
  await hostile?.close();
});

/** Every token of the rendering, nested ones in order, by type (and tag for html). */
function elements(markdown: string): string[] {
  const types: string[] = [];
  const walk = (tokens: ReturnType<typeof md.parse>) => {
    for (const t of tokens) {
      if (t.type !== 'text' && t.type !== 'text_special') types.push(t.type);
      if (t.children) walk(t.children);
    }
  };
  walk(md.parse(markdown, {}));
  return types;
}

async function run(argv: string[], base: string) {
  const dir = tempDir();
  const summary = join(dir, 'summary.md');
  const r = await runCli(argv, {
    now: FIXED_NOW,
    env: { FCAST_BASE_URL: base, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary },
  });
  let written = '';
  try {
    written = readFileSync(summary, 'utf8');
  } catch {
    // no summary
  }
  return { ...r, summary: written };
}

describe('Markdown from server text', () => {
  it.each([
    [['track-record', '--format', 'markdown']],
    [['accuracy', '--tf', '1h', '--format', 'markdown']],
    [['accuracy', '--tf', '1h', '--min-settled', '100000']],
    [['track-record', '--min-settled', '100000', '--format', 'csv']],
  ])('%j: the same elements as from the emulator, the payload shown as sent', async (argv) => {
    const plain = await run(argv, emu.server.url);
    const evil = await run(argv, hostile.url);
    expect(evil.code).toBe(plain.code);
    const documents = argv.includes('markdown') ? [[plain.stdout, evil.stdout]] : [];
    if (argv.includes('--min-settled')) documents.push([plain.summary, evil.summary]);
    expect(documents.length).toBeGreaterThan(0);
    for (const [ours, theirs] of documents) {
      expect(theirs).toContain('evil.example');
      expect(elements(theirs!)).toEqual(elements(ours!));
      const html = md.render(theirs!);
      expect(html).not.toMatch(/<(details|img|a|code|em|s|h1)\b/);
      expect(html).toContain(
        '&lt;details open&gt;&lt;img src=&quot;https://evil.example/pixel.png&quot;&gt; [renew your key](https://evil.example/phish)',
      );
    }
  });

  it('before: the same document with the old escaping made elements (the check can fail)', () => {
    const old = (s: string) => s.replace(/\n/g, ' ').replace(/[\\|]/g, '\\$&');
    expect(elements(`Source: ${old(PAYLOAD)}`)).toContain('html_inline');
    expect(elements(`Source: ${old(PAYLOAD)}`)).toContain('link_open');
  });
});

describe('journal report --format markdown', () => {
  it('a recorded forecast of a hostile server: no element the server made', async () => {
    const data = tempDir();
    const env = { FCAST_BASE_URL: hostile.url, FCAST_API_KEY: emu.server.testKey, FCAST_DATA_DIR: data };
    expectExit(await runCli(['predict', 'BTC/USD', '--record'], { now: FIXED_NOW, env }), 0);
    const r = await runCli(['journal', 'report', '--format', 'markdown'], { now: FIXED_NOW, env });
    expectExit(r, 0);
    expect(r.stdout).toContain('evil.example');
    expect(md.render(r.stdout)).not.toMatch(/<(details|img|a|code|em|s|h1)\b/);
  });
});

/** The text of each cell of each table of a Markdown document, as a reader sees it. */
function tableCells(markdown: string): string[][][] {
  const tables: string[][][] = [];
  let row: string[] | undefined;
  let inCell = false;
  for (const t of md.parse(markdown, {})) {
    if (t.type === 'table_open') tables.push([]);
    else if (t.type === 'tr_open') row = [];
    else if (t.type === 'tr_close') tables.at(-1)!.push(row!);
    else if (t.type === 'th_open' || t.type === 'td_open') inCell = true;
    else if (t.type === 'th_close' || t.type === 'td_close') inCell = false;
    else if (inCell && t.type === 'inline')
      row!.push(
        (t.children ?? [])
          .filter((c) => c.type === 'text' || c.type === 'text_special')
          .map((c) => c.content)
          .join(''),
      );
  }
  return tables;
}

/** A piped table's header and rows, its cells split where two spaces or more part them. */
const pipedCells = (text: string): string[][] =>
  text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => l.trim().split(/\s{2,}/));

describe('--format markdown of every table view', () => {
  // Text a table shows in its cells: a timeframe, a symbol (symbols' first column), an engine's label.
  const CELLS = new Set(['tf', 'symbol', 'label_raw']);
  let cellHostile: TamperedServer;
  const data = tempDir();
  beforeAll(async () => {
    cellHostile = await serveForwarding(emu.server.url, (body) =>
      rewriteStrings(body, (text, key) => (CELLS.has(key) || SHOWN.has(key) ? `${PAYLOAD} ${text}` : text)),
    );
    // A journal of each: `journal list` shows the records of the service it is pointed at.
    for (const base of [emu.server.url, cellHostile.url]) {
      const env = { FCAST_BASE_URL: base, FCAST_API_KEY: emu.server.testKey, FCAST_DATA_DIR: data };
      expectExit(await runCli(['predict', 'BTC/USD', '--record'], { now: FIXED_NOW, env }), 0);
    }
  });
  afterAll(async () => {
    await cellHostile?.close();
  });

  const VIEWS: Array<[argv: string[], piped: boolean]> = [
    [['predict', 'BTC/USD'], true],
    [['predict', 'BTC/USD', 'ETH/USD'], false],
    [['demo'], true],
    [['symbols'], true],
    [['verify', '1'], false],
    [['cmd', 'macro'], false],
    [['cmd', 'search', 'BTC'], false],
    [['discover'], false],
    [['journal', 'list'], false],
    [['config', 'list'], false],
  ];
  const runOn = (argv: string[], base: string, extra: string[] = []) =>
    runCli([...argv, ...extra], {
      now: FIXED_NOW,
      env: { FCAST_BASE_URL: base, FCAST_API_KEY: emu.server.testKey, FCAST_DATA_DIR: data },
    });

  it.each(VIEWS)(
    '%j: a Markdown table of the cells shown, the attribution, no element the server made',
    async (argv, piped) => {
      const plain = await runOn(argv, emu.server.url, ['--format', 'markdown']);
      expectExit(plain, 0);
      const tables = tableCells(plain.stdout);
      expect(tables.length, plain.stdout).toBeGreaterThan(0);
      for (const table of tables) {
        expect(table.length).toBeGreaterThan(1);
        for (const row of table) expect(row).toHaveLength(table[0]!.length);
      }
      // The same cells as the table on a terminal (piped: every column).
      if (piped) {
        const table = await runOn(argv, emu.server.url);
        const rows = pipedCells(table.stdout).filter((cells) => cells.length === tables[0]![0]!.length);
        expect(tables[0]).toEqual(rows.slice(0, tables[0]!.length));
      }
      // The attribution, where the body carries it: the last lines, as the table ends.
      if (/^Source: /m.test((await runOn(argv, emu.server.url)).stdout))
        expect(md.render(plain.stdout)).toMatch(/Source: .*\n?.*Tier: \w+ · data delayed \d+ min/);

      const evil = await runOn(argv, cellHostile.url, ['--format', 'markdown']);
      expectExit(evil, 0);
      expect(elements(evil.stdout)).toEqual(elements(plain.stdout));
      expect(md.render(evil.stdout)).not.toMatch(/<(details|img|a|code|em|s|h1)\b/);
    },
  );

  it('a cell holding markup renders as the characters sent', async () => {
    const r = await runOn(['symbols'], cellHostile.url, ['--format', 'markdown']);
    const cells = tableCells(r.stdout).flat(2);
    const sent = PAYLOAD.replace(/\n/g, ' ');
    expect(
      cells.some((cell) => cell.startsWith(`${sent} `)),
      cells.join('\n'),
    ).toBe(true);
  });
});
