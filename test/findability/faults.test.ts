/**
 * Every planted fault of the reference server is found by the tests of the requirements it breaks
 * (with a finding on one of those ids). A fault the suite does not catch is a hole in the suite:
 * close it, don't delete the fault. The catalogue is split in halves run by two files in parallel.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { faults } from '../../server/faults.ts';
import type { ProofCase } from '../../cli/prove.ts';
import { caseOf, runProve } from './prove.ts';

const half = process.env.CMS_FINDABILITY_HALF === 'b' ? 1 : 0;
export const names = faults.map((f) => f.name).filter((_, i) => i % 2 === half);

let cases: ProofCase[] = [];
let output = '';
beforeAll(async () => {
  ({ cases, output } = await runProve(['--no-variations', '--seed', '1', '--runs', '10', ...names.flatMap((n) => ['--fault', n])]));
}, 1_200_000);

describe(`planted faults (${half ? 'second' : 'first'} half)`, () => {
  it.each(names)('%s is found by the tests of the requirements it breaks', (name) => {
    const c = caseOf(cases, name, output);
    expect(c.ok, c.detail).toBe(true);
  });
});
