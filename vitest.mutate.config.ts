// The suite Stryker runs against each mutant (npm run mutate): the unit tests, the property
// tests at 50 bodies a resource, and the in-process end-to-end tests that exercise the mutated
// modules. Stryker mutates the TypeScript sources in its sandbox, so a test that spawns
// bin/fcast.js (the built bundle), pastes a docs block or drives a pty can never kill a mutant:
// those stay in npm test only. A mutant in a module-level constant (a regex, a table) is run
// against every test file here, so the list is kept to what those modules need.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// Stryker ends a test runner that hangs on a mutant by killing it, before the suite's own
// teardown (test/helpers/temp-root.ts) removes its directory: the runners' temporary files go
// in their sandbox (.stryker-tmp/sandbox-*/tmp), which Stryker removes at the end of the run.
process.env.TMPDIR = resolve('tmp');
mkdirSync(process.env.TMPDIR, { recursive: true });

const e2e = [
  'accuracy',
  'auth',
  'baseline',
  'config',
  'config-safety',
  'demo',
  'formats',
  'front-ends',
  'hostile',
  'journal',
  'journal-damage',
  'messages',
  'predict',
  'proxy',
  'redaction',
  'register',
  'setup-errors',
  'status-table',
  'track-record',
];

// Not mergeConfig: it would append this include list to the base's, which takes every test.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/unit/**/*.test.ts', 'test/property/**/*.test.ts', ...e2e.map((name) => `test/e2e/${name}.test.ts`)],
    // It needs its full count of bodies to see both answers, and checks nothing mutated here.
    exclude: ['test/unit/quick-accept.test.ts'],
    reporters: ['default'],
    env: { FCAST_FUZZ_RUNS: '50', FCAST_MUTATING: '1' },
  },
});
