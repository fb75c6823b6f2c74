// Every path of this repository that a page or a comment names must be there, and every section
// one points to (a link's anchor, or a page's name, a comma and a heading's title) must be a heading of that file: a
// reader who follows one to a file or a section that was moved or never written loses the thread.
// The check reads the tree as it is when the test runs, so a file added on another branch counts
// once it is merged.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/docs.js';

/** The folders a repository-relative path starts with, as the pages and comments write them. */
const ROOTS = ['src', 'test', 'docs', 'scripts', 'bin', 'completions', '.ci'];
/** What is built, installed or generated, not written: no reader follows a path from there. */
const SKIP_DIRS = new Set([
  'node_modules',
  'dist',
  'coverage',
  'reports',
  '.git',
  '.stryker-tmp',
  '.bench',
  '__snapshots__',
]);

function walk(dir: string, keep: (file: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIP_DIRS.has(entry.name) ? [] : walk(path, keep);
    return entry.isFile() && keep(entry.name) ? [path] : [];
  });
}

const isPage = (name: string) => name.endsWith('.md');
const isCode = (name: string) => /\.(ts|js|cjs|mjs)$/.test(name);

/** The Markdown pages: the repository's root, docs/ and the folders' READMEs under src/. */
function pages(): string[] {
  const root = readdirSync(REPO)
    .filter(isPage)
    .map((name) => join(REPO, name));
  return [...root, ...walk(join(REPO, 'docs'), isPage), ...walk(join(REPO, 'src'), isPage)];
}

/**
 * The code whose comments may name paths: src/, test/, scripts/ and the root's configs. Not bin/:
 * bin/fcast.js is a shim whose comments name only src/launch/, and no test reads its text.
 */
function codeFiles(): string[] {
  const root = readdirSync(REPO, { withFileTypes: true })
    .filter((entry) => entry.isFile() && isCode(entry.name))
    .map((entry) => join(REPO, entry.name));
  return [...root, ...['src', 'test', 'scripts'].flatMap((dir) => walk(join(REPO, dir), isCode))];
}

/**
 * The comments of a JavaScript or TypeScript file, line by line: `//` comments (at a line's
 * start or after white space, so a URL's `//` in a string is not one) and block comments.
 */
function commentsOf(source: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let inBlock = false;
  for (const [i, line] of source.split('\n').entries()) {
    let rest = line;
    if (inBlock) {
      const end = rest.indexOf('*/');
      out.push({ line: i + 1, text: end === -1 ? rest : rest.slice(0, end) });
      if (end === -1) continue;
      inBlock = false;
      rest = rest.slice(end + 2);
    }
    const lineComment = /(^|\s)\/\/(.*)$/.exec(rest);
    const blockStart = /(^|\s)\/\*/.exec(rest);
    if (blockStart && (!lineComment || blockStart.index < lineComment.index)) {
      const after = rest.slice(blockStart.index + blockStart[0].length);
      const end = after.indexOf('*/');
      out.push({ line: i + 1, text: end === -1 ? after : after.slice(0, end) });
      if (end === -1) inBlock = true;
    } else if (lineComment) {
      out.push({ line: i + 1, text: lineComment[2] ?? '' });
    }
  }
  return out;
}

// Not after `<commit>:` (`git show 07db7d8:scripts/x.patch`): that names a file of the history, not of the tree.
const PATH = new RegExp(
  `(?<![\\w./~$-]|\\b[0-9a-f]{7,40}:)(?:${ROOTS.map((r) => r.replace('.', '\\.')).join('|')})/[\\w./{},*<>-]*`,
  'g',
);

/**
 * The paths a text names, as the files they stand for: `{a,b}` is expanded, a glob or a
 * placeholder (`*`, `<name>`) stands for the folder before it, a sentence's full stop is not
 * part of the path.
 */
