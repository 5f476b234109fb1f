/** The results format (schemas/results.ts, schemas/results/results.json) and the file schemas beside it in the one Ajv instance. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestCase } from 'vitest/node';
import { ResultCollector } from '../../reports/collector.ts';
import { renderMarkdown } from '../../reports/markdown.ts';
import { ReportInputError, exchangeTotals, loadResults, summarize, writeResults } from '../../reports/results.ts';
import { DATASET_FORMAT } from '../../server/dataset-format.ts';
import { FILE_SCHEMAS, fileProblem } from '../../schemas/files.ts';
import { fileSchemasById, getSchema, schemasById } from '../../schemas/index.ts';
import type { TestResult } from '../../schemas/results.ts';
import { FEATURES } from '../../schemas/target.ts';
import { sampleResults, sampleTests } from './sample.ts';

const dir = mkdtempSync(join(tmpdir(), 'cms-results-'));
let n = 0;

/** Writes a results.json built from the sample run, changed by `change`, and returns its path. */
function written(change: (raw: Record<string, unknown>) => void): string {
  const raw = JSON.parse(JSON.stringify(sampleResults())) as Record<string, unknown>;
  change(raw);
  const path = join(dir, `results-${++n}.json`);
  writeFileSync(path, JSON.stringify(raw));
  return path;
}

const counted = (over: Partial<TestResult>[]): TestResult[] => sampleTests().map((t, i) => ({ ...t, ...over[i] }));

describe('loadResults', () => {
  it('reads back what writeResults wrote, findings and exchanges included', () => {
    const results = { ...sampleResults(counted([{ requests: 3, answers: 3, validated: 3 }])), seedSource: 'given' as const };
    const path = writeResults(join(dir, 'round-trip'), results);
    expect(loadResults(path)).toEqual(JSON.parse(readFileSync(path, 'utf8')));
  });

  it('reads back an interrupted run with notes and the keys of its findings', () => {
    const tests = sampleTests();
    tests[0]!.findings.push({ ...tests[0]!.findings[0]!, severity: 'note', key: 'ENV-01|folder.load|unseenValue|x|"FILE"' });
    const results = { ...sampleResults(tests), interrupted: { signal: 'SIGINT' as const, at: '2026-03-01T10:01:05.000Z' } };
    const path = writeResults(join(dir, 'interrupted'), results);
    expect(loadResults(path)).toEqual(results);
  });

  it('reads results of a version that wrote no seed source and no exchange counts', () => {
    expect(loadResults(written(() => {})).seedSource).toBeUndefined();
  });

  it.each([
    [
      'a status outside the three',
      (r: Record<string, unknown>) => ((r.tests as Record<string, unknown>[])[3]!.status = 'broken'),
      ': /tests/3/status must be one of passed, failed, skipped, got "broken"',
    ],
    ['a seed that is not a number', (r: Record<string, unknown>) => (r.seed = '42'), ': /seed must be integer, got "42"'],
    [
      'a count that is not an integer',
      (r: Record<string, unknown>) => ((r.tests as Record<string, unknown>[])[0]!.answers = 1.5),
      ': /tests/0/answers must be integer, got 1.5',
    ],
    [
      'an unknown seed source',
      (r: Record<string, unknown>) => (r.seedSource = 'dice'),
      ': /seedSource must be one of default, given, random, got "dice"',
    ],
    ['a missing summary', (r: Record<string, unknown>) => delete r.summary, ': /summary is missing'],
    [
      'another tool',
      (r: Record<string, unknown>) => (r.tool = { name: 'other', version: '1' }),
      ': /tool/name must be "cms-conformance", got "other"',
    ],
    [
      'a severity outside the three',
      (r: Record<string, unknown>) => ((r.tests as { findings: Record<string, unknown>[] }[])[0]!.findings[0]!.severity = 'info'),
      ': /tests/0/findings/0/severity must be one of error, warning, note, got "info"',
    ],
    [
      'an interruption by another signal',
      (r: Record<string, unknown>) => (r.interrupted = { signal: 'SIGHUP', at: '2026-03-01T10:01:05.000Z' }),
      ': /interrupted/signal must be one of SIGINT, SIGTERM, got "SIGHUP"',
    ],
    [
      'a start that is not a date',
      (r: Record<string, unknown>) => (r.startedAt = 'yesterday'),
      ': /startedAt must match format "date-time", got "yesterday"',
    ],
  ])('rejects %s with one line naming the member', (_what, change, message) => {
    const path = written(change);
    expect(() => loadResults(path)).toThrow(ReportInputError);
    expect(() => loadResults(path)).toThrow(`${path}${message}`);
  });
});

