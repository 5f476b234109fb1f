/**
 * The vitest reporter of a conformance run: turns each finished test into a TestResult and prints
 * one progress line per test, so a long run against a slow server shows where it is.
 */
import { relative } from 'node:path';
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import { EXCHANGE_COUNTS, type ExchangeCounts, type TestResult } from '../schemas/results.ts';
import type { TestMeta } from '../harness/suite.ts';
import { familyOf } from './results.ts';

/** The exchange counts a test's meta carries; the suite wrapper fills them, and a count it lacks stays out. */
function countsOf(meta: Partial<Record<keyof ExchangeCounts, unknown>>): ExchangeCounts {
  const counts: ExchangeCounts = {};
  for (const key of EXCHANGE_COUNTS) {
    const n = meta[key];
    if (typeof n === 'number' && Number.isInteger(n)) counts[key] = n;
  }
  return counts;
}

/** Collects the results of a run and prints progress to the given stream. */
export class ResultCollector implements Reporter {
  readonly results: TestResult[] = [];
  /** Errors outside any test (a suite file that does not load, an unhandled rejection). */
  readonly runErrors: string[] = [];
  /** performance.now() when the first failed test was reported, for time-to-first-failure. */
  firstFailureAt: number | undefined;
  /**
   * The results of tests run against configurations of their own, by run id; they are not in `results`,
   * where a test appears once. `spentMs` adds up their durations as they come in, and `firstFailureMs`
   * is what it was when the first of them failed: the time the configuration's own tests took to fail.
   */
  readonly byRun = new Map<string, { results: TestResult[]; spentMs: number; firstFailureMs?: number }>();
  /**
   * Set when the run was cancelled (a signal): from then on a test that did not pass or fail is one the run
   * never got to end, and is left out, so that an interrupted run's reports hold only the tests that ran.
   */
  cancelled = false;
  /** Called with a run id and what `byRun` holds of it each time a result of it is filed there. */
  onRunResult: ((runId: string, filed: { results: TestResult[]; firstFailureMs?: number }) => void) | undefined;

  constructor(
    private readonly root: string,
    private readonly out: NodeJS.WritableStream = process.stdout,
  ) {}

  /** Forgets the results of an earlier run (the engine runs the suites several times). */
  reset(): void {
    this.results.length = 0;
    this.runErrors.length = 0;
    this.firstFailureAt = undefined;
    this.byRun.clear();
    this.cancelled = false;
  }

  onTestModuleStart(module: TestModule): void {
    // Vitest reports the files a cancelled run never started as started: no line for them.
    if (this.cancelled) return;
    this.out.write(`${relative(this.root, module.moduleId)}\n`);
  }

  /** A suite file that throws while it loads has no test to fail: its error fails the run instead. */
  onTestModuleEnd(module: TestModule): void {
    for (const e of module.errors()) this.runErrors.push(`${relative(this.root, module.moduleId)}: ${e.message}`);
  }

  onTestCaseResult(testCase: TestCase): void {
    const result = testCase.result();
    // Tests left out by --only are not part of the run; a test skipped at run time carries its reason.
    if (result.state === 'skipped' && testCase.options.mode !== 'run') return;
    // After a cancel, a test neither passed nor failed (skipped, or still pending) is one the run never ended.
    if (this.cancelled && result.state !== 'passed' && result.state !== 'failed') return;
    const runs = testCase.meta().cmsRuns;
    if (runs) {
      // A test run against configurations of its own: one result per configuration, filed under its run id.
      for (const run of runs) {
        const test = this.resultOf(testCase, run, run.status, run.reason, run.durationMs);
        const filed = this.byRun.get(run.runId) ?? { results: [], spentMs: 0 };
        filed.results.push(test);
        filed.spentMs += test.durationMs;
        if (test.status === 'failed') filed.firstFailureMs ??= filed.spentMs;
        this.byRun.set(run.runId, filed);
        this.print(test, run.reason ?? '');
        this.onRunResult?.(run.runId, filed);
      }
      if (runs.some((r) => r.status === 'failed')) this.firstFailureAt ??= performance.now();
      // A test stopped before it ran against every configuration (a timeout): the error says so.
      if (result.state === 'failed' && !runs.some((r) => r.status === 'failed'))
        this.runErrors.push(`${testCase.name}: ${(result.errors ?? []).map((e) => e.message).join('; ') || 'failed'}`);
      return;
    }
    const meta = testCase.meta().cms;
    const status = result.state === 'passed' ? 'passed' : result.state === 'failed' ? 'failed' : 'skipped';
    const findings = meta?.findings ?? [];
    let reason: string | undefined;
    if (result.state === 'skipped') reason = result.note ?? 'skipped';
    if (result.state === 'failed' && !findings.some((f) => f.severity === 'error')) {
      // Failed without a finding: the suite could not judge (setup failed, or a bug of ours).
      reason = (result.errors ?? []).map((e) => e.message).join('; ') || 'failed';
    }
    const test = this.resultOf(testCase, meta, status, reason, testCase.diagnostic()?.duration ?? 0);
    this.results.push(test);
    if (status === 'failed') this.firstFailureAt ??= performance.now();
    this.print(test, result.state === 'failed' ? (result.errors ?? []).map((e) => e.message).join('\n') : '');
  }

  /** The result of a test as the reports hold it. */
  private resultOf(
    testCase: TestCase,
    meta: TestMeta | undefined,
    status: TestResult['status'],
    reason: string | undefined,
    durationMs: number,
  ): TestResult {
    const requirement = meta?.requirement ?? testCase.name.split(' ')[0] ?? 'UNKNOWN';
    return {
      id: testCase.name,
      title: testCase.name.slice(requirement.length + 1),
      file: relative(this.root, testCase.module.moduleId),
      requirement,
      family: familyOf(requirement),
      ...(meta?.operation ? { operation: meta.operation } : {}),
      status,
      ...(reason ? { reason } : {}),
      durationMs: Math.round(durationMs),
      ...(meta ? countsOf(meta) : {}),
      findings: meta?.findings ?? [],
      ...(meta?.parameters ? { parameters: meta.parameters } : {}),
    };
  }

  /** The progress line of a result; a failure's detail below it. */
  private print(test: TestResult, detail: string): void {
    const { status, findings } = test;
    const mark = status === 'passed' ? '✓' : status === 'failed' ? '✗' : '-';
    const warn = findings.filter((f) => f.severity === 'warning').length;
    const tail =
      status === 'skipped'
        ? ` (skipped: ${test.reason})`
        : `${warn ? ` (${warn} warning${warn > 1 ? 's' : ''})` : ''} ${test.durationMs} ms`;
    this.out.write(`  ${mark} ${test.id}${tail}\n`);
    if (status === 'failed') this.out.write(`${detail.replace(/^/gm, '      ')}\n`);
  }

  onTestRunEnd(_modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<{ message?: string }>): void {
    for (const e of errors) this.runErrors.push(e.message ?? String(e));
  }
}
