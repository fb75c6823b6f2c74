import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    // One temporary directory per run, removed at its end: a run leaves /tmp as it found it.
    globalSetup: ['./test/helpers/temp-root.ts'],
    // Two cores: one fork per core keeps the loopback servers from starving each other.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // A test that asserts nothing passes whatever the code does: each must make at least one assertion.
    expect: { requireAssertions: true },
  },
});