function namedPaths(text: string): string[] {
  return [...text.matchAll(PATH)].flatMap(([match]) => {
    let path = match.replace(/[.,]+$/, '');
    const wild = path.search(/[*<>]/);
    if (wild !== -1) path = path.slice(0, path.lastIndexOf('/', wild) + 1);
    const brace = /\{([^{}]*)\}/.exec(path);
    if (brace) return brace[1]!.split(',').map((alt) => path.replace(brace[0], alt));
    return [path.replace(/[{},]/g, '')];
  });
}

/** The local targets of a page's Markdown links, without their `#fragment`. */
function linkTargets(text: string): string[] {
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map(([, target]) => target!.replace(/#.*$/, ''))
    .filter((target) => target !== '' && !/^[a-z][\w+.-]*:/i.test(target));
}

/** A `../` path in a comment of a file at the root: it names something outside the repository. */
const CLIMBS_OUT = /(?<![\w./~$-])\.\.\/[\w./-]+/g;

describe('the paths the pages and the comments name', () => {
  it('reads a path out of prose and code comments as a reader would follow it', () => {
    expect(namedPaths('see `src/output/format.ts`, then test/unit/ and scripts/build.js.')).toEqual([
      'src/output/format.ts',
      'test/unit/',
      'scripts/build.js',
    ]);
    expect(namedPaths('src/completion/template.{bash,zsh,fish}')).toEqual([
      'src/completion/template.bash',
      'src/completion/template.zsh',
      'src/completion/template.fish',
    ]);
    expect(namedPaths('`test/**/*.test.ts` and `src/commands/<name>.ts`')).toEqual(['test/', 'src/commands/']);
    expect(namedPaths('https://example.com/src/x.ts ../shared/src/y.ts node_modules/.bin/z ~/bin/fcast')).toEqual([]);
    expect(namedPaths('git show 07db7d8:scripts/gone.patch, then scripts/build.js')).toEqual(['scripts/build.js']);
    // Put together from pieces, so that this file's own comments do not hold these lines.
    const source = ["const url = 'https://x.test/a.ts'; /", '/ see b.ts\n/', '* one\n * c.ts *', '/ go();'].join('');
    expect(commentsOf(source)).toEqual([
      { line: 1, text: ' see b.ts' },
      { line: 2, text: ' one' },
      { line: 3, text: ' * c.ts ' },
    ]);
    expect(linkTargets('[a](docs/x.md#part), [b](https://example.com), [c](#here), [d](../README.md)')).toEqual([
      'docs/x.md',
      '../README.md',
    ]);
  });

  it('every one of them exists in the tree', () => {
    const named: string[] = [];
    const dead: string[] = [];
    const check = (where: string, path: string, from = REPO) => {
      named.push(path);
      const target = resolve(from, path);
      if (!existsSync(target) || relative(REPO, target).startsWith('..')) dead.push(`${where} ${path}`);
    };
    for (const file of pages())
      for (const [i, line] of readFileSync(file, 'utf8').split('\n').entries()) {
        const where = `${relative(REPO, file)}:${i + 1}`;
        for (const path of namedPaths(line)) check(where, path);
        for (const target of linkTargets(line)) check(where, decodeURI(target), dirname(file));
      }
    for (const file of codeFiles())
      for (const { line, text } of commentsOf(readFileSync(file, 'utf8'))) {
        const where = `${relative(REPO, file)}:${line}`;
        for (const path of namedPaths(text)) check(where, path);
        if (dirname(file) === resolve(REPO)) for (const [path] of text.matchAll(CLIMBS_OUT)) check(where, path, REPO);
      }
    expect(named.length).toBeGreaterThan(100);
    expect(dead).toEqual([]);
  });
});

/** A heading's anchor as GitHub makes it: its text, lower-cased, with punctuation dropped and each space a hyphen. */
function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*]/g, '');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** A page's headings (outside fenced blocks) and the anchors GitHub gives them, a repeated one `-1`, `-2`, ... */
function headingsOf(page: string): { titles: string[]; anchors: Set<string> } {
  const titles: string[] = [];
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | undefined;
  for (const line of page.split('\n')) {
    const open = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (open) {
      if (fence === undefined) fence = open[1]![0]!;
      else if (open[1]![0] === fence) fence = undefined;
      continue;
    }
    if (fence !== undefined) continue;
    for (const [, id] of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id!);
    const heading = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (!heading) continue;
    titles.push(heading[1]!);
    const slug = githubSlug(heading[1]!);
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return { titles, anchors };
}

interface SectionPointer {
  /** The file as written, relative to the repository or to the page; '' for the page itself. */
  file: string;
  /** `#` and the anchor for an anchor, else the heading's title as the text writes it. */
  section: string;
  /** Where in the text the pointer starts. */
  index: number;
}

const MD_FILE = String.raw`(?<![\w./~$-])((?:\.{1,2}/)*(?:[\w.-]+/)*[\w.-]+\.md)`;
/** A Markdown link to a section: its target, then `#`, then the anchor; or `#` and the anchor alone. */
const LINK_ANCHOR = /\]\(([^)\s#]*)#([^)\s]+)\)/g;
/** A Markdown file's name, `#` and an anchor in prose or a comment, not as a link's target. */
const BARE_ANCHOR = new RegExp(`(?<!\\]\\()${MD_FILE}#([\\w-]+)`, 'g');
/** A Markdown file's name, a comma, and a heading's title in double quotes. */
const QUOTED = new RegExp(`${MD_FILE},\\s+"([^"]+)"`, 'g');
/** The same unquoted (as the code's comments write it): capitalised words up to a comma, a stop or a bracket. */
const UNQUOTED = new RegExp(`${MD_FILE},\\s+([A-Z][\\w'-]*(?:\\s+[\\w'-]+)*)(?=[,.;:)]|\\s*$)(?!\\.\\w)`, 'g');

/** The sections a text points to, in the styles the pages and the comments use; a pointer may span lines. */
function sectionPointers(text: string): SectionPointer[] {
  const found = (re: RegExp, section: (m: RegExpMatchArray) => string) =>
    [...text.matchAll(re)].map((m) => ({ file: m[1]!, section: section(m), index: m.index! }));
  return [
    ...found(LINK_ANCHOR, (m) => `#${m[2]}`).filter(({ file }) => !/^[a-z][\w+.-]*:/i.test(file)),
    ...found(BARE_ANCHOR, (m) => `#${m[2]}`),
    ...found(QUOTED, (m) => m[2]!.replace(/\s+/g, ' ')),
    ...found(UNQUOTED, (m) => m[2]!.replace(/\s+/g, ' ')),
  ];
}

/** A file's comments as the reader meets them: consecutive comment lines joined into one text. */
function commentBlocks(source: string): { line: number; text: string }[] {
  const blocks: { line: number; text: string; last: number }[] = [];
  for (const { line, text } of commentsOf(source)) {
    const clean = text.replace(/^\s*\*?\s?/, '');
    const last = blocks.at(-1);
    if (last && last.last === line - 1) {
      last.text += `\n${clean}`;
      last.last = line;
    } else blocks.push({ line, text: clean, last: line });
  }
  return blocks;
}

/** A page's paragraphs (blank-line separated), each with its first line, so a pointer may span lines. */
function paragraphs(page: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let start = 0;
  const lines = page.split('\n');
  for (let i = 0; i <= lines.length; i++) {
    if (i < lines.length && lines[i]!.trim() !== '') continue;
    if (i > start) out.push({ line: start + 1, text: lines.slice(start, i).join('\n') });
    start = i + 1;
  }
  return out;
}

/** The YAML files at the root (the action), whose `#` comments point to the docs too. */
function yamlFiles(): string[] {
  return readdirSync(REPO)
    .filter((name) => /\.ya?ml$/.test(name))
    .map((name) => join(REPO, name));
}

describe('the sections the pages and the comments point to', () => {
  it('makes anchors as GitHub does, and reads every pointer style used in the tree', () => {
    expect(githubSlug('`fcast track-record` and `fcast accuracy`')).toBe('fcast-track-record-and-fcast-accuracy');
    expect(githubSlug('Origins: one journal, every record naming its service')).toBe(
      'origins-one-journal-every-record-naming-its-service',
    );
    expect(githubSlug('2026-11-27: start-up — load only what a command runs')).toBe(
      '2026-11-27-start-up--load-only-what-a-command-runs',
    );
    const page = ['# A', '```', '# not a heading', '```', '## A', '<a id="here"></a>', '### `x` (y)'].join('\n');
    expect([...headingsOf(page).anchors]).toEqual(['a', 'a-1', 'here', 'x-y']);
    expect(headingsOf(page).titles).toEqual(['A', 'A', '`x` (y)']);
    expect(
      sectionPointers(
        'see [a](docs/x.md#part-one) and [b](#here), [c](https://e.test/y.md#no), docs/y.md#bare, ' +
          '(docs/formats.md, "Step\n outputs") and (CONTRIBUTING.md, Performance measurements, 6, ...) ' +
          'and FILE.md, Section. Not README.md, CONTRIBUTING.md or a.md, b.md.',
      ).map(({ file, section }) => ({ file, section })),
    ).toEqual([
      { file: 'docs/x.md', section: '#part-one' },
      { file: '', section: '#here' },
      { file: 'docs/y.md', section: '#bare' },
      { file: 'docs/formats.md', section: 'Step outputs' },
      { file: 'CONTRIBUTING.md', section: 'Performance measurements' },
      { file: 'FILE.md', section: 'Section' },
    ]);
    // Put together from pieces, so that this file's own comments do not hold these lines.
    const source = ['/', '/ one (CONTRIBUTING.md,\n/', '/ "Test") two\nx();\n/', '/ three'].join('');
    expect(commentBlocks(source)).toEqual([
      { line: 1, text: 'one (CONTRIBUTING.md,\n"Test") two', last: 2 },
      { line: 4, text: 'three', last: 4 },
    ]);
    expect(sectionPointers(commentBlocks(source)[0]!.text)).toEqual([
      { file: 'CONTRIBUTING.md', section: 'Test', index: 5 },
    ]);
  });

  it('every one of them is a heading of a file that exists', () => {
    const pointed: string[] = [];
    const dead: string[] = [];
    const headings = new Map<string, ReturnType<typeof headingsOf>>();
    const check = (at: { file: string; line: number; text: string }, pointer: SectionPointer, self?: string) => {
      const { file, section } = pointer;
      const where = `${relative(REPO, at.file)}:${at.line + (at.text.slice(0, pointer.index).match(/\n/g)?.length ?? 0)}`;
      const from = dirname(at.file);
      pointed.push(`${file}#${section}`);
      const target =
        file === ''
          ? self
          : [resolve(REPO, file), resolve(from, file)].find(
              (path) => existsSync(path) && !relative(REPO, path).startsWith('..'),
            );
      if (target === undefined) return void dead.push(`${where} ${file}: no such file`);
      if (!headings.has(target)) headings.set(target, headingsOf(readFileSync(target, 'utf8')));
      const { titles, anchors } = headings.get(target)!;
      const found = section.startsWith('#')
        ? anchors.has(section.slice(1))
        : titles.some((title) => title.replace(/[`*]/g, '') === section);
      if (!found) dead.push(`${where} ${file || relative(REPO, target)}: no section ${JSON.stringify(section)}`);
    };
    for (const file of pages())
      for (const { line, text } of paragraphs(readFileSync(file, 'utf8')))
        for (const pointer of sectionPointers(text)) check({ file, line, text }, pointer, file);
    for (const file of codeFiles())
      for (const { line, text } of commentBlocks(readFileSync(file, 'utf8')))
        for (const pointer of sectionPointers(text)) check({ file, line, text }, pointer);
    for (const file of yamlFiles()) {
      const comments = readFileSync(file, 'utf8')
        .split('\n')
        .map((line) => /(?:^|\s)#\s?(.*)$/.exec(line)?.[1] ?? '')
        .join('\n');
      for (const { line, text } of paragraphs(comments))
        for (const pointer of sectionPointers(text)) check({ file, line, text }, pointer);
    }
    expect(pointed.length).toBeGreaterThan(50);
    expect(dead).toEqual([]);
  });
});
