import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  applyExpectations,
  expectationNotes,
  loadExpectations,
  validateExpectations,
  verdictOf,
  writeExpectations,
  type Expectations,
} from '../../reports/expectations.ts';
import { ReportInputError } from '../../reports/results.ts';
import { renderHtml } from '../../reports/html.ts';
import { renderJunit } from '../../reports/junit.ts';
import { renderMarkdown } from '../../reports/markdown.ts';
import { nothingToJudge, sampleResults } from './sample.ts';

const dir = mkdtempSync(join(tmpdir(), 'cms-expectations-'));

const file: Expectations = {
  'PAG-02 pageSize 0 returns no items': {
    expected: 'FAIL',
    reason: 'pageSize 0 means unlimited on this server',
    issue: 'https://tracker.example/CMS-12',
    until: '2027-06-30',
  },
  'OP-folder.load a valid request gets 200 and a FolderLoadResponse': { expected: 'FAIL', reason: 'fixed in 5.2' },
  'UPL-01 multipart create keeps the bytes': { expected: 'FAIL', reason: 'upload bug', until: '2026-02-28' },
  'MCH-01 master objects appear in the channel': { expected: 'FAIL', reason: 'no channel yet' },
  'PAG-99 a test that was renamed': { expected: 'FAIL', reason: 'old' },
};

const applied = applyExpectations(sampleResults(), file, { file: 'expectations/vendor.json', today: '2026-03-01' });
const outcome = (id: string) => applied.tests.find((t) => t.id.startsWith(id))?.outcome;

