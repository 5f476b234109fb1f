/**
 * The verdict does not depend on the seed (issue 50): the clean reference server and all variations at once (one
 * answer per open choice of schemas/open-choices.json) pass the tests of a sample of the requirements whose tests
 * carry properties, under seeds 1 to 20. A test whose outcome on a correct server depends on the seed is a defect of
 * the test. `prove --seeds 20 --combined-only` without --only runs the whole suite so, before a release.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { COMBINED } from '../../cli/prove.ts';
import type { ProofCase } from '../../cli/prove-file.ts';
import { caseOf, runProve } from './prove.ts';

/**
 * Requirements whose tests draw generated requests or command sequences: paging, filters, names and contents,
 * disinherit settings, and the stateful sequences (PAG-07, FIL-02, FLD-06, WST-01, MCH-02, MCH-06).
 */
export const SEEDED_SAMPLE = [
  'PAG',
  'FLT-01',
  'FLT-02',
  'FLD-01',
  'FLD-02',
  'FIL',
  'UPL-01',
  'UPL-07',
  'MCH-02',
  'MCH-05',
  'MCH-06',
  'WST-01',
];

const SEEDS = Array.from({ length: 20 }, (_, i) => i + 1);

let cases: ProofCase[] = [];
let output = '';
beforeAll(async () => {
  ({ cases, output } = await runProve(['--no-faults', '--combined-only', '--seeds', '20', '--only', SEEDED_SAMPLE.join(',')]));
}, 1_200_000);

describe('a correct server passes under every seed', () => {
  it.each(SEEDS)('the clean reference server passes the sample with seed %i', (seed) => {
    const c = caseOf(cases, `clean seed ${seed}`, output);
    expect(c.ok, c.detail).toBe(true);
    expect(c.tests).toBeGreaterThan(20);
    expect(c.unjudged).toEqual([]);
  });

  it.each(SEEDS)('all variations at once pass the sample with seed %i', (seed) => {
    // prove runs the combination under its own seed (1) by the plain name.
    const c = caseOf(cases, seed === 1 ? COMBINED : `${COMBINED} seed ${seed}`, output);
    expect(c.ok, c.detail).toBe(true);
    expect(c.tests).toBeGreaterThan(20);
  });
});
