// The suite of `npm run mutate:units`: the unit, property and oracle tests only, for the modules
// whose logic those tests pin (the comparison's statistics, the journal's reader and records).
// The in-process end-to-end files of vitest.mutate.config.ts cover nearly every module, so
// under perTest coverage they run against each of these mutants too: the whole list took
// about 3 h 45 min that way on a 2-core machine (docs/decisions/2026-11-26-mutation-testing.md).
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// As in vitest.mutate.config.ts: a runner killed on a hanging mutant leaves its files in the sandbox.
process.env.TMPDIR = resolve('tmp');
mkdirSync(process.env.TMPDIR, { recursive: true });

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/unit/**/*.test.ts', 'test/property/**/*.test.ts', 'test/oracle/**/*.test.ts'],
    exclude: ['test/unit/quick-accept.test.ts'],
    reporters: ['default'],
    env: { FCAST_FUZZ_RUNS: '50', FCAST_MUTATING: '1' },
  },
});
