/**
 * results.json: written once per run, read back by merge, update-expectations, --baseline and the reports. The format is
 * schemas/results.ts.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { makeDir } from './dirs.ts';
import { join } from 'node:path';
import { fileProblem } from '../schemas/files.ts';
import { EXCHANGE_COUNTS, type Counts, type Interruption, type Results, type Summary, type TestResult } from '../schemas/results.ts';

function emptyCounts(): Counts {
  return { total: 0, passed: 0, failed: 0, skipped: 0 };
}

/** The family of a requirement id: its prefix (`PAG-03` -> `PAG`, `OP-folder.load` -> `OP`). */
export function familyOf(requirement: string): string {
  return requirement.split('-')[0] ?? requirement;
}

/** Counts tests overall and per family, and totals their exchange counts; warnings and notes are findings of that severity. */
export function summarize(tests: readonly TestResult[]): Summary {
  const summary: Summary = { ...emptyCounts(), warnings: 0, notes: 0, byFamily: {}, skipReasons: {} };
  let notes = 0;
  // A total is left out when no test carries its count (results of a version that did not count it).
  for (const key of EXCHANGE_COUNTS) {
    const counted = tests.filter((t) => t[key] !== undefined);
    if (counted.length) summary[key] = counted.reduce((n, t) => n + (t[key] ?? 0), 0);
  }
  for (const t of tests) {
    const family = (summary.byFamily[t.family] ??= emptyCounts());
    for (const c of [summary, family]) {
      c.total++;
      c[t.status]++;
    }
    if (t.status === 'skipped' && t.reason) summary.skipReasons[t.reason] = (summary.skipReasons[t.reason] ?? 0) + 1;
    for (const f of t.findings) {
      if (f.severity === 'warning') summary.warnings++;
      else if (f.severity === 'note') notes++;
    }
  }
  summary.notes = notes;
  return summary;
}

/**
 * Whether a test passed saying the target's own data gave it nothing to judge (a `fixture` warning,
 * harness/suite.ts nothingToJudge): it passed without checking what its requirement states.
 */
export function hadNothingToJudge(t: TestResult): boolean {
  return t.status === 'passed' && t.findings.some((f) => f.check === 'fixture' && f.severity === 'warning');
}

/** The exchange totals in one line, "7,900 of 7,900 answers validated; 12 retries", or undefined for results that did not count them. */
export function exchangeTotals(summary: Summary): string | undefined {
  if (summary.answers === undefined || summary.validated === undefined) return undefined;
  const n = (x: number) => x.toLocaleString('en-US');
  const retries = summary.retries ?? 0;
  return `${n(summary.validated)} of ${n(summary.answers)} answers validated; ${n(retries)} ${retries === 1 ? 'retry' : 'retries'}`;
}

/** The seed and where it came from: "seed 20260101 (default)", "seed 7 (given)", "seed 123 (random)". */
export function seedText(results: Pick<Results, 'seed' | 'seedSource'>): string {
  return `seed ${results.seed}${results.seedSource ? ` (${results.seedSource})` : ''}`;
}

/** The banner of an interrupted run, the same in report.html and summary.md. */
export function interruptionText(interrupted: Interruption): string {
  return `INTERRUPTED by ${interrupted.signal} at ${interrupted.at}: these results are partial; tests that had not run are missing.`;
}

/** Writes results.json into the output folder (created if needed) and returns its path. */
export function writeResults(outDir: string, results: Results): string {
  makeDir(outDir);
  const path = join(outDir, 'results.json');
  writeFileSync(path, `${JSON.stringify(results, null, 2)}\n`);
  return path;
}

/** A results, baseline or expectation file that cannot be used: the CLI maps it to exit code 2. */
export class ReportInputError extends Error {
  override name = 'ReportInputError';
}

/** The results.json a path names: the file itself, or the one in a report folder. */
export function resultsPath(fileOrDir: string): string {
  return existsSync(fileOrDir) && statSync(fileOrDir).isDirectory() ? join(fileOrDir, 'results.json') : fileOrDir;
}

/** Reads a results.json written by a run (or the one in a report folder), checked against schemas/results/results.json. */
export function loadResults(fileOrDir: string): Results {
  const path = resultsPath(fileOrDir);
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new ReportInputError(e.code ? `cannot read ${path}: ${e.code}` : `${path} is not valid JSON: ${e.message}`);
  }
  const problem = fileProblem('results', data);
  if (problem) throw new ReportInputError(`${path}: ${problem}`);
  return data as Results;
}
