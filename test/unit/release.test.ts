// `npm run release` makes a dry run only (scripts/release.js): without --dry-run it refuses,
// before building anything. The dry run itself builds the executable (~25 s): run by hand.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/docs.js';

describe('npm run release', () => {
  it('without --dry-run publishes nothing, says so, exit 2', () => {
    const r = spawnSync(process.execPath, ['scripts/release.js'], { cwd: REPO, encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'release: only --dry-run exists: it makes release/ and publishes nothing (npm run release -- --dry-run)\n',
    );
  });
});
