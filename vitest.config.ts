import { defineConfig } from 'vitest/config';

// The project's own tests (test/). The conformance suites (suites/) are run by `cms-conformance run`
// with their own programmatic configuration, against a target, never by `npm test` directly.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
