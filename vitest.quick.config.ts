// The edit-test loop (`npm run test:quick`): the unit, emulator and in-process end-to-end tests,
// and the property tests at 50 bodies a resource instead of 1,000. Left out are the files that
// spawn the built bin/fcast.js for most of what they test (the packaging, the docs' paste
// blocks, the journal's multi-process durability, deadlines on real sockets) or drive a pty in
// real shells: they need `npm run build` first, and they are most of the full suite's time.
// `npm test` runs everything, at full counts; CONTRIBUTING.md, "Test", says when to run which.
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

const spawned = [
  'test/smoke.test.ts',
  'test/e2e/bundle-shapes.test.ts',
  'test/e2e/compile-cache.test.ts',
  'test/e2e/completion-install.test.ts',
  'test/e2e/config-safety.test.ts',
  'test/e2e/deadlines.test.ts',
  'test/e2e/display.test.ts',
  'test/e2e/docs.test.ts',
  'test/e2e/journal-docs.test.ts',
  'test/e2e/journal-durability.test.ts',
  // Real processes racing on one journal (an import beside recorders), and commands that must
  // not hang on a FIFO: both spawn the built bin, and took 34 s of the loop's 104 s.
  'test/e2e/journal-import-concurrency.test.ts',
  'test/e2e/journal-irregular.test.ts',
  'test/e2e/journal-sklearn.test.ts',
  'test/e2e/journal-steps.test.ts',
  'test/e2e/mock-env.test.ts',
  // Two users, FIFOs and devices, and a copy of the package for Node's compile cache: all spawned.
  'test/e2e/own-files.test.ts',
  'test/e2e/proxy.test.ts',
  'test/e2e/terminal.test.ts',
  'test/e2e/watch-pty.test.ts',
  // The package: npm pack and an offline install, the Action's steps, the docs' workflows, the executable.
  'test/e2e/package.test.ts',
  'test/e2e/action.test.ts',
  'test/e2e/docs-workflows.test.ts',
  // The docs' weekly recipe as pasted, a run of bin/fcast.js a week for eight emulated weeks.
  'test/e2e/weekly-recipe.test.ts',
  // The views found cut or too wide, on a pty (script, tmux) at 60 and 80 columns.
  'test/e2e/layouts-pty.test.ts',
  'test/e2e/sea.test.ts',
  // MCP clients over stdio (the SDK's, the Inspector's CLI), each starting the built bin as
  // `fcast mcp`: 19 s of the loop's 107 s of test time. test/unit/mcp-results.test.ts stays.
  'test/e2e/mcp.test.ts',
  'test/e2e/mcp-inspector.test.ts',
  // The outside oracles (numpy, scikit-learn, scipy, statsmodels, R) started for each case:
  // 9 s, and the figures they hold change only with the statistics' code.
  'test/oracle/compare-stats.test.ts',
  'test/oracle/journal-compare-import.test.ts',
];

// Walks every status 100-599 with each kind of body through main(): exhaustive, not quick.
const exhaustive = ['test/e2e/status-table.test.ts'];

// Files that replace modules (vi.mock) or spy on them: they get modules of their own, as in
// `npm test`. Every other file shares a worker's modules with the files run before it
// (isolate: false), which takes the loop's CPU time from 134 s to about 50 s: importing the
// sources afresh for each file was most of it. A test that passes here and fails in `npm test`,
// or the reverse, leans on module state another file left: fix the test, or list it here.
const ownModules = [
  'test/unit/file-lock-fs.test.ts',
  'test/unit/journal-append.test.ts',
  'test/unit/journal-defaults.test.ts',
  'test/unit/journal-store.test.ts',
  'test/unit/quick-accept.test.ts',
];

// Each project states its own files: with `extends: true` a project's include would add to the
// base's (every test) instead of replacing it.
const { reporters, ...common } = base.test ?? {};

export default defineConfig({
  test: {
    reporters,
    projects: [
      {
        test: {
          ...common,
          name: 'shared',
          exclude: ['**/node_modules/**', ...spawned, ...exhaustive, ...ownModules],
          isolate: false,
          // The property tests read their count from the environment (test/property/harness.ts).
          env: { FCAST_FUZZ_RUNS: '50' },
        },
      },
      { test: { ...common, name: 'own-modules', include: ownModules, env: { FCAST_FUZZ_RUNS: '50' } } },
    ],
  },
});
