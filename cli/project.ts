/**
 * Where the project's parts are, for the commands that find the suites (collect.ts) and run them
 * (engine.ts), and for the configurations that load the project's modules.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as Engine from './engine.ts';

/** The project root (suites/ lives there). */
export const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The extension of the project's modules where they run: .ts in the sources, .js compiled into dist/ (an installed package). */
export const MODULE_EXTENSION = import.meta.url.endsWith('.js') ? 'js' : 'ts';

/** Where the conformance suites are, relative to the project root. */
export const SUITE_GLOB = `suites/**/*.suite.${MODULE_EXTENSION}`;

/**
 * Project modules that Node imports itself, past Vite's transform: the precompiled validators
 * (schemas/validators.js), which have nothing to transform and which, transformed with a source map,
 * would cost every worker memory for nothing.
 */
export const NATIVE_MODULES = [/\/schemas\/validators\.js$/];

/** One declared conformance test: its stable id, requirement and suite file. */
export interface DeclaredTest {
  id: string;
  requirement: string;
  file: string;
}

/** How this process imports Vitest's node API: natively unless the CLI's launcher says otherwise (setVitestImport). */
let importVitest: () => Promise<unknown> = () => import('vitest/node');
/** The engine once loadEngine has been asked for it. */
let engine: Promise<typeof Engine> | undefined;

/**
 * Sets how Vitest's node API is imported before the suite engine. A checkout runs its sources through tsx,
 * whose loader makes Vitest's hundreds of modules about three times dearer to load; the launcher
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
