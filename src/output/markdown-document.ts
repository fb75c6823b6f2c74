// A view's text as a Markdown document, for `--format markdown` of any table view: its tables
// arrive as Markdown tables already (renderTable writes them so under --format markdown, and
// names their lines), and every other line is text: escaped so that it renders as the
// characters shown (markdown.ts), each line kept a line of its own (a hard break, `\` at the
// end), a blank line between a table and the text around it, as Markdown needs.
import { markdownLine } from './markdown.js';

/** `text`'s lines as Markdown; those in `kept` (a table's rows) as they are. */
export function markdownDocument(text: string, kept: ReadonlySet<string>): string {
  const out: string[] = [];
  let previous: 'blank' | 'table' | 'text' = 'blank';
  for (const line of text.split('\n')) {
    // A nested table (a document's) comes indented: Markdown has no indented table.
    const bare = line.trimStart();
    const kind = bare === '' ? 'blank' : kept.has(bare) ? 'table' : 'text';
    if (kind === 'blank') {
      if (previous !== 'blank') out.push('');
      previous = 'blank';
      continue;
    }
    if (previous !== 'blank' && previous !== kind) out.push('');
    else if (previous === 'text' && kind === 'text') out[out.length - 1] += '\\';
    out.push(kind === 'table' ? bare : markdownLine(line));
    previous = kind;
  }
  while (out.at(-1) === '') out.pop();
  return out.join('\n');
}
