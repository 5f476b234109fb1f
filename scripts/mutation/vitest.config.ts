import { defineConfig } from 'vitest/config';
import { NATIVE_MODULES } from '../../cli/project.ts';
import { keptThreadsPlugin } from './kept-threads.ts';

// The conformance suites as plain Vitest tests, for Stryker's Vitest runner: each suite file against a
// reference server started in the worker (in-worker.ts), so that mutants of the server are switched
// on, and per-test coverage counted, where its code runs.
export default defineConfig({
  root: new URL('../..', import.meta.url).pathname,
  // The threads pool with its thread kept from one mutant's run to the next (kept-threads.ts).
  plugins: [keptThreadsPlugin()],
  test: {
    include: ['suites/**/*.suite.ts'],
    setupFiles: ['scripts/mutation/in-worker.ts'],
    // One module graph for the worker: the schemas compile once, not once per suite file.
    isolate: false,
    testTimeout: 120_000,
    hookTimeout: 60_000,
    server: { deps: { external: NATIVE_MODULES } },
  },
});
