import { defineConfig } from 'vitest/config';

// The project's own tests (test/). The conformance suites (suites/) are run by `cms-conformance run`
// with their own programmatic configuration, against a target, never by `npm test` directly.
export default defineConfig({
  test: {
    // Transformed modules kept on disk (node_modules/.experimental-vitest-cache), as the suite engine does.
    experimental: { fsModuleCache: true },
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // Two cores: the default (cores - 1) runs the files one at a time, and many of them wait on servers and timers.
    maxWorkers: 2,
    // One module graph per worker: a fresh process per file re-imported Vitest and the project's modules
    // 76 times (47 s of import time in a 5.5-minute run). No test file relies on a module state of its own.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
