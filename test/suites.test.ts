/** The suites as a whole: every MUST requirement carried by a test, test ids unique and stable. */
import { beforeAll, describe, expect, it } from 'vitest';
import { coverageOf, untestedMusts } from '../cli/requirements.ts';
import { collectTests } from '../cli/collect.ts';
import type { DeclaredTest } from '../cli/project.ts';
import { requirements } from '../schemas/requirements.ts';

let tests: DeclaredTest[];
beforeAll(async () => {
  tests = await collectTests();
}, 120_000);

describe('the conformance suites', () => {
  it('carry every MUST requirement of the catalogue in at least one test', () => {
    expect(untestedMusts(coverageOf(tests))).toEqual([]);
  });

  it('carry every SHOULD requirement too', () => {
    const coverage = coverageOf(tests);
    expect(requirements.filter((r) => r.level === 'SHOULD' && !coverage.get(r.id)?.tests.length).map((r) => r.id)).toEqual([]);
  });

  it('name every test by a requirement of the catalogue', () => {
    const known = new Set(requirements.map((r) => r.id));
    expect(tests.filter((t) => !known.has(t.requirement)).map((t) => t.id)).toEqual([]);
  });

  it('give every test a unique id', () => {
    const seen = new Map<string, string>();
    const clashes = tests.filter((t) => seen.has(t.id) || !seen.set(t.id, t.file)).map((t) => t.id);
    expect(clashes).toEqual([]);
  });

  it('keep seeds, timestamps and long generated numbers out of test titles', () => {
    // Ids are keys of results, expectation files and regression diffs: a number of 5 or more digits
    // in a title is a seed, a timestamp or a generated id.
    expect(tests.filter((t) => /\d{5,}/.test(t.id)).map((t) => t.id)).toEqual([]);
  });
});
