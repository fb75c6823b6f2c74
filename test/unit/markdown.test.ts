// Server text in Markdown renders as the characters sent: rendered by markdown-it (CommonMark
// with GFM tables and strikethrough, raw HTML on and bare URLs linked, as GitHub does), no
// element but the document's own appears, and the text is the text sent.
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { markdownLine, markdownText } from '../../src/output/markdown.js';
import { clean } from '../../src/output/sanitize.js';

const md = new MarkdownIt({ html: true, linkify: true });

const escapeHtml = (s: string) =>
  s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

const HOSTILE = [
  '<details open><summary>x</summary>',
  '<img src="https://evil.example/pixel.png">',
  '[renew your key](https://evil.example/phish)',
  '![pixel](https://evil.example/p.png)',
  '<https://evil.example/auto>',
  'https://evil.example/bare and www.evil.example',
  '*em* _em_ **strong** __strong__ ~~gone~~ `code` ``co`de``',
  '&lt;b&gt; &amp; &#60;',
  '# heading',
  '- item',
  '+ item',
  '1. item',
  '12) item',
  '> quote',
  '---',
  '===',
  '    indented code',
  '```js',
  '~~~',
  '[ref]: https://evil.example',
  'a | b || c \\| d',
  'line one\nline two\r\n| x | y |',
  'trailing\\',
  'hard  ',
  '$x^2$ and $$y$$',
  ':smile: :+1:',
  'back\\slash \\* \\[',
  '<!-- comment -->',
  'x<br>y',
  'write to evil@example.com or mailto:evil@example.com',
];

describe('markdownText', () => {
  it.each(HOSTILE)('%j renders as the characters sent, in a paragraph', (text) => {
    const shown = clean(text).trim();
    expect(md.render(markdownLine(text))).toBe(`<p>${escapeHtml(shown)}</p>\n`);
    expect(md.render(`- ${markdownLine(text)}`)).toBe(`<ul>\n<li>${escapeHtml(shown)}</li>\n</ul>\n`);
    expect(md.render(`**Note:** ${markdownText(text)}`)).toBe(`<p><strong>Note:</strong> ${escapeHtml(shown)}</p>\n`);
  });

  it.each(HOSTILE)('%j renders as the characters sent, in a table cell', (text) => {
    const shown = clean(text).trim();
    const table = `| TF | Protocol |\n|:---|:---|\n| 1h | ${markdownText(text)} |\n`;
    expect(md.render(table)).toBe(
      '<table>\n<thead>\n<tr>\n<th style="text-align:left">TF</th>\n<th style="text-align:left">Protocol</th>\n</tr>\n</thead>\n' +
        `<tbody>\n<tr>\n<td style="text-align:left">1h</td>\n<td style="text-align:left">${escapeHtml(shown)}</td>\n</tr>\n</tbody>\n</table>\n`,
    );
  });

  it('leaves plain text as it is', () => {
    expect(markdownText('Market Forecast Agent (forecast-agent.example)')).toBe(
      'Market Forecast Agent (forecast-agent.example)',
    );
    expect(markdownText('generated 2026-10-23 12:00 UTC, 46.15%')).toBe('generated 2026-10-23 12:00 UTC, 46.15%');
    expect(markdownText('-0.0047%')).toBe('-0.0047%');
    expect(markdownLine('-0.0047%')).toBe('\\-0.0047%');
  });
});

describe('markdownText and keys', () => {
  it('masks key-shaped text before escaping it: an escaped key is no longer key-shaped', () => {
    const key = `mfa_ag_${'1a2b3c4d5e'.repeat(4)}`;
    const text = markdownText(`source ${key} end`);
    expect(text).toBe('source mfa\\_ag\\_1a2b...4d5e end');
    expect(text).not.toContain('1a2b3c4d5e1a2b');
  });
});
