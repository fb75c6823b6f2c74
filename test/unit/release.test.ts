// `npm run release` (scripts/release.js): --dry-run builds release/, --publish uploads it; with
// neither it refuses before building anything. The version goes into file names, so it must be
// semver and every file must land inside release/. The dry run itself builds four executables
// (~3 min): run by hand (npm run release -- --dry-run).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain JavaScript script, without types
import * as release from '../../scripts/release.js';
// @ts-expect-error: a plain JavaScript script, without types
import * as packScript from '../../scripts/pack.js';
import { tempDir } from '../helpers/cli.js';
import { REPO } from '../helpers/docs.js';

const { assetNames, changelogSection, checkedVersion, inside } = release as {
  assetNames: (v: string) => string[];
  changelogSection: (c: string, v: string) => string | undefined;
  checkedVersion: (v: unknown) => string;
  inside: (dir: string, name: string) => string;
};

const HOSTILE = '0.2.0-rc/../../ESCAPED';

describe('npm run release', () => {
  it('with neither --dry-run nor --publish publishes nothing, says so, exit 2', () => {
    const r = spawnSync(process.execPath, ['scripts/release.js'], { cwd: REPO, encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'release: npm run release -- --dry-run builds release/ and publishes nothing; --publish (the release workflow) uploads it\n',
    );
  });

  it(`refuses the version ${HOSTILE} before building, and writes nothing`, () => {
    const root = tempDir('fcast-release-');
    const clone = join(root, 'a', 'b', 'clone');
    mkdirSync(join(clone, 'scripts'), { recursive: true });
    cpSync(join(REPO, 'scripts/release.js'), join(clone, 'scripts/release.js'));
    cpSync(join(REPO, 'CHANGELOG.md'), join(clone, 'CHANGELOG.md'));
    writeFileSync(join(clone, 'package.json'), JSON.stringify({ name: 'fcast', version: HOSTILE, type: 'module' }));
    const r = spawnSync(process.execPath, ['scripts/release.js', '--dry-run'], { cwd: clone, encoding: 'utf8' });
    expect(r.stderr).toBe(`release: package.json's version "${HOSTILE}" is not a semver version (semver.org)\n`);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(existsSync(join(clone, 'release'))).toBe(false);
    expect(readdirSync(join(root, 'a'))).toEqual(['b']);
    expect(readdirSync(join(root, 'a', 'b'))).toEqual(['clone']);
  });
});

describe('release file names', () => {
  it('are the tarball and one executable per target', () => {
    expect(assetNames('1.2.3-rc.1+build.5')).toEqual([
      'fcast-1.2.3-rc.1+build.5.tgz',
      'fcast-1.2.3-rc.1+build.5-linux-x64',
      'fcast-1.2.3-rc.1+build.5-linux-arm64',
      'fcast-1.2.3-rc.1+build.5-darwin-x64',
      'fcast-1.2.3-rc.1+build.5-darwin-arm64',
    ]);
  });

  it.each([HOSTILE, '1.2', '01.2.3', '1.2.3-', '1.2.3/x', '1.2.3\n', '../1.2.3', '1.2.3-a..b', '', 'v1.2.3'])(
    'refuse the version %j',
    (version) => {
      expect(() => assetNames(version)).toThrow(/is not a semver version/);
    },
  );

  it('refuse a version that is not a string', () => {
    expect(() => checkedVersion(1)).toThrow("release: package.json's version 1 is not a semver version (semver.org)");
  });

  it.each(['../x', 'a/../../x', '/etc/passwd', '.', '..', 'a/b'])(
    'are written inside release/ only: %j refused',
    (name) => {
      expect(() => inside('release', name)).toThrow(
        `release: ${JSON.stringify(name)} would be written outside release/`,
      );
    },
  );

  it('land in release/ when plain', () => {
    expect(inside('release', 'SHA256SUMS')).toBe(join(process.cwd(), 'release', 'SHA256SUMS'));
  });
});

describe('the release notes', () => {
  const changelog = [
    '# Changelog',
    '',
    '## [Unreleased]',
    '',
    '- next',
    '',
    '## [0.2.0] - 2026-12-01',
    '',
    '### Added',
    '',
    '- a thing',
    '',
    '## [0.1.0] - 2026-11-01',
    '',
    '- first',
    '',
    '[0.2.0]: https://example.com/compare',
  ].join('\n');

  it("are that version's CHANGELOG section, without its heading", () => {
    expect(changelogSection(changelog, '0.2.0')).toBe('### Added\n\n- a thing\n');
    expect(changelogSection(changelog, '0.1.0')).toBe('- first\n');
    expect(changelogSection(changelog, '0.3.0')).toBeUndefined();
  });

  it("of this repository's version exist (or Unreleased does)", () => {
    const { version } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string };
    const text = readFileSync(join(REPO, 'CHANGELOG.md'), 'utf8');
    expect(changelogSection(text, version) ?? changelogSection(text, 'Unreleased')).toMatch(/\S/);
  });
});

describe('the package as released (scripts/pack.js)', () => {
  const { packedManifest, roff } = packScript as {
    packedManifest: (pkg: Record<string, unknown>, pages: string[]) => Record<string, unknown>;
    roff: (text: string) => string;
  };

  it("keeps what an installed package uses: no scripts, devDependencies nor allowScripts; npm's man field lists the pages", () => {
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as Record<string, unknown>;
    const packed = packedManifest(pkg, ['fcast.1', 'fcast-predict.1']);
    expect(Object.keys(packed)).not.toContain('scripts');
    expect(Object.keys(packed)).not.toContain('devDependencies');
    expect(Object.keys(packed)).not.toContain('allowScripts');
    expect(packed.man).toEqual(['./man/man1/fcast.1', './man/man1/fcast-predict.1']);
    expect(packed.files).toContain('man');
    expect(packed.bin).toEqual(pkg.bin);
    expect(packed.engines).toEqual(pkg.engines);
  });

  it('writes help text into roff as it is: backslashes and leading dots escaped', () => {
    expect(roff("a\\b\n.TH x\n'c\nplain")).toBe("a\\eb\n\\&.TH x\n\\&'c\nplain");
  });
});
