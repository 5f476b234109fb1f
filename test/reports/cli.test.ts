import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { finishRun } from '../../reports/index.ts';
import { sampleResults, sampleTests } from './sample.ts';
import { cli } from '../support/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'cms-reports-cli-'));

const PAG01 = 'PAG-01 without pageSize every item comes back';
const PAG02 = 'PAG-02 pageSize 0 returns no items';
const UPL01 = 'UPL-01 multipart create keeps the bytes';
const OPLOAD = 'OP-folder.load a valid request gets 200 and a FolderLoadResponse';

// Two shards of one run, as `run --out` leaves them.
const shardA = join(dir, 'shard-a');
const shardB = join(dir, 'shard-b');
finishRun(sampleResults(sampleTests().slice(0, 3)), { outDir: shardA });
finishRun(sampleResults(sampleTests().slice(3)), { outDir: shardB });
const badJson = join(dir, 'bad.json');
writeFileSync(badJson, '{');
const badExpectations = join(dir, 'bad-expectations.json');
writeFileSync(badExpectations, JSON.stringify({ 'PAG-01 x': { expected: 'PASS', reason: 'r' } }));
const never = join(dir, 'never');

describe('cms-conformance update-expectations', () => {
  it('writes a new file in which every failing test is an expected FAIL', async () => {
    const out = join(dir, 'new', 'vendor.json');
    const r = await cli('update-expectations', '--from', shardB, '--out', out);
    expect(r.code).toBe(0);
    const written = JSON.parse(readFileSync(out, 'utf8'));
    expect(Object.keys(written)).toEqual([PAG01, PAG02, UPL01]);
    expect(written[PAG02]).toEqual({ expected: 'FAIL', reason: 'failing since 2026-03-01: items: pageSize=0 returned 3 folders' });
    expect(r.stdout).toContain(`added    ${PAG02}`);
    expect(r.stdout).toContain(`${out}: 3 entries (3 changed)`);
  });

  it('keeps the reasons of existing entries, removes passing tests and keeps ids the run did not have', async () => {
    const out = join(dir, 'existing.json');
    const kept = { expected: 'FAIL', reason: 'paging deviation accepted', issue: 'https://tracker.example/CMS-1', until: '2099-01-01' };
    writeFileSync(
      out,
      JSON.stringify({
        [PAG01]: kept,
        [OPLOAD]: { expected: 'FAIL', reason: 'old bug' },
        'PAG-99 gone': { expected: 'FAIL', reason: 'r' },
      }),
    );
    const results = join(dir, 'all.json');
    writeFileSync(results, JSON.stringify(sampleResults()));
    const r = await cli('update-expectations', '--from', results, '--out', out);
    expect(r.code).toBe(0);
    const written = JSON.parse(readFileSync(out, 'utf8'));
    expect(Object.keys(written)).toEqual([PAG01, PAG02, 'PAG-99 gone', UPL01]);
    expect(written[PAG01]).toEqual(kept);
    expect(r.stdout).toContain(`removed  ${OPLOAD} (passes now)`);
    expect(r.stdout).toContain('stale    PAG-99 gone (not in this run; kept)');
  });

  it('records a test that passed in one run and failed in another as flaky, with the seeds of each', async () => {
    const failing = join(dir, 'seed-42.json');
    const passing = join(dir, 'seed-7.json');
    writeFileSync(failing, JSON.stringify(sampleResults()));
    writeFileSync(
      passing,
      JSON.stringify({
        ...sampleResults(sampleTests().map((t) => (t.id === PAG01 ? { ...t, status: 'passed' as const, findings: [] } : t))),
        seed: 7,
        seedSource: 'given',
      }),
    );
    const out = join(dir, 'flaky.json');
    const r = await cli('update-expectations', '--from', failing, '--from', passing, '--out', out);
    expect(r.code).toBe(0);
    const written = JSON.parse(readFileSync(out, 'utf8'));
    expect(written[PAG01]).toEqual({
      expected: ['PASS', 'FAIL'],
      reason:
        'flaky since 2026-03-01: status: the body is not JSON: ' +
        '<script>window.__xss = 1; alert("xss")</script><img src=x onerror="alert(2)">',
      seeds: { PASS: [7], FAIL: [42] },
    });
    expect(written[PAG02]).toMatchObject({ expected: 'FAIL' });
    expect(r.stdout).toContain(`flaky    ${PAG01} (passed with seed 7; failed with seed 42)`);

    // Applied, the flaky test's failure does not fail the run; the reports list it.
    const merged = await cli('merge', failing, '--out', join(dir, 'merged-flaky'), '--expectations', out);
    expect(merged.code).toBe(0);
    expect(merged.stdout).toContain(`expectations: flaky: ${PAG01} failed (either outcome allowed by ${out})`);
    expect(readFileSync(join(dir, 'merged-flaky', 'summary.md'), 'utf8')).toContain('### Flaky tests (1)');

    // A later run that only passes keeps the entry and adds its seed.
    const again = await cli('update-expectations', '--from', passing, '--out', out);
    expect(again.stdout).toContain(`kept     ${PAG01} (flaky; passed in every run given`);
    expect(JSON.parse(readFileSync(out, 'utf8'))[PAG01].seeds).toEqual({ PASS: [7], FAIL: [42] });
  });

  it.each([
    ['no --out', () => ['--from', badJson], 'needs --from RESULTS and --out FILE'],
    ['results that are not a results file', () => ['--from', badJson, '--out', never], `${badJson} is not valid JSON`],
    [
      'an existing file that is not valid',
      () => ['--from', shardB, '--out', badExpectations],
      `${badExpectations}: /PAG-01 x/expected must be "FAIL" or ["PASS", "FAIL"], got "PASS"`,
    ],
  ])('exits 2 for %s, with one clear message', async (_what, args, message) => {
    const r = await cli('update-expectations', ...args());
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(never)).toBe(false);
  });
});

