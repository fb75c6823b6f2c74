// Text for Markdown (--format markdown and the GitHub step summary) that renders as the
// characters sent: server text must not make HTML, a link, an image, emphasis, a code span,
// an autolink, a heading, a list, a quote, an entity, maths or an emoji. CommonMark lets any
// ASCII punctuation be escaped with a backslash, which then shows as itself; so every
// character that can open or close such markup is escaped, and the start of the text is made
// safe as the start of a line (a list marker, a setext underline). Newlines and tabs become
// one space first (clean), so a table cell stays one cell and one line.
import { redactText } from '../core/sinks.js';
import { clean } from './sanitize.js';

/**
 * ` * _ ~ for code, emphasis and strikethrough; [ ] ! for links and images; < > for HTML,
 * autolinks and quotes; & for entities; | for a cell's end; # for headings; $ for maths;
 * @ for GitHub's (and linkify's) e-mail autolinks; \ itself.
 */
const MARKUP = /[\\`*_~[\]!<>&|#$@]/g;
/**
 * A GitHub emoji shortcode (`:smile:`: its first colon), and GitHub's links of bare URLs
 * (`https://`, `www.`): an escaped character breaks the pattern its autolinker looks for.
 */
const SHORTCODE_OR_URL = /:(?=[\w+-]+:|\/\/)|(?<=\b(?:mailto|xmpp)):|(?<=\bwww)\./gi;
/** What opens a block at a line's start: a bullet, a setext underline or rule, an ordered list item. */
const LINE_START = /^(?:[-+=]|\d{1,9}(?=[.)]))/;

/**
 * Server text as Markdown inline text (a table cell, after a label): one line, rendering as
 * exactly the characters sent, blanks at its ends aside.
 */
export function markdownText(text: unknown): string {
  // Redacted before it is escaped: an escaped key (`mfa\_ag\_...`) is no longer key-shaped,
  // and the redactor of stdout or of the summary file would let it through.
  return redactText(clean(text).trim()).replace(MARKUP, '\\$&').replace(SHORTCODE_OR_URL, '\\$&');
}

/** The same at the start of a line or a list item, where `- `, `1. ` or `===` would open a block. */
export const markdownLine = (text: unknown): string =>
  markdownText(text).replace(LINE_START, (m) => (/\d/.test(m) ? `${m}\\` : `\\${m}`));
