/**
 * The conformance statement (reports/statement.ts, cli/statement.ts): made from a run's results.json,
 * it carries no credential, and `--verify` finds a tampered results.json and a tampered statement.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { finishRun } from '../../reports/index.ts';
import { badgeText, makeStatement, publicBaseUrl, verifyStatement, type Statement } from '../../reports/statement.ts';
import { fileProblem } from '../../schemas/files.ts';
import { requirements } from '../../schemas/requirements.ts';
import type { Results } from '../../schemas/results.ts';
import { cli } from '../support/cli.ts';
import { SECRET, sampleResults } from './sample.ts';

/** A passing run with one test of every requirement no feature gates, against a URL with credentials in it, written as results.json. */
function passingRun(dir: string, only?: number): string {
  const sample = sampleResults();
  const template = sample.tests.find((t) => t.status === 'passed')!;
  const tests = requirements
    .filter((r) => r.feature === null)
    .slice(0, only)
    .map((r) => ({ ...template, id: `${r.id} sample`, title: 'sample', requirement: r.id, family: r.family }));
  const results: Results = {
    ...sample,
    target: { ...sample.target, features: [], baseUrl: `https://vendor:${SECRET}@cms.example.com/rest/?sid=${SECRET}` },
    tests,
  };
  finishRun(results, { outDir: dir, secrets: [SECRET] });
  return join(dir, 'results.json');
}

describe('the conformance statement', () => {
  it('counts per family and level, names the target without credentials, and conforms only with no failure', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cms-statement-'));
    const s = makeStatement(readFileSync(passingRun(dir)));
    expect(fileProblem('statement', s)).toBeUndefined();
    expect(JSON.stringify(s)).not.toContain(SECRET);
    expect(s.target.baseUrl).toBe('https://cms.example.com/rest');
    expect(s.counts.passed + s.counts.failed + s.counts.skipped).toBe(s.counts.total);
    expect(Object.values(s.counts.byLevel).reduce((n, c) => n + c.total, 0)).toBe(s.counts.total);
    expect([s.conforms, s.requirements.tested, badgeText(s)]).toEqual([
      true,
      s.requirements.applicable,
      `conforms, ${s.counts.total}/${s.counts.total}`,
    ]);
    // A run of part of the catalogue (--only, one shard) passes what it ran, and is no statement of conformance.
    const partial = makeStatement(readFileSync(passingRun(mkdtempSync(join(tmpdir(), 'cms-statement-')), 3)));
    expect([partial.conforms, badgeText(partial)]).toEqual([false, `partial run, 3/${partial.requirements.applicable} requirements`]);
    const failing = makeStatement(Buffer.from(JSON.stringify(sampleResults())));
    expect(failing.conforms).toBe(false);
    expect(badgeText(failing)).toMatch(/^\d+ failures?$/);
    expect(publicBaseUrl('http://u:p@h:8080/x/?a=1#f')).toBe('http://h:8080/x');
  });

  it('verifies against its results, and finds a changed results.json or a changed fact', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cms-statement-'));
    const bytes = readFileSync(passingRun(dir));
    const s = makeStatement(bytes);
    expect(verifyStatement(s, bytes)).toEqual([]);
    // One test's status flipped: the digest and the counts both differ.
    const tampered = JSON.parse(bytes.toString('utf8')) as Results;
    tampered.tests[0]!.status = tampered.tests[0]!.status === 'passed' ? 'failed' : 'passed';
    const problems = verifyStatement(s, Buffer.from(JSON.stringify(tampered, null, 2)));
    expect(problems.some((p) => p.startsWith('results digest'))).toBe(true);
    expect(problems.some((p) => p.startsWith('counts'))).toBe(true);
    // A statement edited by hand to say it conforms, its digests left alone.
    const edited: Statement = { ...s, conforms: !s.conforms };
    expect(verifyStatement(edited, bytes)).toEqual([expect.stringMatching(/^conforms: /)]);
  });

  it('is written by the CLI, verified, and refused on a tampered results.json (exit 1) and bad input (exit 2)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cms-statement-'));
    const results = passingRun(dir);
    const out = join(dir, 'statement');
    const made = await cli('statement', '--from', results, '--out', out);
    expect(made.code, made.stderr).toBe(0);
    const svg = readFileSync(join(out, 'badge.svg'), 'utf8');
    const s = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as Statement;
    expect(svg).toContain(badgeText(s));
    expect(readFileSync(join(out, 'conformance.md'), 'utf8')).toContain(s.resultsDigest);
    expect((await cli('statement', '--verify', join(out, 'conformance.json'), '--from', results)).code).toBe(0);
    writeFileSync(results, readFileSync(results, 'utf8').replace(/"status": *"passed"/, '"status": "failed"'));
    const bad = await cli('statement', '--verify', join(out, 'conformance.json'), '--from', results);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/does NOT match/);
    expect((await cli('statement', '--verify', results, '--from', results)).code).toBe(2);
    expect((await cli('statement', '--out', out)).code).toBe(2);
  });
});
