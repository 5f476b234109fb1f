/** The conformance tests the suites declare, collected without running them (for coverage and dry runs). */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root (suites/ lives there). */
export const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Where the conformance suites are, relative to the project root. */
export const SUITE_GLOB = 'suites/**/*.suite.ts';

/**
 * Project modules that Node imports itself, past Vite's transform: the precompiled validators
 * (schemas/validators.js), which have nothing to transform, and whose 600 KB and source map cost every
 * worker about 10 MB when transformed (a default run peaked at 410 MiB instead of 390).
 */
export const NATIVE_MODULES = [/\/schemas\/validators\.js$/];

/** One declared conformance test: its stable id, requirement and suite file. */
export interface DeclaredTest {
  id: string;
  requirement: string;
  file: string;
}

/** Collects every conformance test of the suites (imports them, runs no test body, sends nothing). */
export async function collectTests(): Promise<DeclaredTest[]> {
  // Imported here: the engine imports this module for the project root and the suite glob.
  const { SuiteEngine } = await import('./engine.ts');
  const engine = await SuiteEngine.create({ workers: 2, progress: null });
  try {
    return await engine.collect();
  } finally {
    await engine.close();
  }
}
