// vitest's globalSetup: one temporary directory for the whole run, removed when the run ends,
// pass or fail. Workers are forked after this runs and inherit TMPDIR, so every tempDir() and
// every os.tmpdir() of a test lands inside it; test/helpers/cli.ts also removes each file's own
// directories when that file ends, so a long run does not pile them up.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'fcast-tests-'));
  process.env.TMPDIR = root;
  // A spawned `fcast mock` keeps the keys it issues in its data directory: never the user's.
  process.env.FCAST_DATA_DIR = join(root, 'data');
  return () => rmSync(root, { recursive: true, force: true });
}
