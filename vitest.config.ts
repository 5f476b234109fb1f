import { defineConfig } from 'vitest/config';

// The project's own tests (test/). The conformance suites (suites/) are run by `cms-conformance run`
// with their own programmatic configuration, against a target, never by `npm test` directly.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // Two cores: the default (cores - 1) runs the files one at a time, and many of them wait on servers and timers.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
