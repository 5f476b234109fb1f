/** Small synthetic runs for the history tests: results.json objects that validate against the results schema, each test's outcome given as a cell letter. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeResults, summarize } from '../../reports/results.ts';
import { makeStatement, writeStatement } from '../../reports/statement.ts';
import type { Cell } from '../../reports/history.ts';
import type { Results, TestResult } from '../../schemas/results.ts';

/** One synthetic run: its tests' outcomes by id, and the facts history reads. */
export interface SyntheticRun {
  tests: Record<string, Cell>;
  startedAt: string;
  label?: string;
  baseUrl?: string;
  embedded?: boolean;
  version?: string;
  /** The catalogue digest the run records (results.json tool.catalogueDigest); none, as in older runs, when absent. */
  catalogue?: string;
  interrupted?: boolean;
}

function testOf(id: string, cell: Exclude<Cell, '-'>): TestResult {
  const requirement = id.split(' ')[0] ?? id;
  const base: TestResult = {
    id,
    title: id.slice(requirement.length + 1),
    file: 'suites/sample.suite.ts',
    requirement,
    family: requirement.split('-')[0] ?? requirement,
    status: cell === 'F' || cell === 'X' ? 'failed' : cell === 'S' ? 'skipped' : 'passed',
    durationMs: 3,
    findings: [],
  };
  if (cell === 'N')
    base.findings.push({
      requirement,
      check: 'fixture',
      severity: 'warning',
      message: 'nothing to judge',
      replay: 'npx cms-conformance run',
    });
  if (cell === 'X') return { ...base, expected: 'FAIL', outcome: 'expected-fail', expectation: { reason: 'known' } };
  if (cell === 'S') return { ...base, reason: 'the target does not declare "upload"' };
  return base;
}

/** A results.json object for a synthetic run; a test whose cell is '-' is left out. */
export function syntheticResults(run: SyntheticRun): Results {
  const tests = Object.entries(run.tests)
    .filter((e): e is [string, Exclude<Cell, '-'>] => e[1] !== '-')
    .map(([id, cell]) => testOf(id, cell));
  return {
    tool: { name: 'cms-conformance', version: run.version ?? '0.1.0', ...(run.catalogue ? { catalogueDigest: run.catalogue } : {}) },
    target: { baseUrl: run.baseUrl ?? 'http://cms.example/rest', features: ['upload'], embedded: run.embedded ?? false },
    seed: 20260101,
    seedSource: 'default',
    ...(run.label !== undefined ? { label: run.label } : {}),
    runs: 20,
    startedAt: run.startedAt,
    durationMs: 1000,
    ...(run.interrupted ? { interrupted: { signal: 'SIGINT', at: run.startedAt } } : {}),
    summary: summarize(tests),
    tests,
  };
}

/** Writes a synthetic run's results.json into a folder, with a report.html and a conformance statement beside it when asked. */
export function writeRun(dir: string, run: SyntheticRun, beside: { report?: boolean; statement?: boolean } = {}): string {
  const path = writeResults(dir, syntheticResults(run));
  if (beside.report)
    writeFileSync(
      join(dir, 'report.html'),
      `<!doctype html><title>report of ${run.label ?? run.startedAt}</title><h1 id="report">report</h1>`,
    );
  if (beside.statement) writeStatement(dir, makeStatement(readFileSync(path)));
  return path;
}
