/**
 * summary.md: the run in a few lines, fit for a pull-request comment. Findings quote server bodies,
 * so every such text is flattened and escaped: no markup, no links, no @mentions reach the comment.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectationCounts, isUnexpectedFailure, verdictOf } from './expectations.ts';
import { exchangeTotals, interruptionText, seedText } from './results.ts';
import { causesOf, extentOf, touchedTests, type Cause } from './causes.ts';
import type { Results, Severity, TestResult } from '../schemas/results.ts';

/** Failed tests listed in full; the rest are counted (a PR comment has a size limit). */
const MAX_FAILED_ROWS = 25;
/** Causes of warnings (and of notes) listed in full; the rest are counted. */
const MAX_CAUSE_ROWS = 15;

/** Text on one line, cut to `max` characters with an ellipsis. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Text made inert for Markdown (GitHub flavour): one line, markup and HTML escaped, no @mentions. */
export function mdText(text: string, max = 200): string {
  return oneLine(text, max)
    .replace(/[\\`*_[\]|~#!]/g, '\\$&')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/@/g, '&#64;');
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function firstFinding(t: TestResult): string {
  const f = t.findings.find((x) => x.severity === 'error');
  return f ? `${f.check}: ${f.message}` : (t.reason ?? 'failed');
}

/** The rows of a causes table: one per cause, its count, first example and the first few tests it touched. */
function causeRows(causes: readonly Cause[], what: string): string[] {
  const rows = ['| count | requirement | check | first example | tests |', '|---:|---|---|---|---|'];
  for (const c of causes.slice(0, MAX_CAUSE_ROWS)) {
    const tests = touchedTests(c, (id) => mdText(id, 120));
    rows.push(`| ${c.count} | ${mdText(c.requirement)} | ${mdText(c.check)} | ${mdText(c.example)} | ${tests} |`);
  }
  if (causes.length > MAX_CAUSE_ROWS) rows.push('', `…and ${causes.length - MAX_CAUSE_ROWS} more causes of ${what}: see report.html.`);
  return rows;
}

/** The causes section of one severity, or nothing when the run had no finding of it. */
function causesSection(results: Results, severity: Severity, title: string, what: string): string[] {
  const causes = causesOf(results, severity);
  if (!causes.length) return [];
  return [
    '',
    `### ${title} (${extentOf(causes)}, ${causes.length} cause${causes.length === 1 ? '' : 's'})`,
    '',
    ...causeRows(causes, what),
  ];
}

function failureMark(t: TestResult): string {
  if (t.outcome === 'expected-fail') return '➖ expected';
  if (t.outcome === 'flaky') return '➖ flaky';
  return t.outcome === 'expired' ? '❌ expired' : '❌';
}

/** Renders summary.md. */
export function renderMarkdown(results: Results): string {
  const s = results.summary;
  const verdict = verdictOf(results);
  const out = [
    `## ${verdict.exitCode ? '❌' : '✅'} cms-conformance: ${mdText(verdict.text)}`,
    '',
    ...(results.interrupted ? [`> **${mdText(interruptionText(results.interrupted), 300)}**`, ''] : []),
    `Target ${mdText(results.target.baseUrl)}${results.target.embedded ? ' (bundled reference server)' : ''} · ` +
      `features: ${mdText(results.target.features.join(', ') || 'none')} · ${mdText(results.startedAt)} · ` +
      `${seconds(results.durationMs)} · ${seedText(results)}`,
    '',
    // Results written before notes existed have no count of them: no column rather than a false 0.
    `| tests | passed | failed | skipped | warnings |${s.notes !== undefined ? ' notes |' : ''}`,
    `|---:|---:|---:|---:|---:|${s.notes !== undefined ? '---:|' : ''}`,
    `| ${s.total} | ${s.passed} | ${s.failed} | ${s.skipped} | ${s.warnings} |${s.notes !== undefined ? ` ${s.notes} |` : ''}`,
  ];
  const totals = exchangeTotals(s);
  if (totals) out.push('', `${totals}.`);
  if (results.runErrors?.length) {
    out.push('', `### Run errors (${results.runErrors.length}): the tests of these suite files did not run`, '');
    for (const e of results.runErrors) out.push(`- ${mdText(e, 300)}`);
  }
  const x = s.expectations;
  if (x) {
    out.push('', `Expectations (${mdText(x.file)}): ${expectationCounts(x)}.`);
  }
  // Failures that count come first, expected ones last.
  const failed = results.tests
    .filter((t) => t.status === 'failed')
    .sort((a, b) => Number(isUnexpectedFailure(b)) - Number(isUnexpectedFailure(a)));
  if (failed.length) {
    out.push('', `### Failed tests (${failed.length})`, '', '| | test | requirement | first finding |', '|---|---|---|---|');
    for (const t of failed.slice(0, MAX_FAILED_ROWS))
      out.push(`| ${failureMark(t)} | ${mdText(t.id, 120)} | ${mdText(t.requirement)} | ${mdText(firstFinding(t))} |`);
    if (failed.length > MAX_FAILED_ROWS) out.push('', `…and ${failed.length - MAX_FAILED_ROWS} more: see report.html.`);
  }
  const passes = results.tests.filter((t) => t.outcome === 'unexpected-pass');
  if (passes.length) {
    out.push('', `### Unexpected passes (${passes.length}): remove them from the expectation file`, '');
    for (const t of passes) out.push(`- ${mdText(t.id, 120)}`);
  }
  const flaky = results.tests.filter((t) => t.outcome === 'flaky');
  if (flaky.length) {
    out.push('', `### Flaky tests (${flaky.length}): either outcome allowed by the expectation file`, '');
    for (const t of flaky) out.push(`- ${mdText(t.id, 120)} (${t.status})`);
  }
  if (x?.stale.length) {
    out.push('', `### Stale expectations (${x.stale.length}): no such test in this run`, '');
    for (const id of x.stale) out.push(`- ${mdText(id, 120)}`);
  }
  out.push(...causesSection(results, 'warning', 'Warnings by cause', 'warnings'));
  out.push(...causesSection(results, 'note', 'Notes: values the contract allows but does not show', 'notes'));
  const families = Object.entries(s.byFamily).sort(([a], [b]) => a.localeCompare(b));
  if (families.length) {
    out.push('', '### By family', '', '| family | passed | failed | skipped | total |', '|---|---:|---:|---:|---:|');
    for (const [family, c] of families) out.push(`| ${mdText(family)} | ${c.passed} | ${c.failed} | ${c.skipped} | ${c.total} |`);
  }
  const skips = Object.entries(s.skipReasons).sort(([, a], [, b]) => b - a);
  if (skips.length) {
    out.push('', '### Skipped', '');
    for (const [reason, n] of skips) out.push(`- ${n} × ${mdText(reason)}`);
  }
  out.push('', `Repeat this run with \`--seed ${results.seed}\`; every failure's details, exchange and replay line are in report.html.`);
  return `${out.join('\n')}\n`;
}

/** Writes summary.md into the output folder and returns its path. */
export function writeMarkdown(outDir: string, results: Results): string {
  const path = join(outDir, 'summary.md');
  writeFileSync(path, renderMarkdown(results));
  return path;
}
