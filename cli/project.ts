/**
 * Where the project's parts are, for the commands that find the suites (collect.ts) and run them
 * (engine.ts), and for the configurations that load the project's modules.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root (suites/ lives there). */
export const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The extension of the project's modules where they run: .ts in the sources, .js compiled into dist/ (an installed package). */
export const MODULE_EXTENSION = import.meta.url.endsWith('.js') ? 'js' : 'ts';

/** Where the conformance suites are, relative to the project root. */
export const SUITE_GLOB = `suites/**/*.suite.${MODULE_EXTENSION}`;

/** Where the tests that change fixture objects are (on a target declaring `disposable`): run after every other suite. */
export const DISPOSABLE_SUITES = 'suites/disposable/';

/** Whether a suite file (a path or module id) is one of the tests that change fixture objects. */
export function isDisposableSuite(file: string): boolean {
  return file.replaceAll('\\', '/').includes(`/${DISPOSABLE_SUITES}`) || file.startsWith(DISPOSABLE_SUITES);
}

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
