#!/usr/bin/env node
// `npm run release -- --dry-run`: what a release of this version would publish, made in
// release/ (gitignored) and checked, nothing published:
//   fcast-VERSION.tgz               npm pack's tarball (the package; installs offline)
//   fcast-VERSION-PLATFORM-ARCH     the standalone executable (npm run build:sea)
//   SHA256SUMS                      both, for `sha256sum -c SHA256SUMS`
// Publishing (a tag, a GitHub release with these files, CHANGELOG.md's section moved under
// the version) is done by hand for now: without --dry-run this script says so and stops.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

if (!process.argv.includes('--dry-run')) {
  process.stderr.write(
    'release: only --dry-run exists: it makes release/ and publishes nothing (npm run release -- --dry-run)\n',
  );
  process.exit(2);
}

const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
const changelog = readFileSync('CHANGELOG.md', 'utf8');
if (!changelog.includes('## [Unreleased]') && !changelog.includes(`## [${version}]`))
  throw new Error(`release: CHANGELOG.md has neither an Unreleased section nor one for ${version}`);

const OUT = 'release';
rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT);
const run = (cmd, args) => execFileSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'] });

// build:sea builds the bundles first (npm run build), so the tarball packs the same ones.
run('npm', ['run', '--silent', 'build:sea']);
const tarball = execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', OUT], {
  encoding: 'utf8',
}).trim();
const executable = `fcast-${version}-${process.platform}-${process.arch}${process.platform === 'win32' ? '.exe' : ''}`;
copyFileSync(join('dist', 'sea', process.platform === 'win32' ? 'fcast.exe' : 'fcast'), join(OUT, executable));

const sums = [tarball, executable]
  .map(
    (file) =>
      `${createHash('sha256')
        .update(readFileSync(join(OUT, file)))
        .digest('hex')}  ${file}\n`,
  )
  .join('');
writeFileSync(join(OUT, 'SHA256SUMS'), sums);

const size = (file) => `${(statSync(join(OUT, file)).size / 1024 / 1024).toFixed(1)} MiB`;
process.stdout.write(
  `\nrelease ${version} (dry run, nothing published), in ${OUT}/:\n` +
    `  ${tarball}  ${size(tarball)}\n  ${executable}  ${size(executable)}\n  SHA256SUMS\n`,
);
