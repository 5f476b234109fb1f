/**
 * The suite engine: one Vitest instance that runs the conformance suites, as many times as asked,
 * each time against a given run configuration. `run` uses it once; `prove` once per planted fault,
 * which saves Vitest's start-up for every one of them.
 */
import { randomUUID } from 'node:crypto';
import { relative } from 'node:path';
import { createVitest, type Vitest } from 'vitest/node';
import type { RunConfig } from '../harness/config.ts';
import { ResultCollector } from '../reports/collector.ts';
import type { TestResult } from '../schemas/results.ts';
import { NATIVE_MODULES, SUITE_GLOB, isDisposableSuite, projectRoot, type DeclaredTest } from './project.ts';

/** What one run of the suites produced. */
export interface SuiteRun {
  tests: TestResult[];
  /** Errors outside any test: a suite file that does not load. */
  runErrors: string[];
  /** Milliseconds from the start of the run to the first failed test, if one failed. */
  firstFailureMs?: number;
  durationMs: number;
  /**
   * The results against each configuration of `byTest`, by the object the caller gave, and the time its
   * own tests took up to the first that failed.
   */
  byConfig: Map<RunConfig, { tests: TestResult[]; firstFailureMs?: number }>;
}

/** Options of the engine: parallel workers, progress output, sharding. */
export interface EngineOptions {
  workers: number;
  /** Where progress lines go (default stdout); `null` keeps quiet. */
  progress?: NodeJS.WritableStream | null;
  /** `i/n`: run only the i-th of n parts of the suite files. */
  shard?: string;
  /** The suite files (a glob relative to the project); the conformance suites unless the project's tests say otherwise. */
  include?: string;
}

const sink = { write: () => true } as unknown as NodeJS.WritableStream;

const byId = (a: TestResult, b: TestResult) => a.id.localeCompare(b.id);

/** Runs the conformance suites against run configurations. */
export class SuiteEngine {
  private constructor(
    private readonly vitest: Vitest,
    private readonly collector: ResultCollector,
  ) {}

  /** Starts Vitest for the suites (nothing runs yet). */
  static async create(options: EngineOptions): Promise<SuiteEngine> {
    const collector = new ResultCollector(projectRoot, options.progress === null ? sink : (options.progress ?? process.stdout));
    const signals = ['SIGINT', 'SIGTERM'] as const;
    const before = new Map(signals.map((s) => [s, new Set(process.listeners(s))]));
    const vitest = await createVitest('test', {
      config: false,
      root: projectRoot,
      include: [options.include ?? SUITE_GLOB],
      watch: false,
      reporters: [collector],
      passWithNoTests: true,
      pool: 'threads',
      // One module graph per worker, not per suite file: the schemas compile and the validators are made
      // once per worker, which shortens a default run considerably.
      isolate: false,
      // Transformed suites kept on disk (node_modules/.experimental-vitest-cache, dropped with the install):
      // a run no longer transforms every suite module in its main thread, which cost start-up time and memory.
      experimental: { fsModuleCache: true },
      server: { deps: { external: NATIVE_MODULES } },
      fileParallelism: options.workers > 1,
      maxWorkers: options.workers,
      ...(options.shard ? { shard: options.shard } : {}),
    });
    // Vitest's logger ends the process a millisecond after SIGINT or SIGTERM, before a run can remove its
    // sandbox from a slow target or write what it has: the run handles those signals itself (cli/interrupt.ts).
    for (const s of signals) for (const l of process.listeners(s)) if (!before.get(s)!.has(l)) process.off(s, l);
    return new SuiteEngine(vitest, collector);
  }

  /** Stops the run under way: tests not yet ended are left out, those in flight abandon their requests. */
  async cancel(): Promise<void> {
    this.collector.cancelled = true;
    await this.vitest.cancelCurrentRun('keyboard-input');
  }

