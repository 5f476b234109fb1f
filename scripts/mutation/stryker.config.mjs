// @ts-check
/**
 * `npm run mutation`: Stryker's mutants of the reference server's contract logic, each run through
 * the conformance suites (only the tests that reached it: per-test coverage, the server running in the
 * Vitest worker). Mutants of planted-fault code are ignored (ignorers.mjs). Reports go to
 * reports/out/mutation/; scripts/mutation/score.ts reads them against the classified survivors.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
const config = {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner', './scripts/mutation/ignorers.mjs'],
  ignorers: ['planted-faults', 'refusal-details'],
  vitest: { configFile: 'scripts/mutation/vitest.config.ts', related: false },
  coverageAnalysis: 'perTest',
  // server/handlers/planted/ holds a handler's planted faults and variations behind its seam (CONTRIBUTING): fault code
  // through and through, which the planted-faults ignorer would skip switch by switch in a handler file.
  mutate: ['server/handlers/**/*.ts', '!server/handlers/planted/**', 'server/state.ts', 'server/app.ts', 'server/coerce.ts'],
  // What the suites and the server need in the sandbox copy; reports and caches stay out.
  ignorePatterns: ['reports/out', '.stryker-tmp', 'test', '.git'],
  reporters: ['html', 'json', 'progress'],
  htmlReporter: { fileName: 'reports/out/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/out/mutation/mutation.json' },
  incrementalFile: 'reports/out/mutation/incremental.json',
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  concurrency: 2,
  // The suites' own timeouts bound a hung request; a mutant that loops is cut by Stryker's. Generous, since a
  // mutant's tests slowed by a busy machine would otherwise count as killed by timeout (BENCHMARKS 2026-11-27).
  timeoutMS: 20_000,
  timeoutFactor: 3,
  thresholds: { high: 95, low: 80, break: null },
};
export default config;
