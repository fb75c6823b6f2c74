// `npm run mutate:units`: the comparison's statistics and the journal's reader and records,
// mutated against the unit, property and oracle tests alone (vitest.mutate-units.config.ts).
// One module at a time fits a session and leaves its figures when it ends (Stryker writes them
// only at the end of a run): `npm run mutate:units -- --mutate src/evidence/compare/holm.ts`.
// @ts-check
import base from './stryker.config.mjs';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...base,
  vitest: { configFile: 'vitest.mutate-units.config.ts', related: true },
  mutate: [
    ...['scores', 'diebold-mariano', 'student-t', 'bootstrap', 'holm', 'lags', 'corp', 'murphy'].map(
      (m) => `src/evidence/compare/${m}.ts`,
    ),
    'src/journal/fast-lines.ts',
    'src/journal/record.ts',
  ],
  incrementalFile: 'reports/stryker-units-incremental.json',
  htmlReporter: { fileName: 'reports/mutation-units/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation-units/mutation.json' },
};
