/**
 * The end of a run: credentials scrubbed, expectations applied, every report written, the exit code
 * decided. `cms-conformance run` and `cms-conformance merge` both end here.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { makeDir } from './dirs.ts';
import { join } from 'node:path';
import { applyExpectations, expectationNotes, expectationSummary, loadExpectations, verdictOf } from './expectations.ts';
import { writeHtml } from './html.ts';
import { writeJunit } from './junit.ts';
import { writeMarkdown } from './markdown.ts';
import { redact } from './redact.ts';
import { compareResults, renderRegressionMarkdown, renderRegressionText } from './regression.ts';
import type { Results, TestResult } from '../schemas/results.ts';
import { ReportInputError, loadResults, summarize, writeResults } from './results.ts';

export { ReportInputError } from './results.ts';

/** Options of finishRun. */
export interface FinishOptions {
  outDir: string;
  /** An earlier results.json to compare with: adds regression.md and regression lines. */
  baselineFile?: string;
  /** The baseline already read (it may have been in the out folder, whose reports a run removes as it starts). */
  baseline?: Results;
  /** The target's expectation file. */
  expectationsFile?: string;
  /** YYYY-MM-DD against which expectation end dates are compared (default: today, UTC). */
  today?: string;
  /** The target's credential values: replaced by `<redacted>` wherever a server echoed them. */
  secrets?: string[];
}

/** What finishRun did. */
export interface FinishResult {
  /** The results as written: redacted, expectations applied. */
  results: Results;
  /** The files written. */
  paths: string[];
  /** 0 when every test passed, was skipped or failed as expected; 1 otherwise. */
  exitCode: 0 | 1;
  /** Expectation and regression notes to print. */
  lines: string[];
}

/** The files finishRun may write into the out folder. */
export const REPORT_FILES = ['results.json', 'junit.xml', 'report.html', 'summary.md', 'regression.md'] as const;

/**
 * Removes an earlier run's reports from the out folder as a run starts: a run stopped before it writes
 * its own (SIGKILL, a crash) must not leave the earlier ones looking like its results.
 */
export function removeReports(outDir: string): void {
  for (const name of REPORT_FILES) rmSync(join(outDir, name), { force: true });
}

/**
 * Writes results.json, junit.xml, report.html, summary.md (and regression.md with a baseline) and
 * decides the exit code. A bad baseline or expectation file throws ReportInputError before anything is written.
 */
export function finishRun(raw: Results, options: FinishOptions): FinishResult {
  const secrets = options.secrets ?? [];
  const file = options.expectationsFile;
  const expectations = file === undefined ? undefined : loadExpectations(file);
  const read = options.baseline ?? (options.baselineFile === undefined ? undefined : loadResults(options.baselineFile));
  const baseline = read && redact(read, secrets);
  let results = redact(raw, secrets);
  if (file !== undefined && expectations) results = applyExpectations(results, expectations, { file, today: options.today });
  makeDir(options.outDir);
  const paths = [
    writeResults(options.outDir, results),
    writeJunit(options.outDir, results),
    writeHtml(options.outDir, results),
    writeMarkdown(options.outDir, results),
  ];
  const lines = expectationNotes(results);
  if (baseline) {
    const regression = compareResults(baseline, results);
    const path = join(options.outDir, 'regression.md');
    writeFileSync(path, renderRegressionMarkdown(regression));
    paths.push(path);
    lines.push(...renderRegressionText(regression));
  }
  return { results, paths, exitCode: verdictOf(results).exitCode, lines };
}

/**
 * Combines the results of sharded runs of one target and seed: tests concatenated (an id in two
 * shards is an error), summary recomputed, the run spanning from the first start to the last end.
 */
export function mergeResults(list: readonly Results[]): Results {
  const [first] = list;
  if (!first) throw new ReportInputError('nothing to merge');
  const seeds = [...new Set(list.map((r) => r.seed))];
  if (seeds.length > 1)
    throw new ReportInputError(`the shards ran with different seeds (${seeds.join(', ')}): run every shard with the same --seed`);
  // Shards of the embedded server each start it on their own port; a live target must be the same.
  const urls = [...new Set(list.filter((r) => !r.target.embedded).map((r) => r.target.baseUrl))];
  if (urls.length > 1) throw new ReportInputError(`the shards ran against different targets (${urls.join(', ')})`);
  const seen = new Set<string>();
  const tests: TestResult[] = [];
  for (const r of list) {
    for (const t of r.tests) {
      if (seen.has(t.id)) throw new ReportInputError(`the test "${t.id}" is in more than one shard`);
      seen.add(t.id);
      tests.push(t);
    }
  }
  tests.sort((a, b) => a.id.localeCompare(b.id));
  const start = Math.min(...list.map((r) => Date.parse(r.startedAt)));
  const end = Math.max(...list.map((r) => Date.parse(r.startedAt) + r.durationMs));
  const summary = summarize(tests);
  const files = [...new Set(list.flatMap((r) => (r.summary.expectations ? [r.summary.expectations.file] : [])))];
  if (files.length) {
    // A shard calls stale what another shard ran; only ids no shard ran stay stale.
    const stale = [...new Set(list.flatMap((r) => r.summary.expectations?.stale ?? []))].filter((id) => !seen.has(id)).sort();
    summary.expectations = expectationSummary(tests, files.join(', '), stale);
  }
  return {
    tool: first.tool,
    target: {
      ...first.target,
      features: [...new Set(list.flatMap((r) => r.target.features))],
      embedded: list.every((r) => r.target.embedded),
    },
    seed: first.seed,
    ...(first.seedSource ? { seedSource: first.seedSource } : {}),
    // The shards of one build carry one label (each shard's `run --label`).
    ...(first.label !== undefined ? { label: first.label } : {}),
    runs: Math.max(...list.map((r) => r.runs)),
    startedAt: new Date(start).toISOString(),
    durationMs: end - start,
    summary,
    ...(list.some((r) => r.runErrors?.length) ? { runErrors: list.flatMap((r) => r.runErrors ?? []) } : {}),
    tests,
  };
}
