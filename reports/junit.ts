/**
 * junit.xml for CI systems: one testcase per test, named by its stable id, grouped by requirement
 * family. Expected failures and failures of flaky tests (reports/expectations.ts) appear as skipped, with their findings.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Results, TestResult } from '../schemas/results.ts';
import { isExcusedFailure, isUnexpectedFailure } from './expectations.ts';
import { interruptionText } from './results.ts';

function xml(text: string): string {
  // XML 1.0 forbids most control characters even when escaped; findings may quote binary-ish bodies.
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** The text of a failure: every error finding with its exchange line, curl and replay lines. */
export function failureText(test: TestResult): string {
  const lines: string[] = [];
  for (const f of test.findings.filter((x) => x.severity === 'error')) {
    lines.push(`[${f.requirement}] ${f.check}: ${f.message}`);
    const ex = f.exchange;
    if (ex) lines.push(`  ${ex.request.method} ${ex.request.url} -> ${ex.response ? ex.response.status : ex.error?.code}`);
    if (f.counterexample) lines.push(`  counterexample: ${f.counterexample}`);
    if (f.curl) lines.push(`  curl: ${f.curl}`);
    lines.push(`  replay: ${f.replay}`);
  }
  if (!lines.length && test.reason) lines.push(test.reason);
  return lines.join('\n');
}

function testcase(t: TestResult): string {
  const props = [
    `<property name="requirement" value="${xml(t.requirement)}"/>`,
    ...(t.operation ? [`<property name="operation" value="${xml(t.operation)}"/>`] : []),
  ];
  const open =
    `    <testcase classname="${xml(t.family)}" name="${xml(t.id)}" file="${xml(t.file)}" time="${(t.durationMs / 1000).toFixed(3)}">\n` +
    `      <properties>${props.join('')}</properties>\n`;
  let inner = '';
  if (isExcusedFailure(t)) {
    // Like pytest's xfail: a failure the expectation file excuses is reported as skipped, so CI stays green.
    const kind = t.outcome === 'flaky' ? 'flaky test failed' : 'expected failure';
    inner = `      <skipped message="${xml(`${kind}: ${t.expectation?.reason ?? ''}`)}">${xml(failureText(t))}</skipped>\n`;
  } else if (t.status === 'failed') {
    const first = t.findings.find((f) => f.severity === 'error');
    const message = first ? `[${first.requirement}] ${first.message}` : (t.reason ?? 'failed');
    inner = `      <failure message="${xml(message)}">${xml(failureText(t))}</failure>\n`;
  } else if (t.status === 'skipped') {
    inner = `      <skipped message="${xml(t.reason ?? 'skipped')}"/>\n`;
  }
  const notes = t.findings.filter((f) => f.severity === 'warning').map((w) => `warning [${w.requirement}] ${w.check}: ${w.message}`);
  if (t.outcome === 'unexpected-pass')
    notes.unshift('unexpected pass: the expectation file says FAIL; remove the entry (cms-conformance update-expectations)');
  if (t.outcome === 'expired') notes.unshift(`the expectation expired on ${t.expectation?.until}: the failure counts again`);
  if (notes.length) inner += `      <system-out>${xml(notes.join('\n'))}</system-out>\n`;
  return `${open}${inner}    </testcase>\n`;
}

/** Renders the JUnit XML document of a run. */
export function renderJunit(results: Results): string {
  const families = new Map<string, TestResult[]>();
  for (const t of results.tests) families.set(t.family, [...(families.get(t.family) ?? []), t]);
  const failedIn = (tests: readonly TestResult[]) => tests.filter(isUnexpectedFailure).length;
  const skippedIn = (tests: readonly TestResult[]) => tests.filter((t) => t.status === 'skipped' || isExcusedFailure(t)).length;
  // An interrupted run is an error of the run too: a CI reading only this file must not take its part for the whole.
  const runErrors = [
    ...(results.runErrors ?? []).map((message) => ({ message, type: 'run error' })),
    ...(results.interrupted ? [{ message: interruptionText(results.interrupted), type: 'interrupted' }] : []),
  ];
  let out =
    `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="cms-conformance" tests="${results.tests.length + runErrors.length}" ` +
    `failures="${failedIn(results.tests)}" skipped="${skippedIn(results.tests)}" errors="${runErrors.length}" ` +
    `time="${(results.durationMs / 1000).toFixed(3)}">\n`;
  // A suite file that did not load has no test to fail: each is an error of its own, or a CI reading only
  // this file would see every test that ran pass.
  if (runErrors.length) {
    out += `  <testsuite name="run" tests="${runErrors.length}" failures="0" skipped="0" errors="${runErrors.length}" time="0.000">\n`;
    for (const { message: e, type } of runErrors) {
      const file = /^(\S+\.ts): /.exec(e)?.[1] ?? '';
      out +=
        `    <testcase classname="run" name="${xml(type === 'interrupted' ? 'run interrupted' : `run error${file ? ` ${file}` : ''}`)}" file="${xml(file)}" time="0.000">\n` +
        `      <error message="${xml(e)}" type="${type}"/>\n    </testcase>\n`;
    }
    out += '  </testsuite>\n';
  }
  for (const [family, tests] of families) {
    const failed = failedIn(tests);
    const skipped = skippedIn(tests);
    const time = tests.reduce((a, t) => a + t.durationMs, 0) / 1000;
    out +=
      `  <testsuite name="${xml(family)}" tests="${tests.length}" failures="${failed}" skipped="${skipped}" errors="0" ` +
      `time="${time.toFixed(3)}" timestamp="${xml(results.startedAt)}">\n`;
    out +=
      `    <properties><property name="seed" value="${results.seed}"/>` +
      `<property name="target" value="${xml(results.target.baseUrl)}"/></properties>\n`;
    out += tests.map(testcase).join('');
    out += '  </testsuite>\n';
  }
  return `${out}</testsuites>\n`;
}

/** Writes junit.xml into the output folder and returns its path. */
export function writeJunit(outDir: string, results: Results): string {
  const path = join(outDir, 'junit.xml');
  writeFileSync(path, renderJunit(results));
  return path;
}
