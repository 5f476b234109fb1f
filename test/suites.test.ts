/** The suites as a whole: every MUST requirement carried by a test, test ids unique and stable, each test in its family's folder. */
import { beforeAll, describe, expect, it } from 'vitest';
import { coverageOf, untestedMusts } from '../cli/requirements.ts';
import { collectTests } from '../cli/collect.ts';
import type { DeclaredTest } from '../cli/project.ts';
import { requirements } from '../schemas/requirements.ts';

/**
 * Where tests go. A suite folder named by a requirement family holds that family's tests; a folder named by how its tests
 * judge holds any family's. Exceptions, each said at the top of its file: ENV-08 (no server error) sits with the requests
 * it probes, and a test that judges by a folder's own reading of the fixture sits with that reading.
 */
const FAMILY_FOLDERS: Record<string, string> = {
  delete: 'DEL',
  envelope: 'ENV',
  files: 'FIL',
  filtering: 'FLT',
  folders: 'FLD',
  multichannel: 'MCH',
  negative: 'NEG',
  pages: 'PGE',
  paging: 'PAG',
  sorting: 'SRT',
  uploads: 'UPL',
  usage: 'USE',
  wastebin: 'WST',
};
/** Folders grouped by how their tests judge, whatever the family. */
const METHOD_FOLDERS: Record<string, string> = {
  operations: 'one test per operation of the catalogue (OP-), by its generated valid requests',
  records: "the target's own records read against what contract 2 says they hold",
  stateful: 'random command sequences judged by one model',
  disposable: 'what only fixture objects can show, changed on a target declaring disposable; run after every other suite',
};
/** Tests outside their family's folder because they judge by that folder's reading of the fixture, by test id. */
const WITH_THEIR_READING = new Set([
  "FLD-09 the folder getPages adds to a page is the folder on the page's path",
  'FLT-09 every page getPages lists for a language without fallback carries that language',
  'WST-01 a deleted file that used another leaves the usage list of the file it used',
  'WST-01 syncableObjects leaves out a deleted page that a given file links',
  'FIL-01 a copy of a file with object tags is a new file whose tags carry numeric ids',
]);

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

  it("keep every test in its family's folder, or under a stated exception", () => {
    const misplaced = tests.filter((t) => {
      const folder = t.file.split(/[\\/]/)[1] ?? '';
      if (folder in METHOD_FOLDERS) return false;
      const family = FAMILY_FOLDERS[folder];
      if (family === undefined) return true;
      return t.requirement.split('-')[0] !== family && t.requirement !== 'ENV-08' && !WITH_THEIR_READING.has(t.id);
    });
    expect(misplaced.map((t) => `${t.file}: ${t.id}`)).toEqual([]);
  });
});
