import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { finishRun, mergeResults, ReportInputError } from '../../reports/index.ts';
import { redact, REDACTED } from '../../reports/redact.ts';
import { loadResults } from '../../reports/results.ts';
import type { Results } from '../../schemas/results.ts';
import { SECRET, sampleResults, sampleTests } from './sample.ts';

const base = mkdtempSync(join(tmpdir(), 'cms-finish-'));
let n = 0;
const freshDir = () => join(base, `out-${++n}`);

function file(name: string, content: unknown): string {
  const path = join(base, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

describe('finishRun', () => {
  it('writes results.json, junit.xml, report.html and summary.md and says the run failed', () => {
    const outDir = freshDir();
    const done = finishRun(sampleResults(), { outDir, secrets: [SECRET] });
    expect(done.paths.map((p) => p.slice(outDir.length + 1))).toEqual(['results.json', 'junit.xml', 'report.html', 'summary.md']);
    expect(done.exitCode).toBe(1);
    expect(loadResults(outDir)).toEqual(done.results);
  });

  it('fails a run whose suite file did not load in every report, though every test that ran passed', () => {
    const outDir = freshDir();
    const passed = sampleTests().filter((t) => t.status === 'passed');
    const error = 'suites/paging/paging.suite.ts: Cannot find module ./gone.ts';
    const done = finishRun({ ...sampleResults(passed), runErrors: [error] }, { outDir });
    expect(done.exitCode).toBe(1);
    expect(loadResults(outDir).runErrors).toEqual([error]);
    const read = (name: string) => readFileSync(join(outDir, name), 'utf8');
    expect(read('junit.xml')).toMatch(/<testsuites name="cms-conformance" tests="\d+" failures="0" skipped="\d+" errors="1"/);
    expect(read('junit.xml')).toContain(
      '<testcase classname="run" name="run error suites/paging/paging.suite.ts" file="suites/paging/paging.suite.ts"',
    );
    expect(read('summary.md')).toMatch(/^## ❌ cms-conformance: the run is incomplete: a suite did not load/);
    expect(read('summary.md')).toContain('### Run errors (1)');
    expect(read('report.html')).toContain('<section id="run-errors">');
    expect(read('report.html')).toContain('<title>cms-conformance: FAIL');
    // Merged shards keep the errors of each.
    const merged = mergeResults([loadResults(outDir), sampleResults([])]);
    expect(merged.runErrors).toEqual([error]);
  });

  it('never lets a credential a server echoed reach any report', () => {
    const outDir = freshDir();
    finishRun(sampleResults(), { outDir, secrets: [SECRET] });
    for (const name of readdirSync(outDir)) {
      const text = readFileSync(join(outDir, name), 'utf8');
      expect(text, name).not.toContain(SECRET);
    }
    expect(readFileSync(join(outDir, 'results.json'), 'utf8')).toContain(`"x-echo-sid": "${REDACTED}"`);
  });

  it('excuses the failures of the expectation file and adds regression.md with a baseline', () => {
    const outDir = freshDir();
    const failing = sampleResults().tests.filter((t) => t.status === 'failed');
    const expectationsFile = file(
      'all-expected.json',
      Object.fromEntries(failing.map((t) => [t.id, { expected: 'FAIL', reason: 'known' }])),
    );
    const baselineDir = freshDir();
    finishRun(sampleResults(sampleTests().filter((t) => !t.id.startsWith('PAG-02'))), { outDir: baselineDir });
    const done = finishRun(sampleResults(), {
      outDir,
      expectationsFile,
      baselineFile: join(baselineDir, 'results.json'),
      today: '2026-03-01',
    });
    expect(done.exitCode).toBe(0);
    expect(done.paths.at(-1)).toBe(join(outDir, 'regression.md'));
    expect(done.lines).toContain(`expectations: 3 failures expected by ${expectationsFile}`);
    expect(done.lines).toContain('  NEW     PAG-02 pageSize 0 returns no items (expected): items: pageSize=0 returned 3 folders');
    expect(readFileSync(join(outDir, 'junit.xml'), 'utf8')).toMatch(
      /<testsuites name="cms-conformance" tests="6" failures="0" skipped="4"/,
    );
  });

  it.each([
    [
      'an expectation file that is not valid',
      { expectationsFile: 'bad-expectations.json' },
      /bad-expectations\.json: \/PAG-01 x\/reason is missing$/,
    ],
    ['a baseline that is not a results file', { baselineFile: 'bad-baseline.json' }, /bad-baseline\.json: \/tool is missing$/],
    ['a baseline that does not exist', { baselineFile: 'missing.json' }, /cannot read .*missing\.json: ENOENT/],
  ])('throws ReportInputError for %s before writing anything', (_what, given, message) => {
    file('bad-expectations.json', { 'PAG-01 x': { expected: 'FAIL' } });
    file('bad-baseline.json', { tests: [] });
    const outDir = freshDir();
    const options = Object.fromEntries(Object.entries(given).map(([k, v]) => [k, join(base, v)]));
    expect(() => finishRun(sampleResults(), { outDir, ...options })).toThrow(ReportInputError);
    expect(() => finishRun(sampleResults(), { outDir, ...options })).toThrow(message);
    expect(existsSync(outDir)).toBe(false);
  });
});

describe('redact', () => {
  it('replaces a credential as sent, URL-encoded, JSON-escaped and the token of an Authorization value', () => {
    const secret = 'Bearer ab/c+d="e"';
    const value = {
      text: `token ab/c+d="e" url ${encodeURIComponent('ab/c+d="e"')} json ${JSON.stringify('ab/c+d="e"')} header ${secret}`,
      [`k-${SECRET}`]: [SECRET],
    };
    const out = redact(value, [secret, SECRET]);
    expect(JSON.stringify(out)).not.toMatch(/ab\/c|ab%2Fc|sk-live/);
    expect(out).toEqual({ text: `token ${REDACTED} url ${REDACTED} json "${REDACTED}" header ${REDACTED}`, [`k-${REDACTED}`]: [REDACTED] });
  });

  it('recognises the password of Basic credentials when echoed alone', () => {
    const basic = `Basic ${Buffer.from('alice:correct-horse').toString('base64')}`;
    expect(redact('bad password correct-horse for alice:correct-horse', [basic])).toBe(`bad password ${REDACTED} for ${REDACTED}`);
  });

  it('leaves everything alone without secrets', () => {
    const results = sampleResults();
    expect(redact(results, [])).toBe(results);
    expect(redact(results, [''])).toBe(results);
  });
});

describe('mergeResults', () => {
  const [a, b] = [sampleTests().slice(0, 3), sampleTests().slice(3)];
  const shard = (tests = a, over: Partial<Results> = {}): Results => ({ ...sampleResults(tests), ...over });

  it('concatenates the tests, recomputes the summary and spans the shards in time', () => {
    const merged = mergeResults([
      shard(b, { startedAt: '2026-03-01T10:00:30.000Z', durationMs: 60_000 }),
      shard(a, {
        startedAt: '2026-03-01T10:00:00.000Z',
        durationMs: 40_000,
        target: { baseUrl: 'http://cms.example/rest', features: ['auth'], embedded: false },
      }),
    ]);
    expect(merged.tests.map((t) => t.id)).toEqual(sampleTests().map((t) => t.id));
    expect(merged.summary).toEqual(sampleResults().summary);
    expect(merged.startedAt).toBe('2026-03-01T10:00:00.000Z');
    expect(merged.durationMs).toBe(90_000);
    expect(merged.target.features.sort()).toEqual(['auth', 'pages', 'wastebin']);
  });

  it('rejects a test that is in two shards', () => {
    expect(() => mergeResults([shard(a), shard(sampleTests().slice(2))])).toThrow(
      /the test "OP-folder\.load a valid request gets 200 and a FolderLoadResponse" is in more than one shard/,
    );
  });

  it('rejects shards of different seeds or different live targets, and nothing at all', () => {
    expect(() => mergeResults([shard(a), shard(b, { seed: 7 })])).toThrow(/different seeds \(42, 7\)/);
    expect(() =>
      mergeResults([shard(a), shard(b, { target: { baseUrl: 'http://other.example', features: [], embedded: false } })]),
    ).toThrow(/different targets/);
    expect(() => mergeResults([])).toThrow(ReportInputError);
  });

  it('accepts embedded shards on different ports', () => {
    const embedded = (port: number) => ({ baseUrl: `http://127.0.0.1:${port}`, features: [], embedded: true });
    expect(mergeResults([shard(a, { target: embedded(1234) }), shard(b, { target: embedded(5678) })]).target.embedded).toBe(true);
  });

  it('keeps as stale only the expectation ids no shard ran', () => {
    const withExpectations = (tests: typeof a, stale: string[]): Results => {
      const r = shard(tests);
      return {
        ...r,
        summary: { ...r.summary, expectations: { file: 'vendor.json', expectedFailures: 0, unexpectedPasses: 0, expired: 0, stale } },
      };
    };
    const merged = mergeResults([
      withExpectations(a, ['PAG-02 pageSize 0 returns no items', 'PAG-99 gone']),
      withExpectations(b, ['ENV-01 every body has the envelope', 'PAG-99 gone']),
    ]);
    expect(merged.summary.expectations?.stale).toEqual(['PAG-99 gone']);
  });
});
