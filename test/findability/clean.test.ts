/**
 * The suite never fails a correct server: the clean reference server passes the whole suite under
 * several seeds, and every harmless variation (refusals as 200, extra or reordered members,
 * deleted {at: 0}, code point name order) passes the tests of the requirements it touches.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ProofCase } from '../../cli/prove.ts';
import { variations } from '../../server/variations.ts';
import { caseOf, runProve } from './prove.ts';

const seeds = [11, 12];
let cases: ProofCase[] = [];
let output = '';
beforeAll(async () => {
  ({ cases, output } = await runProve(['--no-faults', '--clean-seeds', seeds.join(','), '--seed', '3', '--runs', '10']));
}, 1_200_000);

describe('correct servers pass', () => {
  it.each(seeds)('the clean reference server passes the whole suite with seed %i', (seed) => {
    const c = caseOf(cases, `clean seed ${seed}`, output);
    expect(c.ok, c.detail).toBe(true);
    expect(c.tests).toBeGreaterThan(100);
  });

  it.each(variations.map((v) => v.name))('the harmless variation %s passes', (name) => {
    const c = caseOf(cases, name, output);
    expect(c.ok, c.detail).toBe(true);
    expect(c.tests).toBeGreaterThan(0);
  });
});
