/**
 * Per-target expectation files (web-platform-tests style): the tests a target is known to fail,
 * keyed by test id, each with a reason, an optional issue and an optional end date. Expected
 * failures do not fail the run; an unexpected pass, an expired entry and a stale id are reported.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ReportInputError, type ExpectationSummary, type Results, type TestResult } from './results.ts';

/** One entry of an expectation file. */
export interface Expectation {
  expected: 'FAIL';
  /** Why the target fails the test: a deviation it accepts, a bug being fixed. */
  reason: string;
  /** Where the deviation is tracked (an http(s) URL). */
  issue?: string;
  /** The last day (YYYY-MM-DD) the failure is excused; after it the failure counts again. */
  until?: string;
}

/** An expectation file: test id -> expectation. */
export type Expectations = Record<string, Expectation>;

const keys = new Set(['expected', 'reason', 'issue', 'until']);

function isDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(text);
}

/** Checks parsed file content and returns it typed; every problem names the file and the key. */
export function validateExpectations(data: unknown, file: string): Expectations {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new ReportInputError(`${file}: must be a JSON object keyed by test id`);
  const problems: string[] = [];
  for (const [id, entry] of Object.entries(data)) {
    const at = `${file}: ${JSON.stringify(id)}`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      problems.push(`${at}: must be an object like {"expected": "FAIL", "reason": "..."}`);
      continue;
    }
    const e = entry as Record<string, unknown>;
    for (const k of Object.keys(e)) if (!keys.has(k)) problems.push(`${at}: unknown member "${k}" (allowed: ${[...keys].join(', ')})`);
    if (e.expected !== 'FAIL') problems.push(`${at}: "expected" must be "FAIL", got ${JSON.stringify(e.expected)}`);
    if (typeof e.reason !== 'string' || !e.reason.trim()) problems.push(`${at}: "reason" must be a non-empty string`);
    if (e.issue !== undefined && (typeof e.issue !== 'string' || !/^https?:\/\/\S+$/.test(e.issue))) problems.push(`${at}: "issue" must be an http(s) URL, got ${JSON.stringify(e.issue)}`);
    if (e.until !== undefined && (typeof e.until !== 'string' || !isDate(e.until))) problems.push(`${at}: "until" must be a date YYYY-MM-DD, got ${JSON.stringify(e.until)}`);
  }
  if (problems.length) throw new ReportInputError(problems.join('\n'));
  return data as Expectations;
}

/** Reads and validates an expectation file; a missing or malformed file is a ReportInputError. */
export function loadExpectations(file: string): Expectations {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ReportInputError(`cannot read the expectation file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
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
  const sorted = Object.fromEntries(Object.keys(expectations).sort().map((id) => [id, expectations[id]]));
  mkdirSync(dirname(file), { recursive: true });
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

/** One sentence of counts: "1 expected failure, 2 unexpected passes, 0 expired entries, 1 stale id". */
export function expectationCounts(x: ExpectationSummary): string {
  const n = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  return [
    n(x.expectedFailures, 'expected failure', 'expected failures'),
    n(x.unexpectedPasses, 'unexpected pass', 'unexpected passes'),
    n(x.expired, 'expired entry', 'expired entries'),
    n(x.stale.length, 'stale id', 'stale ids'),
  ].join(', ');
}

/** Counts the outcomes carried by the tests (used again when shards are merged). */
export function expectationSummary(tests: readonly TestResult[], file: string, stale: string[]): ExpectationSummary {
  const count = (o: TestResult['outcome']) => tests.filter((t) => t.outcome === o).length;
  return { file, expectedFailures: count('expected-fail'), unexpectedPasses: count('unexpected-pass'), expired: count('expired'), stale };
}

/**
 * Marks each listed test with its expectation and outcome and adds the counts to the summary.
 * Applying again replaces an earlier application. Skipped tests neither meet nor break an expectation.
 */
export function applyExpectations(results: Results, expectations: Expectations, options: { file: string; today?: string }): Results {
  const today = options.today ?? todayUtc();
  const tests = results.tests.map((raw): TestResult => {
    const t = withoutExpectation(raw);
    const e = Object.hasOwn(expectations, t.id) ? expectations[t.id] : undefined;
    if (!e) return t;
    const expectation = { reason: e.reason, ...(e.issue ? { issue: e.issue } : {}), ...(e.until ? { until: e.until } : {}) };
    const marked: TestResult = { ...t, expected: 'FAIL', expectation };
    if (t.status === 'passed') return { ...marked, outcome: 'unexpected-pass' };
    if (t.status === 'failed') return { ...marked, outcome: e.until !== undefined && e.until < today ? 'expired' : 'expected-fail' };
    return marked;
  });
  const ids = new Set(tests.map((t) => t.id));
  const stale = Object.keys(expectations).filter((id) => !ids.has(id)).sort();
  return { ...results, tests, summary: { ...results.summary, expectations: expectationSummary(tests, options.file, stale) } };
}

/** A failure that counts: any failed test its expectation file does not excuse (or excuses no longer). */
export function isUnexpectedFailure(t: TestResult): boolean {
  return t.status === 'failed' && t.outcome !== 'expected-fail';
}

/** One line per thing the expectation file did not foresee, for the console. */
export function expectationNotes(results: Results): string[] {
  const x = results.summary.expectations;
  if (!x) return [];
  const lines: string[] = [];
  if (x.expectedFailures) lines.push(`expectations: ${x.expectedFailures} failure${x.expectedFailures > 1 ? 's' : ''} expected by ${x.file}`);
  for (const t of results.tests) {
    if (t.outcome === 'unexpected-pass') lines.push(`expectations: unexpected pass: ${t.id} (remove it from ${x.file}: cms-conformance update-expectations)`);
    if (t.outcome === 'expired') lines.push(`expectations: expired: ${t.id} (until ${t.expectation?.until}): the failure counts again`);
  }
  for (const id of x.stale) lines.push(`expectations: stale: ${id} is not a test of this run`);
  return lines;
}

/** What every report says of a run: one sentence, and the exit code (0 when every test passed, was skipped or failed as expected). */
export function verdictOf(results: Results): { exitCode: 0 | 1; text: string } {
  const unexpected = results.tests.filter(isUnexpectedFailure).length;
  const expected = results.tests.filter((t) => t.outcome === 'expected-fail').length;
  const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  if (unexpected) return { exitCode: 1, text: `the target does not conform: ${plural(unexpected, 'unexpected failure')}${expected ? ` (and ${expected} expected)` : ''}` };
  if (expected) return { exitCode: 0, text: `the target fails only what its expectation file expects (${plural(expected, 'expected failure')})` };
  if (results.tests.every((t) => t.status === 'skipped')) return { exitCode: 0, text: 'no test ran' };
  return { exitCode: 0, text: 'the target conforms to every requirement tested' };
}
