/**
 * Every planted fault of the reference server is found by the tests of the requirements it breaks: a
 * test carrying one of its ids fails (or warns on its own SHOULD id), not a neighbour's finding. And
 * every requirement id other than the OP ids has a planted fault that its own tests kill (issue 15: a
 * test that has never failed is a claim, not a check). A fault the suite does not catch is a hole in
 * the suite: close it, don't delete the fault. The catalogue is split in halves run by two files in
 * parallel, every fault naming an id in the same half, so each half judges its ids by itself;
 * coverage.test.ts checks that every id has a fault at all.
 *
 * And the suite never fails a correct server: the clean reference server and all variations at once
 * (one answer per open choice of schemas/open-choices.json) pass the whole suite under several seeds
 * (with the second half), and every variation alone passes the tests its open choice names (with the
 * first half; `prove` without --choice-tests-only runs each on the whole suite, before a release). They
 * share the halves' prove runs: a variation's tests then share a suite run with faults' tests.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { declaredTests } from '../../cli/collect.ts';
import type { DeclaredTest } from '../../cli/project.ts';
import type { ProofCase } from '../../cli/prove-file.ts';
import { COMBINED } from '../../cli/prove.ts';
import { faults } from '../../server/faults.ts';
import { variations } from '../../server/variations.ts';
import { caseOf, faultHalves, runProve } from './prove.ts';

/** The correct servers a half's prove run carries beside its faults. */
export interface CorrectServers {
  /** Seeds under which the clean reference server and all variations at once run the whole suite. */
  seeds?: number[];
  /** Whether each variation runs alone, on the tests its open choice names (they pack into the faults' suite runs). */
  variations?: boolean;
}

/** Declares the findability tests of one half of the fault catalogue (0: first, 1: second) and of the correct servers it carries. */
export function provesHalf(half: 0 | 1, correct: CorrectServers): void {
  const mine = faultHalves(faults)[half];
  const names = mine.map((f) => f.name);
  /** The ids that must be proven by their own tests: every non-OP id whose faults lie in this half. */
  const named = [...new Set(mine.flatMap((f) => f.breaks))].sort();
  const judged = named.filter((id) => !id.startsWith('OP-'));
  const seeds = correct.seeds ?? [];

  let cases: ProofCase[] = [];
  let output = '';
  let declared: DeclaredTest[] = [];
  beforeAll(async () => {
    const args = [
      ...(correct.variations ? ['--choice-tests-only'] : ['--combined-only']),
      ...(seeds.length ? ['--seeds', seeds.join(',')] : []),
      ...['--seed', '1', '--runs', '10'],
      ...names.flatMap((n) => ['--fault', n]),
    ];
    ({ cases, output } = await runProve(args));
    // The test index prove wrote for these sources: collecting the suites again here would start Vitest inside Vitest.
    declared = await declaredTests(() => Promise.reject(new Error(`prove wrote no test index; it said:\n${output.slice(-2000)}`)));
  }, 1_200_000);

  describe('correct servers pass', () => {
    it.each(seeds)('the clean reference server passes the whole suite with seed %i', (seed) => {
      const c = caseOf(cases, `clean seed ${seed}`, output);
      expect(c.ok, c.detail).toBe(true);
      expect(c.tests).toBeGreaterThan(100);
      // The bundled fixture has data for every test: none may say it had nothing to judge (test/robustness/sparse-fixture.test.ts).
      expect(c.unjudged).toEqual([]);
    });

    it.each(seeds)('all variations at once pass the whole suite with seed %i', (seed) => {
      const c = caseOf(cases, `${COMBINED} seed ${seed}`, output);
      expect(c.ok, c.detail).toBe(true);
      expect(c.tests).toBeGreaterThan(100);
    });

    it.each(correct.variations ? variations.map((v) => v.name) : [])('the variation %s passes the tests of its open choice', (name) => {
      const c = caseOf(cases, name, output);
      expect(c.ok, c.detail).toBe(true);
      expect(c.tests).toBeGreaterThan(0);
    });

    it.runIf(correct.variations)('all variations at once pass the whole suite', () => {
      const c = caseOf(cases, COMBINED, output);
      expect(c.ok, c.detail).toBe(true);
      expect(c.tests).toBeGreaterThan(100);
    });
  });

  describe(`planted faults (${half ? 'second' : 'first'} half)`, () => {
    it.each(names)('%s is found by a test carrying one of the requirements it breaks', (name) => {
      const c = caseOf(cases, name, output);
      expect(c.ok, c.detail).toBe(true);
      const by = Object.entries(c.provedBy ?? {});
      expect(by.length, `${name}: no test of ${c.requirements.join(', ')} found it (${c.detail})`).toBeGreaterThan(0);
      // The proving test carries the id it proves (test names start with their requirement id).
      for (const [id, test] of by) expect(test.startsWith(`${id} `), `${name}: ${id} proven by ${test}`).toBe(true);
      // Every test that found it is recorded, the proving ones among them, and each carries one of its ids.
      expect(c.killed).toEqual(expect.arrayContaining(by.map(([, test]) => test)));
      for (const test of c.killed ?? []) expect(c.requirements, `${name}: killed by ${test}`).toContain(test.split(' ')[0]);
    });

    // A test is proven only when a planted fault of its own requirement makes it fail, not when a sibling test of the id does.
    it.each(named)('every test of %s fails under one of its planted faults', (id) => {
      const own = mine.filter((f) => f.breaks.includes(id)).map((f) => caseOf(cases, f.name, output));
      const killed = new Set(own.flatMap((c) => c.killed ?? []));
      const tests = declared.filter((t) => t.requirement === id);
      expect(tests.length, `no test carries ${id}`).toBeGreaterThan(0);
      expect(
        tests.map((t) => t.id).filter((t) => !killed.has(t)),
        `tests of ${id} that none of its planted faults (${own.map((c) => c.name).join(', ')}) made fail: plant one that each of them finds`,
      ).toEqual([]);
    });

    it.each(judged)('%s has a planted fault that its own tests kill', (id) => {
      const named = mine.filter((f) => f.breaks.includes(id)).map((f) => caseOf(cases, f.name, output));
      const killers = named.filter((c) => c.provedBy?.[id] !== undefined).map((c) => c.name);
      expect(
        killers,
        `no fault naming ${id} is killed by a test of ${id}: ${named.map((c) => `${c.name} (${c.detail})`).join('; ')}`,
      ).not.toEqual([]);
    });
  });
}
