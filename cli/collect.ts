/** The conformance tests the suites declare, collected without running them (for coverage and dry runs). */
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createVitest } from 'vitest/node';

/** The project root (suites/ lives there). */
export const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Where the conformance suites are, relative to the project root. */
export const SUITE_GLOB = 'suites/**/*.suite.ts';

/** One declared conformance test: its stable id, requirement and suite file. */
export interface DeclaredTest {
  id: string;
  requirement: string;
  file: string;
}

/** Collects every conformance test of the suites (imports them, runs no test body, sends nothing). */
export async function collectTests(): Promise<DeclaredTest[]> {
  const vitest = await createVitest('test', {
    config: false,
    root: projectRoot,
    include: [SUITE_GLOB],
    watch: false,
    reporters: [],
    passWithNoTests: true,
    // Collection imports every suite file: in two unisolated threads, not a process per file.
    pool: 'threads',
    isolate: false,
    maxWorkers: 2,
  });
  try {
    const { testModules, unhandledErrors } = await vitest.collect();
    if (unhandledErrors.length)
      throw new Error(`the suites do not load: ${unhandledErrors.map((e) => (e as Error).message ?? String(e)).join('; ')}`);
    const tests: DeclaredTest[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        tests.push({ id: test.name, requirement: test.name.split(' ')[0] ?? '', file: relative(projectRoot, module.moduleId) });
      }
    }
    return tests.sort((a, b) => a.id.localeCompare(b.id));
  } finally {
    await vitest.close();
  }
}
