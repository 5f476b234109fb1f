import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { NATIVE_MODULES } from './cli/project.ts';

/**
 * The slowest files (by their wall time in `npm test`), slowest first: started first, they end while the
 * two workers still have short files to share. Without this a fresh clone (CI, where Vitest has no
 * timings of earlier runs) runs the largest files first, and the findability files, short to read but
 * slow to run, come last and lengthen the run.
 */
export const SLOWEST_FIRST = [
  'test/package/pack.test.ts',
  'test/ecosystem/openapi-tools.test.ts',
  'test/findability/field.test.ts',
  'test/findability/faults-b.test.ts',
  'test/findability/faults.test.ts',
  'test/findability/seeds.test.ts',
  'test/ecosystem/prism.test.ts',
  'test/generators/allSchemas.test.ts',
  'test/cli/run.test.ts',
  'test/parameters.test.ts',
  'test/robustness/live-target.test.ts',
  'test/reports/cli.test.ts',
  'test/robustness/field-profile.test.ts',
  'test/cli/pipe.test.ts',
  'test/robustness/misbehaving.test.ts',
];

/** Vitest's order (earlier timings, else file size) after the slowest files in the order above. */
class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = SLOWEST_FIRST.indexOf(relative(this.ctx.config.root, f.moduleId));
      return i === -1 ? SLOWEST_FIRST.length : i;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

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
    // One module graph per worker: a fresh process per file re-imported Vitest and the project's modules for
    // every test file, a large share of the run's time. So no test may change what another file's module
    // hands out: shared test data comes as a fresh copy per call (test/reports/sample.ts).
    isolate: false,
    server: { deps: { external: NATIVE_MODULES } },
    sequence: { sequencer: SlowestFirst },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
