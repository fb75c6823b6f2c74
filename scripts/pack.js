#!/usr/bin/env node
// `npm run pack [-- DIR]`: the npm package as a release ships it, fcast-VERSION.tgz in DIR (default
// the current directory). Made from a staging copy of what package.json's `files` lists, so that
// what the user installs differs from the clone in three ways:
//   - its package.json keeps what an installed package needs (name, version, bin, man, engines…)
//     and drops the scripts and devDependencies: no `prepare` for npm to warn about
//     ("install-scripts … not yet covered by allowScripts"), nothing that points at the build;
//   - it carries docs/*.md, which the README and the help text point at;
//   - it carries a man page per command (man/man1/fcast.1, fcast-predict.1, fcast-journal-report.1,
//     …, as gh makes its own), written from the command tree, listed in npm's `man` field: after
//     `npm install -g --prefix ~/.local`, `man fcast-predict` finds it beside ~/.local/bin.
// Needs the build (npm run build). scripts/release.js packs through this very function.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The fields of package.json an installed package uses; everything else (scripts, devDependencies, allowScripts) stays in the clone. */
const KEPT = [
  'name',
  'version',
  'description',
  'type',
  'bin',
  'man',
  'files',
  'engines',
  'license',
  'repository',
  'homepage',
];

/** package.json as packed: `KEPT` only, with the man pages. */
export function packedManifest(pkg, manPages) {
  const out = {};
  for (const key of KEPT) {
    if (key === 'man') out.man = manPages.map((page) => `./man/man1/${page}`);
    else if (key === 'files') out.files = [...pkg.files, 'man'];
    else if (pkg[key] !== undefined) out[key] = pkg[key];
  }
  return out;
}

/** roff's text: a backslash as \e, a line starting with . or ' escaped, so that help text is shown as written. */
export const roff = (text) =>
  text
    .replace(/\\/g, '\\e')
    .split('\n')
    .map((line) => (/^[.']/.test(line) ? `\\&${line}` : line))
    .join('\n');

/** The commands a user may type, with their paths: hidden ones (TAB's __complete-symbols) and `help` left out. */
function commandsOf(command, path = []) {
  return command.commands
    .filter((c) => !c._hidden && c.name() !== 'help' && !c.name().startsWith('_'))
    .flatMap((c) => [{ path: [...path, c.name()], command: c }, ...commandsOf(c, [...path, c.name()])]);
}

/** One man page per command of the tree, from its help text: { 'fcast.1': text, 'fcast-predict.1': text, … }. */
export async function manPages(version) {
  const { buildProgram } = await import(pathToFileURL(join(ROOT, 'dist/cli/program.js')).href);
  const { docsPointer } = await import(pathToFileURL(join(ROOT, 'dist/core/docs-pointer.js')).href);
  const sink = { write: () => true };
  const program = await buildProgram({ ctx: { version, io: { stdout: sink, stderr: sink } }, setExitCode: () => {} });
  const all = [{ path: [], command: program }, ...commandsOf(program)];
  const pageOf = (path) => ['fcast', ...path].join('-');
  const pages = {};
  for (const { path, command } of all) {
    const name = pageOf(path);
    const summary = (command.summary() || command.description() || '').split(/(?<=\.)\s/)[0].replace(/\.$/, '');
    const below = all.filter((c) => c.path.length === path.length + 1 && path.every((p, i) => c.path[i] === p));
    const seeAlso = [...(path.length > 0 ? [pageOf(path.slice(0, -1))] : []), ...below.map((c) => pageOf(c.path))].map(
      (page) => `.BR ${page} (1)`,
    );
    pages[`${name}.1`] = [
      `.TH ${name.toUpperCase()} 1 "" "fcast ${version}" "fcast manual"`,
      '.SH NAME',
      `${name} \\- ${roff(summary)}`,
      '.SH DESCRIPTION',
      '.nf',
      roff(command.helpInformation().trimEnd()),
      '.fi',
      '.SH FILES',
      roff(
        `The longer documents: ${docsPointer('reference.md, journal.md, formats.md, exit-codes.md and watch.md', false)}.`,
      ),
      ...(seeAlso.length > 0 ? ['.SH SEE ALSO', seeAlso.join(',\n')] : []),
      '',
    ].join('\n');
  }
  return pages;
}

/** Packs the package as released into `destination`; returns the tarball's file name. */
export async function pack(destination) {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const listed = JSON.parse(
    execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' }),
  )[0].files.map((f) => f.path);
  const stage = mkdtempSync(join(tmpdir(), 'fcast-pack-'));
  try {
    for (const file of listed) {
      if (file === 'package.json') continue;
      mkdirSync(dirname(join(stage, file)), { recursive: true });
      cpSync(join(ROOT, file), join(stage, file));
    }
    const pages = await manPages(pkg.version);
    mkdirSync(join(stage, 'man/man1'), { recursive: true });
    for (const [page, text] of Object.entries(pages)) writeFileSync(join(stage, 'man/man1', page), text);
    writeFileSync(join(stage, 'package.json'), `${JSON.stringify(packedManifest(pkg, Object.keys(pages)), null, 2)}\n`);
    mkdirSync(destination, { recursive: true });
    const out = execFileSync(
      'npm',
      ['pack', '--ignore-scripts', '--silent', '--pack-destination', resolve(destination)],
      {
        cwd: stage,
        encoding: 'utf8',
      },
    ).trim();
    return out.split('\n').pop();
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = await pack(process.argv[2] ?? '.');
  process.stdout.write(`${file}\n`);
}
