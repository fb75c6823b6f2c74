// The documentation's fenced blocks, as the docs tests read them: which are meant to be
// pasted into a shell (a `<!-- paste: NAME ... -->` line right before the fence), with what
// the marker declares about them. See CONTRIBUTING.md, "Documentation that runs".
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** README.md and every page of docs/: the files whose paste blocks must run. */
export function documentationFiles(): string[] {
  const docs = readdirSync(join(REPO, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs];
}

export interface FencedBlock {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  body: string;
  /** The paste marker's words after `paste:`, when the line before the fence is one. */
  marker?: string;
}

export interface PasteBlock {
  file: string;
  line: number;
  name: string;
  script: string;
  /** The exit code the block ends with on purpose (`exit=8`); 0 unless declared. */
  exit: number;
  /** The shell it is written for (`shell=fish`); bash unless declared. */
  shell: 'bash' | 'zsh' | 'fish';
  /** `cwd=repo`: run in the clone rather than an empty directory; `cwd=pack`: in one holding `npm pack`'s tarball. */
  cwd: 'temp' | 'repo' | 'pack';
  /** `run=no`: a step of a fresh clone (git clone, npm install), not run by the test. */
  run: boolean;
  /** Attributes the marker gave that this reader does not know. */
  unknown: string[];
}

const MARKER = /^<!--\s*paste:\s*(.*?)\s*-->\s*$/;

export function fencedBlocks(markdown: string, file: string): FencedBlock[] {
  const lines = markdown.split('\n');
  const blocks: FencedBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/.exec(lines[i]!);
    if (!open) continue;
    const [, indent = '', fence = '```', lang = ''] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !lines[j]!.trim().startsWith(fence); j++) body.push(lines[j]!.slice(indent.length));
    const marker = i > 0 ? MARKER.exec(lines[i - 1]!)?.[1] : undefined;
    blocks.push({ file, line: i + 1, lang, body: body.join('\n'), ...(marker !== undefined && { marker }) });
    i = j;
  }
  return blocks;
}

/** Markers whose next line is not a fence: a paste block that would never be run. */
export function danglingMarkers(markdown: string): number[] {
  const lines = markdown.split('\n');
  return lines.flatMap((line, i) =>
    MARKER.test(line) && !/^\s*(`{3,}|~{3,})/.test(lines[i + 1] ?? '') ? [i + 1] : [],
  );
}

export function pasteBlocks(markdown: string, file: string): PasteBlock[] {
  return fencedBlocks(markdown, file).flatMap((block) => {
    if (block.marker === undefined) return [];
    const [name = '', ...attributes] = block.marker.split(/\s+/);
    const attr = new Map(attributes.map((a) => a.split('=') as [string, string]));
    const shell = attr.get('shell') ?? 'bash';
    return [
      {
        file,
        line: block.line,
        name,
        script: `${block.body}\n`,
        exit: Number(attr.get('exit') ?? 0),
        shell: (['bash', 'zsh', 'fish'].includes(shell) ? shell : 'bash') as PasteBlock['shell'],
        cwd: attr.get('cwd') === 'repo' || attr.get('cwd') === 'pack' ? (attr.get('cwd') as 'repo' | 'pack') : 'temp',
        run: attr.get('run') !== 'no',
        unknown: [...attr.keys()].filter((k) => !['exit', 'shell', 'cwd', 'run'].includes(k)),
      },
    ];
  });
}

/** The languages of a block a reader would paste into a shell. */
export const SHELL_LANGUAGES = new Set(['sh', 'bash', 'shell', 'zsh', 'fish']);

/**
 * A line's text outside quotes, with each quoted stretch replaced by `Q`: what a shell reads
 * as words and operators. `\` escapes the next character outside single quotes.
 */
export function unquoted(line: string): string {
  let out = '';
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote) {
      if (ch === '\\' && quote === '"') i++;
      else if (ch === quote) {
        quote = undefined;
        out += 'Q';
      }
    } else if (ch === '\\') i++;
    else if (ch === '"' || ch === "'") quote = ch;
    else out += ch;
  }
  return out;
}

/** A comment a shell would see: `#` starting a word, outside quotes (not `$#`, `${#x}`, `a#b`). */
export const hasComment = (line: string): boolean => /(^|\s)#/.test(unquoted(line));

/** An `exit` in command position: pasted, it would close the reader's shell. */
export const hasExit = (line: string): boolean =>
  /(^|[;&|({]\s*|\b(then|do|else)\s+)exit\b/.test(unquoted(line).trim());

export const readDoc = (file: string): string => readFileSync(join(REPO, file), 'utf8');

export interface WorkflowBlock {
  file: string;
  line: number;
  /** The marker's name: `<!-- workflow: NAME -->` right before the fence. */
  name: string | undefined;
  body: string;
}

/** The YAML blocks of a page, with their `<!-- workflow: NAME -->` marker when there is one. */
export function workflowBlocks(markdown: string, file: string): WorkflowBlock[] {
  const lines = markdown.split('\n');
  return fencedBlocks(markdown, file)
    .filter((b) => b.lang === 'yaml' || b.lang === 'yml')
    .map((b) => ({
      file,
      line: b.line,
      name: /^<!--\s*workflow:\s*([\w-]+)\s*-->\s*$/.exec(lines[b.line - 2] ?? '')?.[1],
      body: b.body,
    }));
}
