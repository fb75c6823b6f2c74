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
