/** results.json: the machine-readable truth of a run, from which every other report is derived. */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReportedFinding } from '../harness/suite.ts';

/** One test's outcome. `id` is stable across runs: it never contains a seed or a generated value. */
export interface TestResult {
  id: string;
  title: string;
  /** The suite file, relative to the project (e.g. suites/operations/sweep.suite.ts). */
  file: string;
  requirement: string;
  family: string;
  operation?: string;
  status: 'passed' | 'failed' | 'skipped';
  /** Why a test was skipped, or the error of a test that failed without a finding (a setup failure). */
  reason?: string;
  durationMs: number;
  /** Requests the test sent (setup included). */
  requests?: number;
  /** Responses the test validated against their operation's schema. */
  validated?: number;
  findings: ReportedFinding[];
  /** Set when the run's expectation file lists the test (reports/expectations.ts). */
  expected?: 'FAIL';
  /** The test against its expectation; absent when no expectation file lists it. */
  outcome?: 'expected-fail' | 'unexpected-pass' | 'expired';
  /** The expectation entry's reason, issue and end date, for the reports. */
  expectation?: { reason: string; issue?: string; until?: string };
}

/** Counts of one group of tests. */
export interface Counts {
  total: number;
  passed: number;
  failed: number;
  skipped: number;
}

/** What an expectation file did to a run: failures it excused, passes and expired entries it did not foresee. */
export interface ExpectationSummary {
  /** The expectation file, as given. */
  file: string;
  expectedFailures: number;
  unexpectedPasses: number;
  expired: number;
  /** Ids of the file that name no test of this run. */
  stale: string[];
}

/** The counts of a run, overall and per requirement family, and the reasons of skips. */
export interface Summary extends Counts {
  warnings: number;
  byFamily: Record<string, Counts>;
  skipReasons: Record<string, number>;
  /** Present when an expectation file was applied; `failed` still counts every failure. */
  expectations?: ExpectationSummary;
}

/** A whole run. */
export interface Results {
  tool: { name: 'cms-conformance'; version: string };
  target: { baseUrl: string; features: string[]; embedded: boolean };
  seed: number;
  runs: number;
  startedAt: string;
  durationMs: number;
  summary: Summary;
  tests: TestResult[];
}

function emptyCounts(): Counts {
  return { total: 0, passed: 0, failed: 0, skipped: 0 };
}

/** The family of a requirement id: its prefix (`PAG-03` -> `PAG`, `OP-folder.load` -> `OP`). */
export function familyOf(requirement: string): string {
  return requirement.split('-')[0] ?? requirement;
}

/** Counts tests overall and per family; warnings are findings of severity warning. */
export function summarize(tests: readonly TestResult[]): Summary {
  const summary: Summary = { ...emptyCounts(), warnings: 0, byFamily: {}, skipReasons: {} };
  for (const t of tests) {
    const family = (summary.byFamily[t.family] ??= emptyCounts());
    for (const c of [summary, family]) {
      c.total++;
      c[t.status]++;
    }
    if (t.status === 'skipped' && t.reason) summary.skipReasons[t.reason] = (summary.skipReasons[t.reason] ?? 0) + 1;
    summary.warnings += t.findings.filter((f) => f.severity === 'warning').length;
  }
  return summary;
}

/** Writes results.json into the output folder (created if needed) and returns its path. */
export function writeResults(outDir: string, results: Results): string {
  mkdirSync(outDir, { recursive: true });
  const path = join(outDir, 'results.json');
  writeFileSync(path, `${JSON.stringify(results, null, 2)}\n`);
  return path;
}

/** A results, baseline or expectation file that cannot be used: the CLI maps it to exit code 2. */
export class ReportInputError extends Error {
  override name = 'ReportInputError';
}

const statuses: readonly string[] = ['passed', 'failed', 'skipped'];

/** Reads a results.json written by a run (or the one in a report folder), checking the shape every report relies on. */
export function loadResults(fileOrDir: string): Results {
  const path = existsSync(fileOrDir) && statSync(fileOrDir).isDirectory() ? join(fileOrDir, 'results.json') : fileOrDir;
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new ReportInputError(e.code ? `cannot read ${path}: ${e.code}` : `${path} is not valid JSON: ${e.message}`);
  }
  const r = data as Partial<Results> | null;
  const fail = (what: string): never => {
    throw new ReportInputError(`${path} is not a cms-conformance results.json: ${what}`);
  };
  if (typeof r !== 'object' || r === null || Array.isArray(r)) fail('not a JSON object');
  if (r?.tool?.name !== 'cms-conformance') fail('"tool.name" is not "cms-conformance"');
  if (typeof r?.target?.baseUrl !== 'string' || typeof r.seed !== 'number' || typeof r.durationMs !== 'number') fail('"target.baseUrl", "seed" or "durationMs" missing');
  if (typeof r?.startedAt !== 'string' || Number.isNaN(Date.parse(r.startedAt))) fail('"startedAt" is not a date');
  if (!Array.isArray(r?.tests)) fail('"tests" is not an array');
  r?.tests?.forEach((t, i) => {
    const bad = typeof t !== 'object' || t === null || typeof t.id !== 'string' || typeof t.requirement !== 'string' || !statuses.includes(t.status) || !Array.isArray(t.findings);
    if (bad) fail(`tests[${i}] lacks a string "id" and "requirement", a "status" (passed, failed, skipped) or a "findings" array`);
  });
  return r as Results;
}
