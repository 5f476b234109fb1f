/**
 * Per-target expectation files (web-platform-tests style): the tests a target is known to fail, or
 * known to be flaky on (either outcome allowed), keyed by test id, each with a reason, an optional
 * issue and an optional end date. Expected failures and flaky tests do not fail the run; an
 * unexpected pass, an expired entry and a stale id are reported. The format is schemas/inputs/expectations.json.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { makeDir } from './dirs.ts';
import { dirname } from 'node:path';
import { fileProblem } from '../schemas/files.ts';
import type { ExpectationSummary, Results, TestResult } from '../schemas/results.ts';
import { ReportInputError, hadNothingToJudge } from './results.ts';

/** What a flaky entry allows: both outcomes, as WPT writes `expected: [PASS, FAIL]`. */
export const FLAKY: readonly ['PASS', 'FAIL'] = ['PASS', 'FAIL'];

/** One entry of an expectation file. */
export interface Expectation {
  /** "FAIL": the target fails the test. ["PASS", "FAIL"]: the test is flaky on the target; either outcome is allowed. */
  expected: 'FAIL' | readonly ['PASS', 'FAIL'];
  /** Why the target fails the test: a deviation it accepts, a bug being fixed. */
  reason: string;
  /** Where the deviation is tracked (an http(s) URL). */
  issue?: string;
  /** The last day (YYYY-MM-DD) the failure is excused; after it the failure counts again. */
  until?: string;
  /** For a flaky test: the seeds of the runs that saw each outcome, so either can be repeated. */
  seeds?: { PASS?: number[]; FAIL?: number[] };
}

/** An expectation file: test id -> expectation. */
export type Expectations = Record<string, Expectation>;

/** True when the entry allows either outcome. */
export function isFlaky(e: Expectation): boolean {
  return Array.isArray(e.expected);
}

/** Checks parsed file content against the expectation file schema and returns it typed; a problem names the file and the member. */
export function validateExpectations(data: unknown, file: string): Expectations {
  const problem = fileProblem('expectations', data);
  if (problem) throw new ReportInputError(`${file}: ${problem}`);
  return data as Expectations;
}

