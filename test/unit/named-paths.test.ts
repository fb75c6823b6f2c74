// Every path of this repository that a page or a comment names must be there: a reader who
// follows one to a file that was moved or never written loses the thread. The check reads the
// tree as it is when the test runs, so a file added on another branch counts once it is merged.
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

/** The code whose comments may name paths: src/, test/, scripts/, bin/ and the root's configs. */
function codeFiles(): string[] {
  const root = readdirSync(REPO, { withFileTypes: true })
    .filter((entry) => entry.isFile() && isCode(entry.name))
    .map((entry) => join(REPO, entry.name));
  return [...root, ...['src', 'test', 'scripts', 'bin'].flatMap((dir) => walk(join(REPO, dir), isCode))];
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

const PATH = new RegExp(`(?<![\\w./~$-])(?:${ROOTS.map((r) => r.replace('.', '\\.')).join('|')})/[\\w./{},*<>-]*`, 'g');

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