describe('expectation files', () => {
  it('marks an expected failure, an unexpected pass, an expired entry and leaves skips alone', () => {
    expect(outcome('PAG-02')).toBe('expected-fail');
    expect(outcome('OP-folder.load')).toBe('unexpected-pass');
    expect(outcome('UPL-01')).toBe('expired');
    expect(outcome('MCH-01')).toBeUndefined();
    expect(outcome('PAG-01')).toBeUndefined();
    expect(applied.tests.find((t) => t.id.startsWith('PAG-02'))?.expectation).toEqual({
      reason: 'pageSize 0 means unlimited on this server',
      issue: 'https://tracker.example/CMS-12',
      until: '2027-06-30',
    });
  });

  it('counts the outcomes and names the stale ids in the summary, keeping the raw counts', () => {
    expect(applied.summary.expectations).toEqual({
      file: 'expectations/vendor.json',
      expectedFailures: 1,
      unexpectedPasses: 1,
      expired: 1,
      flaky: 0,
      stale: ['PAG-99 a test that was renamed'],
    });
    expect(applied.summary.failed).toBe(3);
  });

  it('prints a note for each unexpected pass, expired entry and stale id', () => {
    const notes = expectationNotes(applied).join('\n');
    expect(notes).toContain('1 failure expected by expectations/vendor.json');
    expect(notes).toContain('unexpected pass: OP-folder.load a valid request gets 200 and a FolderLoadResponse');
    expect(notes).toContain('expired: UPL-01 multipart create keeps the bytes (until 2026-02-28)');
    expect(notes).toContain('stale: PAG-99 a test that was renamed');
  });

  it('exits 0 only when every failure is expected and unexpired', () => {
    expect(verdictOf(sampleResults()).exitCode).toBe(1);
    expect(verdictOf(applied).exitCode).toBe(1);
    const all: Expectations = Object.fromEntries(
      sampleResults()
        .tests.filter((t) => t.status === 'failed')
        .map((t) => [t.id, { expected: 'FAIL', reason: 'known' }]),
    );
    const excused = applyExpectations(sampleResults(), all, { file: 'f.json', today: '2026-03-01' });
    expect(verdictOf(excused)).toEqual({
      exitCode: 0,
      text: 'the target fails only what its expectation file expects (3 expected failures)',
    });
    // An expectation valid through its `until` day expires the day after.
    const dated = (today: string) =>
      applyExpectations(
        sampleResults(),
        { ...all, 'UPL-01 multipart create keeps the bytes': { expected: 'FAIL', reason: 'r', until: '2026-03-01' } },
        { file: 'f.json', today },
      );
    expect(verdictOf(dated('2026-03-01')).exitCode).toBe(0);
    expect(verdictOf(dated('2026-03-02')).exitCode).toBe(1);
  });

  it('a conforming verdict counts the tests that had none of the target data to judge', () => {
    const passing = sampleResults().tests.filter((t) => t.status !== 'failed');
    expect(verdictOf(sampleResults(passing)).text).toBe('the target conforms to every requirement tested');
    const nothing = nothingToJudge('PGE-01');
    const unjudged = passing.map((t) => (t.status === 'passed' ? { ...t, findings: [...t.findings, nothing] } : t));
    const n = unjudged.filter((t) => t.status === 'passed').length;
    expect(n).toBeGreaterThan(1);
    expect(verdictOf(sampleResults(unjudged))).toEqual({
      exitCode: 0,
      text: `the target conforms to every requirement tested; ${n} tests had none of its own data to judge (see their warnings)`,
    });
  });

  it('an unexpected pass alone does not fail the run', () => {
    const results = applyExpectations(
      sampleResults(sampleResults().tests.filter((t) => t.status !== 'failed')),
      { 'OP-folder.load a valid request gets 200 and a FolderLoadResponse': { expected: 'FAIL', reason: 'r' } },
      { file: 'f.json' },
    );
    expect(results.summary.expectations?.unexpectedPasses).toBe(1);
    expect(verdictOf(results).exitCode).toBe(0);
  });

  it('a pass with nothing to judge is no unexpected pass: the expectation stays', () => {
    const id = 'OP-folder.load a valid request gets 200 and a FolderLoadResponse';
    const nothing = nothingToJudge('OP-folder.load');
    const tests = sampleResults().tests.map((t) => (t.id === id ? { ...t, status: 'passed' as const, findings: [nothing] } : t));
    const results = applyExpectations(sampleResults(tests), { [id]: { expected: 'FAIL', reason: 'r' } }, { file: 'f.json' });
    expect(results.tests.find((t) => t.id === id)?.outcome).toBeUndefined();
    expect(results.summary.expectations?.unexpectedPasses).toBe(0);
  });

  it('applying a second file replaces the first', () => {
    const again = applyExpectations(applied, {}, { file: 'empty.json' });
    expect(again.tests.some((t) => t.expected || t.outcome || t.expectation)).toBe(false);
    expect(again.summary.expectations).toEqual({
      file: 'empty.json',
      expectedFailures: 0,
      unexpectedPasses: 0,
      expired: 0,
      flaky: 0,
      stale: [],
    });
  });

  it('a flaky entry allows either outcome: its failure does not fail the run, and every report lists it', () => {
    const flaky: Expectations = {
      'PAG-01 without pageSize every item comes back': {
        expected: ['PASS', 'FAIL'],
        reason: 'paging default differs between nodes',
        seeds: { PASS: [7], FAIL: [20260101] },
      },
      'OP-folder.load a valid request gets 200 and a FolderLoadResponse': { expected: ['PASS', 'FAIL'], reason: 'r' },
      'PAG-02 pageSize 0 returns no items': { expected: 'FAIL', reason: 'r' },
      'UPL-01 multipart create keeps the bytes': { expected: 'FAIL', reason: 'r' },
    };
    const results = applyExpectations(sampleResults(), flaky, { file: 'f.json', today: '2026-03-01' });
    const of = (id: string) => results.tests.find((t) => t.id.startsWith(id));
    expect([of('PAG-01')?.outcome, of('PAG-01')?.expected, of('OP-folder.load')?.outcome]).toEqual(['flaky', 'FLAKY', 'flaky']);
    expect(results.summary.expectations).toMatchObject({ expectedFailures: 2, unexpectedPasses: 0, flaky: 2 });
    expect(verdictOf(results)).toEqual({
      exitCode: 0,
      text: 'the target fails only what its expectation file expects (2 expected failures, 1 flaky failure)',
    });
    expect(expectationNotes(results)).toContain(
      'expectations: flaky: PAG-01 without pageSize every item comes back failed (either outcome allowed by f.json)',
    );
    expect(expectationNotes(results)).toContain(
      'expectations: flaky: OP-folder.load a valid request gets 200 and a FolderLoadResponse passed (either outcome allowed by f.json)',
    );
    const md = renderMarkdown(results);
    expect(md).toContain('| ➖ flaky | PAG-01 without pageSize every item comes back |');
    expect(md).toContain('### Flaky tests (2): either outcome allowed by the expectation file');
    expect(md).toContain('Expectations (f.json): 2 expected failures, 0 unexpected passes, 0 expired entries, 2 flaky tests, 0 stale ids.');
    expect(renderJunit(results)).toMatch(
      new RegExp(
        'name="PAG-01 without pageSize every item comes back"[^]*?' +
          '<skipped message="flaky test failed: paging default differs between nodes">',
      ),
    );
    expect(renderHtml(results)).toContain('FAIL (flaky)');
  });

  it('a flaky entry past its end date counts its failure again', () => {
    const results = applyExpectations(
      sampleResults(),
      { 'PAG-01 without pageSize every item comes back': { expected: ['PASS', 'FAIL'], reason: 'r', until: '2026-02-01' } },
      { file: 'f.json', today: '2026-03-01' },
    );
    expect(results.tests.find((t) => t.id.startsWith('PAG-01'))?.outcome).toBe('expired');
    expect(verdictOf(results).exitCode).toBe(1);
  });

  it.each([
    ['a list instead of an object', [], /^x\.json: the file must be object$/],
    ['an entry that is not an object', { 'PAG-01 a': 'FAIL' }, /^x\.json: \/PAG-01 a must be object, got "FAIL"$/],
    [
      'expected other than FAIL',
      { 'PAG-01 a': { expected: 'PASS', reason: 'r' } },
      /^x\.json: \/PAG-01 a\/expected must be "FAIL" or \["PASS", "FAIL"\], got "PASS"$/,
    ],
    [
      'a flaky entry with one outcome',
      { 'PAG-01 a': { expected: ['FAIL'], reason: 'r' } },
      /^x\.json: \/PAG-01 a\/expected must be "FAIL" or \["PASS", "FAIL"\]$/,
    ],
    ['a missing reason', { 'PAG-01 a': { expected: 'FAIL' } }, /^x\.json: \/PAG-01 a\/reason is missing$/],
    [
      'an empty reason',
      { 'PAG-01 a': { expected: 'FAIL', reason: ' ' } },
      /^x\.json: \/PAG-01 a\/reason must be a non-empty string, got " "$/,
    ],
    [
      'a reason of the wrong type',
      { 'PAG-01 a': { expected: 'FAIL', reason: 42 } },
      /^x\.json: \/PAG-01 a\/reason must be a non-empty string, got 42$/,
    ],
    [
      'an impossible date',
      { 'PAG-01 a': { expected: 'FAIL', reason: 'r', until: '2027-02-30' } },
      /\/until must be a date YYYY-MM-DD, got "2027-02-30"$/,
    ],
    [
      'an issue that is not a URL',
      { 'PAG-01 a': { expected: 'FAIL', reason: 'r', issue: 'CMS-12' } },
      /\/issue must be an http\(s\) URL, got "CMS-12"$/,
    ],
    [
      'seeds that are not integers',
      { 'PAG-01 a': { expected: ['PASS', 'FAIL'], reason: 'r', seeds: { PASS: ['7'] } } },
      /^x\.json: \/PAG-01 a\/seeds\/PASS\/0 must be integer, got "7"$/,
    ],
    [
      'an unknown member',
      { 'PAG-01 a': { expected: 'FAIL', reason: 'r', until_: '2027-01-01' } },
      /^x\.json: \/PAG-01 a\/until_ is not a known member$/,
    ],
  ])('rejects %s with one line naming the file and the member', (_what, data, message) => {
    expect(() => validateExpectations(data, 'x.json')).toThrow(ReportInputError);
    expect(() => validateExpectations(data, 'x.json')).toThrow(message);
  });

  it('reports a missing file and broken JSON with the file name', () => {
    expect(() => loadExpectations(join(dir, 'missing.json'))).toThrow(/cannot read the expectation file .*missing\.json: ENOENT/);
    writeFileSync(join(dir, 'broken.json'), '{"a": ');
    expect(() => loadExpectations(join(dir, 'broken.json'))).toThrow(/broken\.json is not valid JSON/);
  });

  it('writes files with sorted keys that load back unchanged', () => {
    const path = join(dir, 'sorted.json');
    writeExpectations(path, file);
    expect(Object.keys(JSON.parse(readFileSync(path, 'utf8')))).toEqual(Object.keys(file).sort());
    expect(loadExpectations(path)).toEqual(file);
  });

  it('the reference server expects nothing to fail', () => {
    expect(loadExpectations(new URL('../../expectations/reference.json', import.meta.url).pathname)).toEqual({});
  });
});
