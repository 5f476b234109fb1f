/**
 * The shared contract beside the repository (../shared/contract): CI has it, a clone of the project alone
 * has not, and the tests that compare with it skip there, saying why.
 */
import { existsSync, readFileSync } from 'node:fs';

const sharedDir = new URL('../../../shared/contract/', import.meta.url);

/** Whether ../shared/contract is there. */
export const hasShared = existsSync(sharedDir);

/** Why a comparison with the shared contract skips: the reason a skipped test gives. */
export const SHARED_ABSENT = '../shared/contract is absent: the comparison with it runs in CI';

/** A file of the shared contract, or '' where the folder is absent. */
export function readShared(name: string): string {
  return hasShared ? readFileSync(new URL(name, sharedDir), 'utf8') : '';
}