/** Reads and validates an expectation file; a missing or malformed file is a ReportInputError. */
export function loadExpectations(file: string): Expectations {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ReportInputError(
      `cannot read the expectation file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new ReportInputError(`${file} is not valid JSON: ${(err as Error).message}`);
  }
  return validateExpectations(data, file);
}

/** Reads an expectation file, or returns an empty one when the file does not exist yet. */
export function loadExpectationsIfPresent(file: string): Expectations {
  return existsSync(file) ? loadExpectations(file) : {};
}

/** Writes an expectation file with sorted keys, so diffs of it stay readable. */
export function writeExpectations(file: string, expectations: Expectations): void {
  const sorted = Object.fromEntries(
    Object.keys(expectations)
      .sort()
      .map((id) => [id, expectations[id]]),
  );
  makeDir(dirname(file));
  writeFileSync(file, `${JSON.stringify(sorted, null, 2)}\n`);
}

/** Today as YYYY-MM-DD (UTC), the form `until` is compared with. */
export function todayUtc(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

function withoutExpectation(t: TestResult): TestResult {
  const { expected: _e, outcome: _o, expectation: _x, ...rest } = t;
  return rest;
}

/** One sentence of counts: "1 expected failure, 2 unexpected passes, 0 expired entries, 1 stale id" (and flaky tests, when there are). */
export function expectationCounts(x: ExpectationSummary): string {
  const n = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  return [
    n(x.expectedFailures, 'expected failure', 'expected failures'),
    n(x.unexpectedPasses, 'unexpected pass', 'unexpected passes'),
    n(x.expired, 'expired entry', 'expired entries'),
    ...(x.flaky ? [n(x.flaky, 'flaky test', 'flaky tests')] : []),
    n(x.stale.length, 'stale id', 'stale ids'),
  ].join(', ');
}

/** Counts the outcomes carried by the tests (used again when shards are merged). */
export function expectationSummary(tests: readonly TestResult[], file: string, stale: string[]): ExpectationSummary {
  const count = (o: TestResult['outcome']) => tests.filter((t) => t.outcome === o).length;
  return {
    file,
    expectedFailures: count('expected-fail'),
    unexpectedPasses: count('unexpected-pass'),
    expired: count('expired'),
    flaky: count('flaky'),
    stale,
  };
}

/**
 * Marks each listed test with its expectation and outcome and adds the counts to the summary.
 * Applying again replaces an earlier application. Skipped tests, and passes with nothing to judge, neither meet nor break an expectation;
 * a flaky test that ran is `flaky` whatever its status, until its end date passes while it fails.
 */
export function applyExpectations(results: Results, expectations: Expectations, options: { file: string; today?: string }): Results {
  const today = options.today ?? todayUtc();
  const tests = results.tests.map((raw): TestResult => {
    const t = withoutExpectation(raw);
    const e = Object.hasOwn(expectations, t.id) ? expectations[t.id] : undefined;
    if (!e) return t;
    const expectation = { reason: e.reason, ...(e.issue ? { issue: e.issue } : {}), ...(e.until ? { until: e.until } : {}) };
    const flaky = isFlaky(e);
    const marked: TestResult = { ...t, expected: flaky ? 'FLAKY' : 'FAIL', expectation };
    // A pass with nothing to judge says nothing of the expected failure: not an unexpected pass to remove from the file.
    if (t.status === 'skipped' || hadNothingToJudge(t)) return marked;
    if (t.status === 'failed' && e.until !== undefined && e.until < today) return { ...marked, outcome: 'expired' };
    if (flaky) return { ...marked, outcome: 'flaky' };
    return { ...marked, outcome: t.status === 'passed' ? 'unexpected-pass' : 'expected-fail' };
  });
  const ids = new Set(tests.map((t) => t.id));
  const stale = Object.keys(expectations)
    .filter((id) => !ids.has(id))
    .sort();
  return { ...results, tests, summary: { ...results.summary, expectations: expectationSummary(tests, options.file, stale) } };
}

/** A failure the expectation file excuses: an expected failure, or a failure of a test it calls flaky. */
export function isExcusedFailure(t: TestResult): boolean {
  return t.status === 'failed' && (t.outcome === 'expected-fail' || t.outcome === 'flaky');
}

/** A failure that counts: any failed test its expectation file does not excuse (or excuses no longer). */
export function isUnexpectedFailure(t: TestResult): boolean {
  return t.status === 'failed' && !isExcusedFailure(t);
}

/** One line per thing the expectation file did not foresee, for the console. */
export function expectationNotes(results: Results): string[] {
  const x = results.summary.expectations;
  if (!x) return [];
  const lines: string[] = [];
  if (x.expectedFailures)
    lines.push(`expectations: ${x.expectedFailures} failure${x.expectedFailures > 1 ? 's' : ''} expected by ${x.file}`);
  for (const t of results.tests) {
    if (t.outcome === 'unexpected-pass')
      lines.push(`expectations: unexpected pass: ${t.id} (remove it from ${x.file}: cms-conformance update-expectations)`);
    if (t.outcome === 'expired') lines.push(`expectations: expired: ${t.id} (until ${t.expectation?.until}): the failure counts again`);
    if (t.outcome === 'flaky') lines.push(`expectations: flaky: ${t.id} ${t.status} (either outcome allowed by ${x.file})`);
  }
  for (const id of x.stale) lines.push(`expectations: stale: ${id} is not a test of this run`);
  return lines;
}

/**
 * What every report says of a run: one sentence, and the exit code (0 when every test passed, was skipped, failed as expected or is
 * flaky).
 */
export function verdictOf(results: Results): { exitCode: 0 | 1; text: string } {
  // A run stopped half-way has judged part of the target: what it found stands, but no verdict on the whole.
  if (results.interrupted) {
    const failed = results.tests.filter(isUnexpectedFailure).length;
    return {
      exitCode: 1,
      text:
        `none: the run was interrupted by ${results.interrupted.signal} after ${results.tests.length} tests` +
        `${failed ? `, ${failed} of them failed` : ''}`,
    };
  }
  // Tests that did not run cannot pass: whatever the others say, the run has not judged the target.
  if (results.runErrors?.length)
    return {
      exitCode: 1,
      text: `the run is incomplete: ${results.runErrors.length === 1 ? 'a suite did' : 'suites did'} not load (see the run errors)`,
    };
  const unexpected = results.tests.filter(isUnexpectedFailure).length;
  const expected = results.tests.filter((t) => t.outcome === 'expected-fail').length;
  const flaky = results.tests.filter((t) => t.status === 'failed' && t.outcome === 'flaky').length;
  const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  const excused = [expected ? `${expected} expected` : '', flaky ? `${flaky} flaky` : ''].filter(Boolean).join(', ');
  if (unexpected)
    return {
      exitCode: 1,
      text: `the target does not conform: ${plural(unexpected, 'unexpected failure')}${excused ? ` (and ${excused})` : ''}`,
    };
  const allowed = [expected ? plural(expected, 'expected failure') : '', flaky ? plural(flaky, 'flaky failure') : '']
    .filter(Boolean)
    .join(', ');
  if (allowed) return { exitCode: 0, text: `the target fails only what its expectation file expects (${allowed})` };
  if (results.tests.every((t) => t.status === 'skipped')) return { exitCode: 0, text: 'no test ran' };
  const unjudged = results.tests.filter(hadNothingToJudge).length;
  return {
    exitCode: 0,
    text: `the target conforms to every requirement tested${unjudged ? `; ${plural(unjudged, 'test')} had none of its own data to judge (see their warnings)` : ''}`,
  };
}