describe('summary', () => {
  it('counts notes apart from warnings', () => {
    const tests = sampleTests();
    const warning = tests[0]!.findings[0]!;
    tests[0]!.findings.push({ ...warning, severity: 'note' }, { ...warning, severity: 'note' });
    expect(summarize(tests)).toMatchObject({ warnings: 1, notes: 2 });
  });
});

describe('exchange counts', () => {
  it('the summary totals the counts of the tests that carry them', () => {
    const tests = counted([
      { requests: 5, answers: 4, validated: 4, retries: 1 },
      {},
      { requests: 2, answers: 2, validated: 1, retries: 0 },
    ]);
    expect(summarize(tests)).toMatchObject({ requests: 7, answers: 6, validated: 5, retries: 1 });
  });

  it('the summary leaves the totals out when no test carries counts', () => {
    expect(Object.keys(summarize(sampleTests()))).not.toContain('answers');
    expect(exchangeTotals(summarize(sampleTests()))).toBeUndefined();
  });

  it('prints the totals with thousands separators in the console line and summary.md', () => {
    const tests = counted([{ requests: 7_910, answers: 7_900, validated: 7_900, retries: 12 }]);
    expect(exchangeTotals(summarize(tests))).toBe('7,900 of 7,900 answers validated; 12 retries');
    expect(renderMarkdown(sampleResults(tests))).toContain('\n7,900 of 7,900 answers validated; 12 retries.\n');
    expect(exchangeTotals(summarize(counted([{ answers: 1, validated: 1, retries: 1 }])))).toBe('1 of 1 answers validated; 1 retry');
  });

  it('the collector takes the counts from the test meta, those it has', () => {
    const out = { write: () => true } as unknown as NodeJS.WritableStream;
    const collector = new ResultCollector('/project', out);
    const testCase = (name: string, cms: Record<string, unknown>) =>
      ({
        name,
        options: { mode: 'run' },
        module: { moduleId: '/project/suites/x.suite.ts' },
        result: () => ({ state: 'passed' }),
        meta: () => ({ cms: { requirement: name.split(' ')[0], findings: [], ...cms } }),
        diagnostic: () => ({ duration: 3 }),
      }) as unknown as TestCase;
    collector.onTestCaseResult(testCase('ENV-01 all four', { requests: 9, answers: 8, json: 8, validated: 8, retries: 2 }));
    collector.onTestCaseResult(testCase('ENV-02 only two', { requests: 1, validated: 0 }));
    const [all, two] = collector.results;
    expect([all?.requests, all?.answers, all?.validated, all?.retries]).toEqual([9, 8, 8, 2]);
    expect(Object.keys(all ?? {})).not.toContain('json');
    expect([two?.requests, two?.validated, 'answers' in (two ?? {}), 'retries' in (two ?? {})]).toEqual([1, 0, false, false]);
  });
});

describe('file schemas', () => {
  it('live in the one Ajv instance beside the contract, never among its schemas', () => {
    for (const ref of Object.values(FILE_SCHEMAS)) {
      const schema = getSchema(ref);
      expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(fileSchemasById.has(String(schema.$id))).toBe(true);
      expect(schemasById.has(String(schema.$id))).toBe(false);
    }
  });

  it('name the same features and dataset format as the code', () => {
    expect((getSchema(FILE_SCHEMAS.target).properties.features.items as { enum: string[] }).enum).toEqual([...FEATURES]);
    expect(getSchema(FILE_SCHEMAS.fixture).properties.format.const).toBe(DATASET_FORMAT);
  });

  it('name the whole file when it is not an object', () => {
    expect(fileProblem('target', [])).toBe('the file must be object');
  });
});
