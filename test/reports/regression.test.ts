import { describe, expect, it } from 'vitest';
import { compareResults, renderRegressionMarkdown, renderRegressionText, seedNote } from '../../reports/regression.ts';
import type { TestResult } from '../../schemas/results.ts';
import { nothingToJudge, sampleResults, sampleTests } from './sample.ts';

function withStatus(tests: TestResult[], changes: Record<string, TestResult['status'] | 'absent'>): TestResult[] {
  return tests.flatMap((t) => {
    const key = Object.keys(changes).find((k) => t.id.startsWith(k));
    const status = key ? changes[key] : undefined;
    if (status === 'absent') return [];
    return [status ? { ...t, status } : t];
  });
}

// Baseline: PAG-01, PAG-02, UPL-01 fail. Now: PAG-02 passes, OP-folder.load fails, UPL-01 is not run.
const baseline = sampleResults();
const current = sampleResults(withStatus(sampleTests(), { 'PAG-02': 'passed', 'OP-folder.load': 'failed', 'UPL-01': 'absent' }));
const regression = compareResults(baseline, current);
const ids = (list: { id: string }[]) => list.map((e) => e.id);

describe('regression against a baseline', () => {
  it('sorts tests into new failures, fixed, still failing and not run now', () => {
    expect(ids(regression.tests.newFailures)).toEqual(['OP-folder.load a valid request gets 200 and a FolderLoadResponse']);
    expect(ids(regression.tests.fixed)).toEqual(['PAG-02 pageSize 0 returns no items']);
    expect(ids(regression.tests.stillFailing)).toEqual(['PAG-01 without pageSize every item comes back']);
    expect(ids(regression.tests.notRunNow)).toEqual(['UPL-01 multipart create keeps the bytes']);
  });

  it('does not call a failure fixed when the test now passes with nothing to judge: nobody knows', () => {
    const nothing = nothingToJudge('PAG-02');
    const now = sampleResults(
      withStatus(sampleTests(), { 'PAG-02': 'passed' }).map((t) => (t.id.startsWith('PAG-02') ? { ...t, findings: [nothing] } : t)),
    );
    const compared = compareResults(sampleResults(), now);
    expect(ids(compared.tests.fixed)).toEqual([]);
    expect(ids(compared.tests.notRunNow)).toContain('PAG-02 pageSize 0 returns no items');
    expect(ids(compared.requirements.fixed)).toEqual([]);
    expect(ids(compared.requirements.notRunNow)).toContain('PAG-02');
  });

  it('does the same by requirement id', () => {
    expect(ids(regression.requirements.newFailures)).toEqual(['OP-folder.load']);
    expect(ids(regression.requirements.fixed)).toEqual(['PAG-02']);
    expect(ids(regression.requirements.stillFailing)).toEqual(['PAG-01']);
    expect(ids(regression.requirements.notRunNow)).toEqual(['UPL-01']);
    // A requirement fails while any of its tests fails: one more failing test keeps it failing, not new.
    const more = sampleTests().map((t) => (t.id.startsWith('PAG-02') ? { ...t, requirement: 'PAG-01' } : t));
    const twice = compareResults(sampleResults(more), sampleResults(withStatus(more, { 'PAG-01': 'passed' })));
    expect(ids(twice.requirements.stillFailing)).toEqual(['PAG-01', 'UPL-01']);
    expect(twice.requirements.stillFailing[0]?.message).toMatch(/^PAG-02 pageSize 0 returns no items: items:/);
  });

  it('quotes the first finding of the failing side', () => {
    expect(regression.tests.stillFailing[0]?.message).toMatch(/^status: the body is not JSON/);
    expect(regression.tests.fixed[0]?.message).toBe('items: pageSize=0 returned 3 folders');
    expect(regression.requirements.stillFailing[0]?.message).toMatch(/^PAG-01 without pageSize every item comes back: status:/);
  });

  it('prints a count line and one line per changed test', () => {
    const lines = renderRegressionText(regression);
    expect(lines[0]).toBe(
      'regression against the baseline of 2026-03-01T10:00:00.000Z: 1 new failures, 1 fixed, 1 still failing, 1 not run now ' +
        '(requirements: 1 new, 1 fixed, 1 still failing)',
    );
    expect(lines.slice(1)).toEqual([
      '  NEW     OP-folder.load a valid request gets 200 and a FolderLoadResponse',
      '  FIXED   PAG-02 pageSize 0 returns no items',
      '  NOT RUN UPL-01 multipart create keeps the bytes',
    ]);
  });

  it('renders regression.md with a table per list, escaping server text', () => {
    const md = renderRegressionMarkdown(regression);
    expect(md).toContain('| New failures | 1 | 1 |');
    expect(md).toContain('## Still failing (tests)');
    expect(md).toContain('| PAG-01 without pageSize every item comes back | PAG-01 | status: the body is not JSON: &lt;script&gt;');
    expect(md).not.toContain('<script');
  });

  it('says when the baseline and this run used different seeds, and only then', () => {
    const reseeded = compareResults({ ...baseline, seed: 7, seedSource: 'given' }, { ...current, seed: 20260101, seedSource: 'default' });
    const note =
      'the baseline and this run used different seeds (baseline seed 7 (given), this run seed 20260101 (default)): ' +
      'a difference may come from the generated requests, not the target';
    expect(renderRegressionText(reseeded)).toContain(`  note: ${note}`);
    expect(renderRegressionMarkdown(reseeded)).toContain(
      '**Note:** the baseline and this run used different seeds (baseline seed 7 (given), this run seed 20260101 (default)): ' +
        'a difference may come',
    );
    expect(seedNote(regression)).toBeUndefined();
    expect(renderRegressionText(regression).join('\n')).not.toContain('different seeds');
    expect(renderRegressionMarkdown(regression)).not.toContain('different seeds');
  });

  it('finds nothing to report between a run and itself, except what still fails', () => {
    const same = compareResults(baseline, baseline);
    expect([same.tests.newFailures, same.tests.fixed, same.tests.notRunNow].flat()).toEqual([]);
    expect(same.tests.stillFailing).toHaveLength(3);
  });
});