  /**
   * Runs the tests whose names match `pattern` (all when absent) against `config`. `files` (relative
   * to the project) narrows the suite files loaded, when the caller knows where the tests are; `byTest`
   * gives some tests (by id) configurations of their own, each test running against each of its in
   * turn (prove runs all its cases in one run, each against a server of its own); `onDone` hears of
   * each of those configurations once every test listed for it has its result, and gets them.
   */
  async run(
    config: RunConfig,
    pattern?: RegExp,
    files?: readonly string[],
    byTest?: Record<string, RunConfig[]>,
    onDone?: (config: RunConfig, tests: TestResult[], firstFailureMs: number | undefined) => void,
  ): Promise<SuiteRun> {
    this.collector.reset();
    const started = performance.now();
    const project = this.vitest.getRootProject();
    project.provide('cmsRun', { ...config, runId: randomUUID() });
    // One run id per configuration, shared by all its tests.
    const ids = new Map<RunConfig, string>();
    const withId = (c: RunConfig): RunConfig => ({ ...c, runId: ids.get(c) ?? ids.set(c, randomUUID()).get(c)! });
    project.provide('cmsRunByTest', Object.fromEntries(Object.entries(byTest ?? {}).map(([test, list]) => [test, list.map(withId)])));
    const listed = new Map<string, { config: RunConfig; tests: number }>();
    for (const [c, runId] of ids) listed.set(runId, { config: c, tests: 0 });
    for (const list of Object.values(byTest ?? {})) for (const c of list) listed.get(ids.get(c)!)!.tests++;
    this.collector.onRunResult = (runId, filed) => {
      const mine = listed.get(runId);
      if (mine && filed.results.length === mine.tests) onDone?.(mine.config, [...filed.results].sort(byId), filed.firstFailureMs);
    };
    if (pattern) this.vitest.setGlobalTestNamePattern(pattern);
    else this.vitest.resetGlobalTestNamePattern();
    let specs = await this.vitest.getRelevantTestSpecifications();
    if (files) specs = specs.filter((s) => files.some((f) => s.moduleId.endsWith(f)));
    // The tests that change fixture objects (on a target declaring `disposable`) come after every other test, which
    // they would otherwise disturb while it runs.
    const last = specs.filter((s) => isDisposableSuite(s.moduleId));
    const first = specs.filter((s) => !last.includes(s));
    if (first.length || !last.length) await this.vitest.runTestSpecifications(first, true);
    if (last.length && !this.collector.cancelled) await this.vitest.runTestSpecifications(last, !first.length);
    const failedAt = this.collector.firstFailureAt;
    const byConfig: SuiteRun['byConfig'] = new Map();
    for (const [c, runId] of ids) {
      const mine = this.collector.byRun.get(runId);
      const first = mine?.firstFailureMs;
      byConfig.set(c, { tests: [...(mine?.results ?? [])].sort(byId), ...(first !== undefined ? { firstFailureMs: first } : {}) });
    }
    return {
      tests: [...this.collector.results].sort(byId),
      runErrors: [...this.collector.runErrors],
      ...(failedAt !== undefined ? { firstFailureMs: Math.round(failedAt - started) } : {}),
      durationMs: Math.round(performance.now() - started),
      byConfig,
    };
  }

  /**
   * The tests the suite files declare, without running any (imports them, sends nothing). A file that
   * does not load is an error: its tests would be missing without a word.
   */
  async collect(): Promise<DeclaredTest[]> {
    const { testModules, unhandledErrors } = await this.vitest.collect();
    const errors = [
      ...unhandledErrors.map((e) => (e as Error).message ?? String(e)),
      ...testModules.flatMap((m) => m.errors().map((e) => `${relative(projectRoot, m.moduleId)}: ${e.message}`)),
    ];
    if (errors.length) throw new Error(`the suites do not load: ${errors.join('; ')}`);
    const tests: DeclaredTest[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        tests.push({ id: test.name, requirement: test.name.split(' ')[0] ?? '', file: relative(projectRoot, module.moduleId) });
      }
    }
    return tests.sort((a, b) => a.id.localeCompare(b.id));
  }

  /** Stops Vitest and its workers. */
  async close(): Promise<void> {
    await this.vitest.close();
  }
}