describe('cms-conformance merge', () => {
  it('writes every report of the merged run and exits 1 when a test failed', async () => {
    const out = join(dir, 'merged');
    const r = await cli('merge', shardA, join(shardB, 'results.json'), '--out', out);
    expect(r.code).toBe(1);
    for (const name of ['results.json', 'junit.xml', 'report.html', 'summary.md']) expect(existsSync(join(out, name)), name).toBe(true);
    const merged = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
    expect(merged.summary).toEqual(sampleResults().summary);
    expect(r.stdout).toContain('merged 2 results: 6 tests, 2 passed, 3 failed, 1 skipped, 1 warnings');
    expect(r.stdout).toContain('VERDICT: the target does not conform: 3 unexpected failures');
  });

  it('exits 0 when the expectation file expects every failure, and compares with a baseline', async () => {
    const out = join(dir, 'merged-expected');
    const expectations = join(dir, 'expect-all.json');
    writeFileSync(
      expectations,
      JSON.stringify(Object.fromEntries([PAG01, PAG02, UPL01].map((id) => [id, { expected: 'FAIL', reason: 'known' }]))),
    );
    const r = await cli('merge', shardA, shardB, '--out', out, '--expectations', expectations, '--baseline', shardB);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`expectations: 3 failures expected by ${expectations}`);
    expect(r.stdout).toContain('regression against the baseline of 2026-03-01T10:00:00.000Z: 0 new failures');
    expect(existsSync(join(out, 'regression.md'))).toBe(true);
    expect(r.stdout).not.toContain('different seeds');
  });

  it('says when the baseline ran with another seed', async () => {
    const baseline = join(dir, 'other-seed.json');
    writeFileSync(baseline, JSON.stringify({ ...sampleResults(), seed: 7, seedSource: 'random' }));
    const r = await cli('merge', shardA, shardB, '--out', join(dir, 'merged-reseeded'), '--baseline', baseline);
    expect(r.stdout).toContain('note: the baseline and this run used different seeds (baseline seed 7 (random), this run seed 42)');
    expect(readFileSync(join(dir, 'merged-reseeded', 'regression.md'), 'utf8')).toContain(
      '**Note:** the baseline and this run used different seeds',
    );
  });

  it.each([
    ['a test in two shards', () => [shardB, shardB], /the test "PAG-01 without pageSize every item comes back" is in more than one shard/],
    ['a folder without results', () => [dir], /cannot read .*results\.json: ENOENT/],
    [
      'results with a member of the wrong type',
      () => [
        (writeFileSync(join(dir, 'wrong-type.json'), JSON.stringify({ ...sampleResults(), runs: 'twenty' })), join(dir, 'wrong-type.json')),
      ],
      /wrong-type\.json: \/runs must be integer, got "twenty"$/m,
    ],
    ['no results at all', () => [], /merge needs at least one results folder or file/],
  ])('exits 2 for %s', async (_what, args, message) => {
    const r = await cli('merge', ...args(), '--out', never);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(existsSync(never)).toBe(false);
  });

  it('both commands are listed by --help', async () => {
    const r = await cli('--help');
    expect(r.stdout).toMatch(/^\s+update-expectations\s+write or update an expectation file/m);
    expect(r.stdout).toMatch(/^\s+merge\s+combine the results of sharded runs/m);
  });
});
