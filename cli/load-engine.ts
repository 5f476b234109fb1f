/**
 * Loading the suite engine (engine.ts) lazily, Vitest first, for the commands that run or collect the
 * suites. Apart from project.ts, which engine.ts imports, so that the two do not import each other.
 */
import type * as Engine from './engine.ts';

/** How this process imports Vitest's node API: natively unless the CLI's launcher says otherwise (setVitestImport). */
let importVitest: () => Promise<unknown> = () => import('vitest/node');
/** The engine once loadEngine has been asked for it. */
let engine: Promise<typeof Engine> | undefined;

/**
 * Sets how Vitest's node API is imported before the suite engine. A checkout runs its sources through tsx,
 * whose loader makes Vitest's hundreds of modules far dearer to load (BENCHMARKS.md); the launcher
 * (bin/cms-conformance.mjs) imports it with the loader set aside. Gives the way it replaces.
 */
export function setVitestImport(load: () => Promise<unknown>): () => Promise<unknown> {
  const before = importVitest;
  importVitest = load;
  engine = undefined;
  return before;
}

/**
 * The suite engine (engine.ts), Vitest loaded first the way this process loads it best. Only a command
 * that starts Vitest pays for it: a usage error, help, or a collection the test index answers loads none.
 */
export function loadEngine(): Promise<typeof Engine> {
  return (engine ??= importVitest().then(() => import('./engine.ts')));
}
