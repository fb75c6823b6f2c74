// Mutation testing (npm run mutate): Stryker changes one thing at a time in the modules where a
// wrong line does the most harm, and runs the tests that cover it; a mutant no test notices is a
// gap in the suite, or a change that cannot matter (docs/decisions/2026-11-26-mutation-testing.md
// says which, and why). Incremental: the result file in reports/ is kept, so a run re-tests only
// mutants whose code or tests changed; `npm run mutate -- --force` tests them all, as does a
// clean clone's first run, which has no result file (its time: the mutation note).
// @ts-check
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutate.config.ts', related: true },
  coverageAnalysis: 'perTest',
  mutate: [
    'src/core/redact.ts',
    'src/core/secret-spellings.ts',
    'src/core/secret-automata.ts',
    'src/output/sanitize.ts',
    'src/config/settings.ts',
    'src/config/setting-parsers.ts',
    'src/config/key-checks.ts',
    'src/config/known-secrets.ts',
    'src/config/config-store.ts',
    'src/config/file-lock.ts',
    'src/api/response-errors.ts',
    'src/evidence/wilson.ts',
    'src/evidence/gates.ts',
    'src/evidence/baseline.ts',
    'src/journal/score.ts',
    'src/journal/settle.ts',
    'src/journal/record.ts',
    'src/journal/fast-lines.ts',
    'src/evidence/compare/scores.ts',
    'src/evidence/compare/diebold-mariano.ts',
    'src/evidence/compare/student-t.ts',
    'src/evidence/compare/bootstrap.ts',
    'src/evidence/compare/holm.ts',
    'src/evidence/compare/lags.ts',
    'src/evidence/compare/corp.ts',
    'src/evidence/compare/murphy.ts',
    'src/output/formats/delimited.ts',
    'src/output/annotations.ts',
  ],
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  concurrency: 2,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  timeoutMS: 10000,
  // The initial run is the whole mutate suite under coverage instrumentation: on a busy 2-core
  // machine it outlasts Stryker's default of 5 minutes.
  dryRunTimeoutMinutes: 30,
};
